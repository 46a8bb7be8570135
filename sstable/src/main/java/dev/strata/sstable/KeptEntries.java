package dev.strata.sstable;

import dev.strata.sstable.block.OffHeapCopy;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.HeapCost;

/**
 * The block cache entries of one table's filter chunks (or index partitions), kept by its reader so
 * that a hit on a block it read before goes straight to the cache's entry ({@link
 * BlockCache#blockOf}) instead of hashing the key and walking the cache's table, whose dependent
 * loads (key, table slot, node) miss the processor's caches as the filter bits do on a table many
 * times larger than those caches (docs/PERFORMANCE.md, "Where an absent Get's time goes").
 *
 * <p>Why keeping them is safe: an entry holds no block once the cache lets go of it, so a kept
 * entry neither serves a block the cache no longer holds (it answers null and the reader looks the
 * key up again) nor keeps one alive uncharged; and the cache gives entries only for index and filter
 * blocks, which live on the heap, so a block read just as it is evicted is still whole.
 *
 * <p>Thread-safe: the slots are plain fields written and read racily. Every value a reader can see
 * is null or an entry the cache made, which is safe to use whatever its age, since {@link
 * BlockCache#blockOf} checks it.
 */
final class KeptEntries {
  /**
   * The fewest blocks for which a batch touches the kept entries before taking them, and searches
   * an index in lock step: about 256 KiB of metadata. Fewer stay in the processor's caches, where
   * the extra passes cost more than the overlapped misses save.
   */
  static final int MANY = 64;

  private final BlockCache cache;
  private final BlockKind kind;
  private final BlockCacheKey[] keys;
  private final BlockCache.Entry[] entries;

  /** Entries of the blocks {@code keys} names, of {@code kind}, all unknown yet. */
  KeptEntries(BlockCache cache, BlockKind kind, BlockCacheKey[] keys) {
    this.cache = cache;
    this.kind = kind;
    this.keys = keys;
    this.entries = new BlockCache.Entry[keys.length];
  }

  /**
   * Heap bytes held outside the cache: the two arrays and the keys. (An entry kept after its block
   * was evicted is a cache node without its block, one per block at most, until the next lookup.)
   */
  long heapBytes() {
    return 2 * HeapCost.align(HeapCost.ARRAY_HEADER + (long) HeapCost.REFERENCE * keys.length)
        + keys.length * HeapCost.object(8 + 8);
  }

  /** The key of block {@code i}. */
  BlockCacheKey key(int i) {
    return keys[i];
  }

  /** Whether there are {@link #MANY} blocks or more. */
  boolean many() {
    return keys.length >= MANY;
  }

  /**
   * Reads the entry kept for block {@code i}, if any, and its block's first fields ({@link
   * BlockCache#touch}), so that a batch's {@link #keptUncounted} calls that follow find them in
   * the processor's caches; returns a value to keep the reads.
   */
  int touch(int i) {
    BlockCache.Entry e = entries[i];
    return e == null ? 0 : cache.touch(e);
  }

  /**
   * Block {@code i} when the entry kept for it still holds it, its hit not counted ({@link
   * BlockCache#blockOfUncounted}: the caller counts a batch's hits at once); else null, and the
   * caller takes the counted path ({@link #cached}).
   */
  <T extends CachedBlock> T keptUncounted(int i) {
    BlockCache.Entry e = entries[i];
    return e == null ? null : cache.blockOfUncounted(e);
  }

  /**
   * Block {@code i} if the cache holds it (a hit, counted by the cache), else null (the caller loads
   * it through the cache); keeps the entry it found for the next call.
   */
  <T extends CachedBlock> T cached(int i) {
    BlockCache.Entry e = entries[i];
    if (e != null) {
      T block = cache.blockOf(e, kind);
      if (block != null) {
        return block;
      }
    }
    e = cache.entryIfPresent(keys[i], kind);
    entries[i] = e;
    if (e == null) {
      // A cache without entries, a block held off the heap (aimed in this thread's view, which the
      // caller copies out before its next lookup), or a miss.
      return cache.getIfPresent(keys[i].fileNumber(), keys[i].offset(), kind, OffHeapCopy.lookupView());
    }
    return cache.blockOf(e, kind);
  }
}
