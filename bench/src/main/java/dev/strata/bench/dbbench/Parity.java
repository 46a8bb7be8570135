package dev.strata.bench.dbbench;

import dev.strata.bench.common.RocksDbLibrary;
import dev.strata.engine.BloomType;
import dev.strata.engine.Compression;
import dev.strata.engine.DbOptions;
import dev.strata.engine.FilterAllocation;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.CompressionType;
import org.rocksdb.Filter;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.Options;

/**
 * The parity setup of Strata and RocksDB, in one place for every benchmark that puts them side by
 * side (dbbench, YCSB): the same tree, cache bytes, block size, compression and filter. What each
 * RocksDB setting is and why is in {@link RocksDbStore}'s documentation.
 *
 * <p>Immutable (static methods only).
 */
public final class Parity {
  /** Data block target size of both engines. */
  public static final int BLOCK_SIZE_BYTES = 4096;

  /** Share of the LRU cache reserved for index and filter blocks (RocksDB's default, 0.5). */
  public static final double HIGH_PRIORITY_POOL_RATIO = 0.5;

  private Parity() {}

  /**
   * Strata's options in the parity setup: {@code tree}, a block cache of {@code cacheBytes}, a
   * filter of {@code bitsPerKey} of {@code bloomType}, 4 KiB blocks, LZ4, no fsync per write; the
   * rest the engine's defaults unless a {@code strata.*} system property below overrides it.
   */
  public static DbOptions strataOptions(Tree tree, long cacheBytes, double bitsPerKey,
      BloomType bloomType) {
    return DbOptions.builder()
        .bloomType(bloomType)
        .bloomBitsPerKey(bitsPerKey)
        .blockSizeBytes(BLOCK_SIZE_BYTES)
        .compression(Compression.LZ4)
        .blockCacheBytes(cacheBytes)
        .memtableBytes(tree.memtableBytes())
        .level0CompactionTrigger(tree.level0Trigger())
        .targetFileSizeBytes(tree.targetFileBytes())
        .maxBytesForLevelBase(tree.level1Bytes())
        .levelSizeMultiplier(tree.multiplier())
        // RocksDB runs without subcompactions (its default); this property, for measuring Strata's
        // alone, is passed with --jvm-args "-Dstrata.maxSubcompactions=N".
        .maxSubcompactions(Integer.getInteger("strata.maxSubcompactions", 1))
        // Buffered reads, as RocksDB's default; --jvm-args "-Dstrata.useDirectReads=true" measures
        // O_DIRECT table reads (see "Direct reads" in docs/OPERATING.md).
        .useDirectReads(Boolean.getBoolean("strata.useDirectReads"))
        // The default (off heap at every cache size) unless --jvm-args
        // "-Dstrata.blockCacheOffHeapMinBytes=N" moves the threshold (0 = always off heap,
        // 9223372036854775807 = never), to compare the two in one run.
        .blockCacheOffHeapMinBytes(Long.getLong("strata.blockCacheOffHeapMinBytes",
            DbOptions.defaults().blockCache().blockCacheOffHeapMinBytes()))
        .compactionReadaheadBytes(Integer.getInteger("strata.compactionReadaheadBytes", 2 << 20))
        // Read-triggered compaction of level 0 at the engine's default; --jvm-args
        // "-Dstrata.readTriggeredCompactionBytesPerRead=0" measures the tree without it.
        .readTriggeredCompactionBytesPerRead(
            Long.getLong(
                "strata.readTriggeredCompactionBytesPerRead",
                DbOptions.defaults().compaction().readTriggeredCompactionBytesPerRead()))
        // The engine's filter chunk size unless --jvm-args "-Dstrata.bloomChunkBytes=N" sweeps it
        // (the chunk-size sweep at 20M keys under "The block cache" in docs/PERFORMANCE.md); a table
        // records its own, so reads of an existing database take the size it was written with.
        .bloomChunkBytes(Integer.getInteger("strata.bloomChunkBytes",
            DbOptions.defaults().filters().bloomChunkBytes()))
        // Filters by level: the engine's defaults unless --jvm-args "-Dstrata.filterAllocation=BY_LEVEL",
        // "-Dstrata.ribbonFromLevel=1" or "-Dstrata.cacheMetadataOnWrite=false" (docs/OPERATING.md,
        // "Filters per level").
        .filterAllocation(FilterAllocation.valueOf(System.getProperty("strata.filterAllocation",
            DbOptions.defaults().filters().filterAllocation().name())))
        .ribbonFromLevel(Integer.getInteger("strata.ribbonFromLevel",
            DbOptions.defaults().filters().ribbonFromLevel()))
        .cacheMetadataOnWrite(Boolean.parseBoolean(System.getProperty("strata.cacheMetadataOnWrite",
            String.valueOf(DbOptions.defaults().filters().cacheMetadataOnWrite()))))
        // No bound on the filters' memory unless "-Dstrata.filterMemoryBytes=N" sizes them to it.
        .filterMemoryBytes(Long.getLong("strata.filterMemoryBytes",
            DbOptions.defaults().filters().filterMemoryBytes()))
        // Off, the engine's default; "-Dstrata.refitFiltersAtRest=true" rewrites tables under the
        // bound once compaction is idle, so a tree at rest spends what the bound leaves.
        .refitFiltersAtRest(Boolean.parseBoolean(System.getProperty("strata.refitFiltersAtRest",
            String.valueOf(DbOptions.defaults().filters().refitFiltersAtRest()))))
        // Off, the engine's default; --jvm-args "-Dstrata.warmUpOnOpen=true" (or -D before
        // coldreads' -jar) measures the open's read-path warm-up against the cold first Get.
        .warmUpOnOpen(Boolean.getBoolean("strata.warmUpOnOpen"))
        // The caller's thread alone, the engine's default; --jvm-args "-Dstrata.multiGetThreads=1"
        // lets a batched Get share its work with one more thread (RocksDB's async_io is off here).
        .multiGetThreads(Integer.getInteger("strata.multiGetThreads",
            DbOptions.defaults().reads().multiGetThreads()))
        .syncWrites(false)
        .autoCompaction(true)
        .build();
  }

  /**
   * RocksDB's block-based table setup: 4 KiB blocks, a Bloom filter ({@code filter}), partitioned
   * filters and a partitioned index of Strata's filter chunk size, index and filter blocks in
   * {@code cache} at high priority, top-level index and filter pinned.
   */
  public static BlockBasedTableConfig rocksDbTable(Cache cache, Filter filter) {
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockSize(BLOCK_SIZE_BYTES)
        .setBlockCache(cache)
        .setFilterPolicy(filter)
        .setCacheIndexAndFilterBlocks(true)
        .setCacheIndexAndFilterBlocksWithHighPriority(true)
        .setPinL0FilterAndIndexBlocksInCache(false)
        .setPartitionFilters(true)
        .setIndexType(IndexType.kTwoLevelIndexSearch)
        .setMetadataBlockSize(DbOptions.defaults().filters().bloomChunkBytes())
        .setPinTopLevelIndexAndFilter(true)
        .setOptimizeFiltersForMemory(false)
        .setWholeKeyFiltering(true);
    table.setFormatVersion(RocksDbLibrary.formatVersion());
    return table;
  }

  /** RocksDB's options: {@code tree}'s shape, LZ4, {@code table}, the rest RocksDB's defaults. */
  public static Options rocksDbOptions(Tree tree, BlockBasedTableConfig table) {
    return new Options()
        .setCreateIfMissing(true)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        .setWriteBufferSize(tree.memtableBytes())
        .setLevel0FileNumCompactionTrigger(tree.level0Trigger())
        .setTargetFileSizeBase(tree.targetFileBytes())
        .setMaxBytesForLevelBase(tree.level1Bytes())
        .setMaxBytesForLevelMultiplier(tree.multiplier())
        .setLevelCompactionDynamicLevelBytes(false)
        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
        .setTableFormatConfig(table);
  }
}
