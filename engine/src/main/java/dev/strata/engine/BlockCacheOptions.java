package dev.strata.engine;

import dev.strata.sstable.cache.ClockBlockCache;

/**
 * The shared block cache of data, index and filter blocks: its capacity, its shards, where it
 * keeps data blocks, and what it pins. Each component is set by the {@link DbOptions.Builder}
 * method of the same name; the constructor rejects a value out of range with an {@link
 * IllegalArgumentException} naming it.
 *
 * <p>Immutable.
 *
 * @param blockCacheBytes capacity of the block cache in bytes, at least 0; default 64 MiB; 0 = no
 *     cache
 * @param blockCacheShards independently locked shards of the block cache, in [1, {@value
 *     #MAX_BLOCK_CACHE_SHARDS}]; default 16. The database uses fewer when the cache is small
 *     ({@link DbOptions#effectiveBlockCacheShards()})
 * @param blockCacheOffHeapMinBytes the capacity, at least 0, from which the cache holds data blocks
 *     off the heap: their bytes in direct-memory slabs of up to 256 KiB (counted against {@code
 *     -XX:MaxDirectMemorySize}, which defaults to the heap's maximum), on the heap no object per
 *     block, only its entry in primitive arrays; freed when the database closes. Default 0, off the
 *     heap at every size: on the heap each cached block is an array the young collections copy
 *     and then promote, so the process grows to several times its cache (docs/PERFORMANCE.md, "The
 *     off-heap hit searched in place"), while a Get searches an off-heap block where it lies,
 *     about as fast as a heap block. A larger value keeps smaller caches on the heap; {@link
 *     Long#MAX_VALUE} = never. Index and filter blocks stay on the heap
 * @param pinL0FilterAndIndexBlocksInCache whether level-0 tables keep their filter chunks and index
 *     partitions pinned in the block cache (RocksDB's {@code
 *     pin_l0_filter_and_index_blocks_in_cache}); default false. A level-0 table loads them all when
 *     it opens (at {@code Db.open}, or on the flush thread after a flush) and they are never
 *     evicted while it stays at level 0: level 0 is consulted by nearly every Get and its tables
 *     overlap, so their metadata is the hottest there is. Pinned blocks are charged to the cache
 *     (they show in {@link DbStats#blockCacheBytes()} and {@link
 *     DbStats.MetadataStats#pinnedBytes()}) and may take it past its capacity when they alone
 *     exceed it, as in RocksDB. They are unpinned when the table leaves level 0 or the database;
 *     with a cache of capacity 0 nothing is pinned. The top level of each table's index and its
 *     filter index are always held by the open table
 */
public record BlockCacheOptions(
    long blockCacheBytes,
    int blockCacheShards,
    long blockCacheOffHeapMinBytes,
    boolean pinL0FilterAndIndexBlocksInCache) {

  /** Largest number of block cache shards, as the block cache accepts. */
  public static final int MAX_BLOCK_CACHE_SHARDS = ClockBlockCache.MAX_SHARDS;

  /** Checks every component's range. */
  public BlockCacheOptions {
    OptionRanges.check("blockCacheBytes", blockCacheBytes, 0, Long.MAX_VALUE);
    OptionRanges.check("blockCacheShards", blockCacheShards, 1, MAX_BLOCK_CACHE_SHARDS);
    OptionRanges.check("blockCacheOffHeapMinBytes", blockCacheOffHeapMinBytes, 0, Long.MAX_VALUE);
  }
}
