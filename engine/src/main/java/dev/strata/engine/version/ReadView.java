package dev.strata.engine.version;

import dev.strata.engine.memtable.MemTable;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Everything a read consults, captured together so it is consistent: the mutable memtable, the
 * frozen memtables waiting for flush (newest first) and the table {@link Version}. A new view is
 * published whenever one of them changes; a flush publishes the version holding its table before
 * the view without the flushed memtable, so no read can miss the data in between.
 *
 * <p>Reference-counted like {@link Version}: the engine holds one reference on the current view,
 * each open scan or cursor another. A Get enters the view instead ({@link #tryEnterGet}): counted on
 * a stripe of its thread ({@link StripedReaders}), so concurrent Gets write no shared line (RocksDB
 * caches a SuperVersion per thread for the same reason). The view releases its version once its
 * last reference is released and the last Get inside has left, whichever comes last.
 *
 * <p>Thread-safe (immutable apart from the counts).
 */
public final class ReadView {
  private final MemTable mutable;
  private final List<MemTable> frozen;
  private final Version version;
  private final WastedReads levelZeroReads;
  private final RefCount refs = new RefCount(this);
  private final StripedReaders gets = new StripedReaders();
  /** Set by whoever releases the version: the last of the references and the Gets inside. */
  private final AtomicBoolean released = new AtomicBoolean();

  /** A view holding one reference, taking one on {@code version}; its reads charge nothing. */
  public ReadView(MemTable mutable, List<MemTable> frozenNewestFirst, Version version) {
    this(mutable, frozenNewestFirst, version, WastedReads.NONE);
  }

  /**
   * A view holding one reference, taking one on {@code version}, whose reads charge what they waste
   * on its level 0 to {@code levelZeroReads}.
   */
  public ReadView(
      MemTable mutable,
      List<MemTable> frozenNewestFirst,
      Version version,
      WastedReads levelZeroReads) {
    if (!version.tryAcquire()) {
      throw new IllegalStateException("version already released: " + version);
    }
    this.mutable = mutable;
    this.frozen = List.copyOf(frozenNewestFirst);
    this.version = version;
    this.levelZeroReads = levelZeroReads;
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

  /** What reads waste on the version's level 0: Gets and seeks charge it. */
  public WastedReads levelZeroReads() {
    return levelZeroReads;
  }

  /** Takes a reference if the view is still alive. */
  public boolean tryAcquire() {
    return refs.tryAcquire();
  }

  /** Drops a reference; after the last, the last Get to leave releases the version. */
  public void release() {
    if (refs.release()) {
      gets.close();
      releaseVersionIfIdle();
    }
  }

  /**
   * Enters a Get if the view still holds a reference (a view whose last reference is gone admits no
   * new Get: the caller takes the current view again); a true return must be matched by {@link
   * #exitGet} on the same thread. Writes only a line of the calling thread's.
   */
  public boolean tryEnterGet() {
    if (gets.tryEnter()) {
      return true;
    }
    releaseVersionIfIdle(); // the release's scan may have seen this refused Get inside
    return false;
  }

  /** Leaves the Get this thread entered; the last to leave a released view releases its version. */
  public void exitGet() {
    if (gets.leave()) {
      releaseVersionIfIdle();
    }
  }

  private void releaseVersionIfIdle() {
    if (gets.idle() && released.compareAndSet(false, true)) {
      version.release();
    }
  }
}
