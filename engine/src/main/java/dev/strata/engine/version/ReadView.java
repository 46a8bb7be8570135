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
 * <p>Its lifetime is one {@link StripedRefCount}: the engine owns the current view and closes it
 * when it publishes the next ({@link #close}); every read, a Get for one call as a scan or cursor
 * for its whole life, holds it by {@link #tryAcquire} and {@link #release}, on a stripe of its
 * thread, so concurrent Gets write no shared line (RocksDB caches a SuperVersion per thread for the
 * same reason). The view releases its version and its memtables once it is closed and its last
 * holder is gone, whichever comes last: a memtable's memory is reused once no view holds it.
 *
 * <p>Thread-safe (immutable apart from the count).
 */
public final class ReadView {
  private final MemTable mutable;
  private final List<MemTable> frozen;
  private final Version version;
  private final WastedReads levelZeroReads;
  private final StripedRefCount holders = new StripedRefCount();
  /** Set by whoever releases the version: the close or the last holder, whichever comes last. */
  private final AtomicBoolean released = new AtomicBoolean();

  /**
   * An open view, taking a reference on {@code version} and on each memtable; its reads charge
   * nothing.
   */
  public ReadView(MemTable mutable, List<MemTable> frozenNewestFirst, Version version) {
    this(mutable, frozenNewestFirst, version, WastedReads.NONE);
  }

  /**
   * An open view, taking a reference on {@code version} and on each memtable, whose reads charge
   * what they waste on its level 0 to {@code levelZeroReads}.
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
    mutable.retain();
    this.frozen.forEach(MemTable::retain);
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

  /**
   * Holds the view for a read unless it is closed (a newer view is current: the caller takes that
   * one); a true return must be matched by one {@link #release}, on any thread. Writes only a line
   * of the calling thread's.
   */
  public boolean tryAcquire() {
    if (holders.tryAcquire()) {
      return true;
    }
    releaseVersionIfIdle(); // the close's scan may have seen this refused holder
    return false;
  }

  /** Drops a read's hold; the last holder of a closed view releases its version. */
  public void release() {
    if (holders.release()) {
      releaseVersionIfIdle();
    }
  }

  /** The owner lets the view go: no new read may hold it, and the last holder releases it. */
  public void close() {
    holders.close();
    releaseVersionIfIdle();
  }

  private void releaseVersionIfIdle() {
    if (holders.idle() && released.compareAndSet(false, true)) {
      version.release();
      mutable.release();
      frozen.forEach(MemTable::release);
    }
  }
}
