package dev.strata.engine.version;

import dev.strata.engine.memtable.MemTable;
import java.util.List;

/**
 * Everything a read consults, captured together so it is consistent: the mutable memtable, the
 * frozen memtables waiting for flush (newest first) and the table {@link Version}. A new view is
 * published whenever one of them changes; a flush publishes the version holding its table before
 * the view without the flushed memtable, so no read can miss the data in between.
 *
 * <p>Reference-counted like {@link Version}: the engine holds one reference on the current view, each
 * Get or open scan another; a released view releases its version.
 *
 * <p>Thread-safe (immutable apart from the count).
 */
public final class ReadView {
  private final MemTable mutable;
  private final List<MemTable> frozen;
  private final Version version;
  private final RefCount refs = new RefCount(this);

  /** A view holding one reference, taking one on {@code version}. */
  public ReadView(MemTable mutable, List<MemTable> frozenNewestFirst, Version version) {
    if (!version.tryAcquire()) {
      throw new IllegalStateException("version already released: " + version);
    }
    this.mutable = mutable;
    this.frozen = List.copyOf(frozenNewestFirst);
    this.version = version;
  }

  /** The memtable taking writes when the view was made. */
  public MemTable mutable() {
    return mutable;
  }

  /** Frozen memtables, newest first. */
  public List<MemTable> frozen() {
    return frozen;
  }

  /** The tables. */
  public Version version() {
    return version;
  }

  /** Takes a reference if the view is still alive. */
  public boolean tryAcquire() {
    return refs.tryAcquire();
  }

  /** Drops a reference; the last releases the version. */
  public void release() {
    if (refs.release()) {
      version.release();
    }
  }
}
