package dev.strata.engine.version;

import dev.strata.sstable.TableReader;

/**
 * An open table reader in the {@link TableCache}, held by reads until given back with {@link
 * TableCache#release}. Its holders are one {@link StripedRefCount}; closing it first claims it, so
 * it is closed once, and only when nobody holds it.
 *
 * <p>Thread-safe: the claim is serialised on the handle's monitor, the rest is volatile or final.
 */
final class TableHandle {
  private final long fileNumber;
  private final TableReader reader;

  /** Who holds the reader now: reads, and the opener until its first release. */
  private final StripedRefCount holders = new StripedRefCount();

  /** Set (under the handle's monitor) once the reader is claimed for closing: for good. */
  private boolean claimed;

  /** Set when the reader left the cache's map while held: its last holder closes it. */
  private volatile boolean evicted;

  /** Run once the reader is closed, for an evicted one; set with {@link #evicted}, before it. */
  private volatile Runnable afterClose;

  /** {@link System#nanoTime} of the last acquire; kept only under a bounded capacity. */
  private volatile long lastUse;

  TableHandle(long fileNumber, TableReader reader) {
    this.fileNumber = fileNumber;
    this.reader = reader;
    holders.tryAcquire(); // the opener's
  }

  /**
   * Claims a reader nobody holds for closing; false when someone does (or it is claimed
   * already). A reader chosen to make room stays open for its holders; an evicted one admits
   * nobody new, so its last holder's release sees the count closed and claims it. Serialised: a
   * concurrent claim must not reopen the count after another's succeeded.
   */
  synchronized boolean tryClaim() {
    if (claimed) {
      return false;
    }
    holders.close();
    if (holders.idle()) {
      claimed = true;
      return true;
    }
    if (!evicted) {
      holders.reopen();
    }
    return false;
  }

  /** Claims a reader no read can reach any more (the cache is closing). */
  synchronized void claim() {
    holders.close();
    claimed = true;
  }

  /** The open reader; valid until the handle is released. */
  public TableReader reader() {
    return reader;
  }

  long fileNumber() {
    return fileNumber;
  }

  /** Holds the reader unless it is claimed or evicted; see {@link StripedRefCount#tryAcquire}. */
  boolean tryAcquire() {
    return holders.tryAcquire();
  }

  /** Drops a hold; true when the count is closed (the reader evicted, or being claimed). */
  boolean release() {
    return holders.release();
  }

  /** Whether nobody holds the reader now: a hint, for choosing what to evict. */
  boolean unheld() {
    return holders.idle();
  }

  /** Notes an acquire's time, for the least-recently-used choice. */
  void touch() {
    lastUse = System.nanoTime();
  }

  /** Whether this reader was used less recently than {@code other}. */
  boolean usedBefore(TableHandle other) {
    return lastUse - other.lastUse < 0;
  }

  /** Marks the reader as out of the cache's map; its closer then runs {@code afterLateClose}. */
  void markEvicted(Runnable afterLateClose) {
    afterClose = afterLateClose;
    evicted = true;
  }

  boolean isEvicted() {
    return evicted;
  }

  /**
   * The action an eviction left for whoever closes the reader, taken once: null when there is none
   * or it was taken ({@code clear}: the evicting thread closed it and acts itself).
   */
  Runnable takeAfterClose() {
    Runnable r = afterClose;
    afterClose = null;
    return r;
  }
}
