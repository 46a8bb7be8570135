package dev.strata.bench.readamp;

/**
 * The parameters every setup of one run shares: filter sizing, block cache, and RocksDB's cache
 * sharding (chosen once per run so every RocksDB setup gets the same cache).
 *
 * @param bitsPerKey filter bits per filter key in both engines
 * @param filterChunkBytes Strata's filter chunk size, and RocksDB's {@code metadata_block_size}
 *     (the target size of a filter partition and of an index partition)
 * @param cacheBytes block cache capacity of both engines
 * @param rocksDbShardBits {@code numShardBits} of RocksDB's {@code LRUCache}: the cache has {@code
 *     2^bits} shards, each large enough to hold the largest whole-table filter of the run
 * @param strataCacheShards shards of Strata's block cache ({@code DbOptions.blockCacheShards});
 *     by default as many as RocksDB's
 *
 * <p>Immutable.
 */
record Settings(
    double bitsPerKey,
    int filterChunkBytes,
    long cacheBytes,
    int rocksDbShardBits,
    int strataCacheShards) {
  /** Data block target size of both engines. */
  static final int BLOCK_SIZE_BYTES = 4096;

  /** Memtable size of both engines: above any load, so only explicit flushes cut tables. */
  static final long MEMTABLE_BYTES = 1L << 30;

  /** Share of RocksDB's cache reserved for index and filter blocks, as Strata's protected share. */
  static final double HIGH_PRIORITY_POOL_RATIO = 0.5;

  /** RocksDB's shard bits are at most this: 16 shards, as Strata's block cache. */
  static final int MAX_SHARD_BITS = 4;

  /** The same settings at another bits/key (the false-positive sweep). */
  Settings withBitsPerKey(double bits) {
    return new Settings(bits, filterChunkBytes, cacheBytes, rocksDbShardBits, strataCacheShards);
  }

  /**
   * The most shard bits, up to {@link #MAX_SHARD_BITS}, that leave each shard of a {@code
   * cacheBytes} cache at least twice {@code largestFilterBytes}: RocksDB re-reads a block larger
   * than its shard's capacity on every access.
   */
  static int shardBitsFor(long cacheBytes, long largestFilterBytes) {
    int bits = MAX_SHARD_BITS;
    while (bits > 0 && (cacheBytes >> bits) < 2 * largestFilterBytes) {
      bits--;
    }
    return bits;
  }
}
