package dev.strata.sstable.cache;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One entry of a {@link ClockBlockCache} shard held on the heap: an index or filter block, a data
 * block of a cache without an arena (or one its arena had no room for), and every block while it
 * loads. It holds the block (once loaded), the future its concurrent misses wait on, a CLOCK
 * frequency that hits raise without a lock, and the links of the segment queue it sits in, which
 * only the shard's lock touches. A data block the shard moves off the heap leaves its node behind
 * for an entry of {@link DataEntries}, so a cached off-heap block costs the heap no object.
 *
 * <p>Thread-safe as described: {@link #block} and {@link #frequency} are read and written without the
 * lock; the queue fields are guarded by the owning shard's lock.
 */
final class Node implements BlockCache.Entry {
  /** The most a hit raises {@link #frequency} to: S3-FIFO's two-bit counter. */
  static final int MAX_FREQUENCY = 3;

  /**
   * The cache's own cost per entry, charged on top of the block's {@link CachedBlock#sizeBytes}: this
   * node (seven references, two ints and four longs: 80 bytes) and about two slots of its shard's
   * {@link NodeTable} (8; the table holds between one and two slots per node). The future of a load
   * is dropped once the load completes, and the key is two longs in the node, so neither is charged.
   */
  static final int ENTRY_BYTES = (int) (HeapCost.object(7 * HeapCost.REFERENCE + 2 * 4 + 4 * 8)
      + 2 * HeapCost.REFERENCE);

  /** The block's key: its table's file number and its offset in the file. */
  final long fileNumber;
  final long offset;
  final BlockKind kind;

  /** The next node of its {@link NodeTable} bucket; see there for who writes it. */
  volatile Node chain;

  /**
   * Completes with the loaded block, or with the loader's exception. Set to null once a load has
   * succeeded and {@link #block} is set: a completed future would keep the loaded heap block
   * reachable after the cache moved its bytes off the heap.
   */
  volatile CompletableFuture<CachedBlock> loaded;

  /**
   * Null until the load succeeds; then the loaded block (which a node the shard moved off the heap
   * keeps for the waiters of its load, the table no longer holding it); null again once the shard
   * lets go of it (evicted, refused or closed), so a node kept as an entry ({@link
   * BlockCache.Entry}) holds no block the cache no longer charges.
   */
  volatile CachedBlock block;

  /** Raised by hits (racy and lossy on purpose: it is a hint), lowered by the clock hand. */
  volatile int frequency;

  /** Guarded by the shard's lock from here on. */
  long charge;

  /** When it was queued, by its shard's count: the order in which its segment and {@link EntryQueue} merge. */
  long seq;

  /** Pins held ({@link ClockBlockCache#getOrLoadPinned}); while above 0 the node is never evicted. */
  int pins;

  Segment segment;
  Node prev;
  Node next;

  /** A loading node: its misses wait on {@link #loaded} until the load completes. */
  Node(long fileNumber, long offset, BlockKind kind) {
    this(fileNumber, offset, kind, new CompletableFuture<>());
  }

  private Node(long fileNumber, long offset, BlockKind kind, CompletableFuture<CachedBlock> loaded) {
    this.fileNumber = fileNumber;
    this.offset = offset;
    this.kind = kind;
    this.loaded = loaded;
  }

  /** A node for a block its caller loaded already ({@link Shard#admitRead}): nothing to wait for. */
  static Node loaded(long fileNumber, long offset, BlockKind kind) {
    return new Node(fileNumber, offset, kind, null);
  }

  /** The key's {@link BlockCacheKey#mixedHash}: the shard, bucket and ghost slot it chooses. */
  long hash() {
    return BlockCacheKey.mixedHash(fileNumber, offset);
  }

  @Override
  public String toString() {
    return kind + " block " + fileNumber + "@" + offset;
  }

  /** Waits for another caller's load of this node, throwing what its loader threw. */
  CachedBlock await() throws IOException {
    CompletableFuture<CachedBlock> future = loaded;
    if (future == null) {
      return block; // the load succeeded: set before the future was dropped
    }
    try {
      return future.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  /** Records a hit: one volatile read, and a write only while the counter can still rise. */
  void touch() {
    int f = frequency;
    if (f < MAX_FREQUENCY) {
      frequency = f + 1;
    }
  }
}
