package dev.strata.sstable.cache;

import java.util.concurrent.CompletableFuture;

/**
 * One entry of a {@link ClockBlockCache} shard: the block (once loaded), the future its concurrent
 * misses wait on, a CLOCK frequency that hits raise without a lock, and the links of the segment
 * queue it sits in, which only the shard's lock touches.
 *
 * <p>Thread-safe as described: {@link #block} and {@link #frequency} are read and written without the
 * lock; the queue fields are guarded by the owning shard's lock.
 */
final class Node {
  /** The most a hit raises {@link #frequency} to: S3-FIFO's two-bit counter. */
  static final int MAX_FREQUENCY = 3;

  /**
   * The cache's own cost per entry, charged on top of the block's {@link CachedBlock#sizeBytes}: this
   * node (seven references, two ints and a long: 56 bytes), its key (two longs: 32), the map's node
   * (hash, key, value, next: 32), about two slots of the map's table (8), and the future (result and
   * waiter stack: 24), which stays reachable from the node after the load.
   */
  static final int ENTRY_BYTES = (int) (HeapCost.object(7 * HeapCost.REFERENCE + 4 + 4 + 8)
      + HeapCost.object(2 * 8)
      + HeapCost.object(4 + 3 * HeapCost.REFERENCE)
      + 2 * HeapCost.REFERENCE
      + HeapCost.object(2 * HeapCost.REFERENCE));

  final BlockCacheKey key;
  final BlockKind kind;

  /**
   * Completes with the loaded block, or with the loader's exception. Set to null once a load has
   * succeeded and {@link #block} is set: a completed future would keep the loaded heap block
   * reachable after the cache moved its bytes off the heap.
   */
  volatile CompletableFuture<CachedBlock> loaded = new CompletableFuture<>();

  /**
   * Null until the load succeeds; then the loaded block, replaced once, when the node is admitted,
   * by its off-heap copy if the shard keeps one ({@link OffHeapBlock}).
   */
  volatile CachedBlock block;

  /** Raised by hits (racy and lossy on purpose: it is a hint), lowered by the clock hand. */
  volatile int frequency;

  /** Guarded by the shard's lock from here on. */
  long charge;

  /** Pins held ({@link ClockBlockCache#getOrLoadPinned}); while above 0 the node is never evicted. */
  int pins;

  Segment segment;
  Node prev;
  Node next;

  Node(BlockCacheKey key, BlockKind kind) {
    this.key = key;
    this.kind = kind;
  }

  /** Records a hit: one volatile read, and a write only while the counter can still rise. */
  void touch() {
    int f = frequency;
    if (f < MAX_FREQUENCY) {
      frequency = f + 1;
    }
  }
}
