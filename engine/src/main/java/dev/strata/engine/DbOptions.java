package dev.strata.engine;

import dev.strata.engine.write.Limits;
import dev.strata.engine.write.WriteController;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.TableReadOptions;
import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterType;
import java.util.Locale;
import java.util.Objects;

/**
 * How a {@link Db} is configured: filters, table layout, block cache, memtable, durability and
 * compaction. Built with {@link #builder()}; {@link Builder#build()} checks every value and throws
 * an {@link IllegalArgumentException} naming the option that is out of range. Options are not
 * persisted: each open uses the options it is given, and every table records the filter and codec
 * it was written with, so changing an option never changes how existing tables are read.
 *
 * <p>Immutable.
 */
public final class DbOptions {

  // The ranges of table-layout options are the table layer's own (TableOptions): one source of
  // truth, so every value build() accepts is a layout the table writer accepts.

  /** Smallest bits per key of a filter: below one bit per key a filter answers "maybe" to nearly all. */
  public static final double MIN_BLOOM_BITS_PER_KEY = TableOptions.MIN_BITS_PER_KEY;

  /** Largest bits per key of a filter, as {@code BlockedBloomFilter.create} accepts. */
  public static final double MAX_BLOOM_BITS_PER_KEY = TableOptions.MAX_BITS_PER_KEY;

  /** Smallest filter chunk: one 64-byte filter block. */
  public static final int MIN_BLOOM_CHUNK_BYTES = TableOptions.MIN_FILTER_CHUNK_BYTES;

  /** Largest filter chunk (1 GiB); a chunk is read and cached whole. */
  public static final int MAX_BLOOM_CHUNK_BYTES = TableOptions.MAX_FILTER_CHUNK_BYTES;

  /** Smallest data block target (64 bytes); a block holds at least one cell however small. */
  public static final int MIN_BLOCK_SIZE_BYTES = TableOptions.MIN_BLOCK_SIZE_BYTES;

  /** Largest data block target (64 MiB); a block is read and cached whole. */
  public static final int MAX_BLOCK_SIZE_BYTES = TableOptions.MAX_BLOCK_SIZE_BYTES;

  /** Largest number of block cache shards, as the block cache accepts. */
  public static final int MAX_BLOCK_CACHE_SHARDS = ClockBlockCache.MAX_SHARDS;

  /** Largest level-0 table count that may be configured to trigger a compaction. */
  public static final int MAX_LEVEL0_COMPACTION_TRIGGER = 1 << 16;
  /** Upper bound of {@link #maxSubcompactions()}. */
  public static final int MAX_SUBCOMPACTIONS = 64;

  /** Upper bound of {@link #multiGetThreads()}. */
  public static final int MAX_MULTI_GET_THREADS = 64;

  /** Smallest growth factor between levels: below two, leveling degenerates. */
  public static final int MIN_LEVEL_SIZE_MULTIPLIER = 2;

  /** Largest growth factor between levels. */
  public static final int MAX_LEVEL_SIZE_MULTIPLIER = 1000;

  /** The options with every default, shared. */
  /** The smallest {@code maxOpenFiles} other than -1 (unlimited). */
  public static final int MIN_MAX_OPEN_FILES = 16;

  private static final DbOptions DEFAULTS = builder().build();

  private final BloomType bloomType;
  private final double bloomBitsPerKey;
  private final int bloomChunkBytes;
  private final int blockSizeBytes;
  private final Compression compression;
  private final long blockCacheBytes;
  private final int blockCacheShards;
  private final long blockCacheOffHeapMinBytes;
  private final long memtableBytes;
  private final boolean syncWrites;
  private final boolean autoCompaction;
  private final int level0CompactionTrigger;
  private final int maxSubcompactions;
  private final long readTriggeredCompactionBytesPerRead;
  private final int levelSizeMultiplier;
  private final long targetFileSizeBytes;
  private final long maxBytesForLevelBase;
  private final int prefixBloomLength;
  private final int level0SlowdownTrigger;
  private final int level0StopTrigger;
  private final long softPendingCompactionBytesLimit;
  private final long hardPendingCompactionBytesLimit;
  private final long delayedWriteRate;
  private final int maxOpenFiles;
  private final WalRecoveryMode walRecovery;
  private final boolean readOnly;
  private final boolean pinL0FilterAndIndexBlocksInCache;
  private final boolean useDirectReads;
  private final int compactionReadaheadBytes;
  private final boolean warmUpOnOpen;
  private final int multiGetThreads;

  private DbOptions(Builder b) {
    this.bloomType = b.bloomType;
    this.bloomBitsPerKey = b.bloomBitsPerKey;
    this.bloomChunkBytes = b.bloomChunkBytes;
    this.blockSizeBytes = b.blockSizeBytes;
    this.compression = b.compression;
    this.blockCacheBytes = b.blockCacheBytes;
    this.blockCacheShards = b.blockCacheShards;
    this.blockCacheOffHeapMinBytes = b.blockCacheOffHeapMinBytes;
    this.memtableBytes = b.memtableBytes;
    this.syncWrites = b.syncWrites;
    this.autoCompaction = b.autoCompaction;
    this.level0CompactionTrigger = b.level0CompactionTrigger;
    this.maxSubcompactions = b.maxSubcompactions;
    this.readTriggeredCompactionBytesPerRead = b.readTriggeredCompactionBytesPerRead;
    this.levelSizeMultiplier = b.levelSizeMultiplier;
    this.targetFileSizeBytes = b.targetFileSizeBytes;
    this.maxBytesForLevelBase = b.maxBytesForLevelBase;
    this.prefixBloomLength = b.prefixBloomLength;
    this.level0SlowdownTrigger = b.level0SlowdownTrigger;
    this.level0StopTrigger = b.level0StopTrigger;
    this.softPendingCompactionBytesLimit = b.softPendingCompactionBytesLimit;
    this.hardPendingCompactionBytesLimit = b.hardPendingCompactionBytesLimit;
    this.delayedWriteRate = b.delayedWriteRate;
    this.maxOpenFiles = b.maxOpenFiles;
    this.walRecovery = b.walRecovery;
    this.readOnly = b.readOnly;
    this.pinL0FilterAndIndexBlocksInCache = b.pinL0FilterAndIndexBlocksInCache;
    this.useDirectReads = b.useDirectReads;
    this.compactionReadaheadBytes = b.compactionReadaheadBytes;
    this.warmUpOnOpen = b.warmUpOnOpen;
    this.multiGetThreads = b.multiGetThreads;
  }

  /** Every option at its default. */
  public static DbOptions defaults() {
    return DEFAULTS;
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these options, to derive a variant. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** What new tables' filters index; default {@link BloomType#ROW}. */
  public BloomType bloomType() {
    return bloomType;
  }

  /** Filter bits per entry of new tables; default 10; not used under {@link BloomType#NONE}. */
  public double bloomBitsPerKey() {
    return bloomBitsPerKey;
  }

  /**
   * Target size of one filter partition (chunk) of a new table; default 4096. A Get that misses the
   * cache reads one whole chunk to answer one probe, so small chunks read less: on the cache
   * harness ({@code strata-bench cachesim}, a cache smaller than the metadata) 4 KiB chunks read
   * 5.6 KB per Get, 16 KiB 7.3 KB, 128 KiB 345 KB. The cost is a longer filter index held by each
   * open table (one entry per chunk).
   */
  public int bloomChunkBytes() {
    return bloomChunkBytes;
  }

  /** Target size of a data block before compression; default 4096. */
  public int blockSizeBytes() {
    return blockSizeBytes;
  }

  /** How new tables' data blocks are compressed; default {@link Compression#LZ4}. */
  public Compression compression() {
    return compression;
  }

  /** Capacity of the shared LRU block cache in bytes; default 64 MiB; 0 = no cache. */
  public long blockCacheBytes() {
    return blockCacheBytes;
  }

  /**
   * Number of independently locked shards of the block cache; default 16. The database uses fewer
   * when the cache is small ({@link #effectiveBlockCacheShards()}).
   */
  public int blockCacheShards() {
    return blockCacheShards;
  }

  /**
   * The block cache capacity from which it holds data blocks off the heap, in direct-memory slabs;
   * default 1 GiB; 0 = always, {@link Long#MAX_VALUE} = never.
   */
  public long blockCacheOffHeapMinBytes() {
    return blockCacheOffHeapMinBytes;
  }

  /** Whether the block cache holds data blocks off the heap: its capacity reaches {@link #blockCacheOffHeapMinBytes()}. */
  public boolean blockCacheOffHeap() {
    return blockCacheBytes > 0 && blockCacheBytes >= blockCacheOffHeapMinBytes;
  }

  /**
   * The shards the block cache is actually split into: {@link #blockCacheShards()}, halved until
   * each shard holds at least four filter chunks (or data blocks), so half a shard, well within its
   * metadata floor, holds two. With fewer, a filter chunk fills its shard's share and every stream
   * of data blocks evicts it, so Gets reload filters from disk (RocksDB has the same trap:
   * a filter larger than a cache shard is re-read on every Get).
   */
  public int effectiveBlockCacheShards() {
    long minShardBytes = 4L * Math.max(bloomChunkBytes, blockSizeBytes);
    int shards = blockCacheShards;
    while (shards > 1 && blockCacheBytes / shards < minShardBytes) {
      shards = (shards + 1) / 2;
    }
    return shards;
  }

  /** Memtable size at which it is frozen and flushed to a level-0 table; default 64 MiB. */
  public long memtableBytes() {
    return memtableBytes;
  }

  /** Whether every write fsyncs the log before it returns; default false. */
  public boolean syncWrites() {
    return syncWrites;
  }

  /** Whether compactions run in the background on their own; default true. */
  public boolean autoCompaction() {
    return autoCompaction;
  }

  /** Number of level-0 tables that triggers a level-0 compaction; default 4. */
  public int level0CompactionTrigger() {
    return level0CompactionTrigger;
  }

  /**
   * How many key-range jobs, run in parallel, a level-0 compaction may be cut into (RocksDB's
   * {@code max_subcompactions}); default 1, one job.
   */
  public int maxSubcompactions() {
    return maxSubcompactions;
  }

  /**
   * Read-triggered compaction of level 0 (see {@code compaction.ReadTrigger}): the bytes of
   * compaction input one wasted read of a level-0 table is worth. Once Gets and seeks have consulted
   * level-0 tables that did not hold their key that many times over (the level-0 tables and the
   * level-1 tables they overlap, divided by this; at least 100) with writes quiet, and no
   * write-driven compaction is due, level 0 is compacted into level 1. Default 16 KiB (LevelDB's
   * {@code allowed_seeks}: one seek per 16 KiB of a table); 0 turns it off. Only with {@link
   * #autoCompaction()}.
   */
  public long readTriggeredCompactionBytesPerRead() {
    return readTriggeredCompactionBytesPerRead;
  }

  /** Size ratio between consecutive levels from level 1 down; default 10. */
  public int levelSizeMultiplier() {
    return levelSizeMultiplier;
  }

  /** Size at which a compaction starts a new output table; default 64 MiB. */
  public long targetFileSizeBytes() {
    return targetFileSizeBytes;
  }

  /**
   * Target total size of level 1; each deeper level gets {@link #levelSizeMultiplier()} times more;
   * default 256 MiB.
   */
  public long maxBytesForLevelBase() {
    return maxBytesForLevelBase;
  }

  /** Level-0 tables at which writes start to slow down, as set (see {@link #writeController}). */
  public int level0SlowdownTrigger() {
    return level0SlowdownTrigger;
  }

  /** Level-0 tables at which writes stop, as set (see {@link #writeController}). */
  public int level0StopTrigger() {
    return level0StopTrigger;
  }

  /** Bytes of pending compaction at which writes slow down; 0 = no limit. */
  public long softPendingCompactionBytesLimit() {
    return softPendingCompactionBytesLimit;
  }

  /** Bytes of pending compaction at which writes stop; 0 = no limit. */
  public long hardPendingCompactionBytesLimit() {
    return hardPendingCompactionBytesLimit;
  }

  /** Bytes per second writes may go at the start of a slowdown. */
  public long delayedWriteRate() {
    return delayedWriteRate;
  }

  /** Tables open at once, at most; -1 = unlimited. */
  public int maxOpenFiles() {
    return maxOpenFiles;
  }

  /**
   * The write controller these options ask for. Like RocksDB, it sanitizes the triggers rather
   * than rejecting a combination: the slowdown trigger is raised to at least the compaction
   * trigger and the stop trigger to at least the slowdown trigger, since writes stopped before
   * level 0 is big enough to be compacted would wait forever. Without automatic compaction it lets
   * every write through.
   */
  WriteController writeController() {
    int slowdown = Math.max(level0SlowdownTrigger, level0CompactionTrigger);
    int stop = Math.max(level0StopTrigger, slowdown);
    long hard = hardPendingCompactionBytesLimit;
    long soft = hard == 0 ? softPendingCompactionBytesLimit
        : Math.min(softPendingCompactionBytesLimit, hard);
    return new WriteController(autoCompaction, slowdown, stop, soft, hard, delayedWriteRate);
  }

  /**
   * What open does with damaged logs; default {@link WalRecoveryMode#POINT_IN_TIME}: the longest
   * consistent prefix, with the rest dropped and reported.
   */
  public WalRecoveryMode walRecovery() {
    return walRecovery;
  }

  /**
   * Whether the database is opened read-only; default false. See {@link Builder#readOnly(boolean)}.
   */
  public boolean readOnly() {
    return readOnly;
  }

  /**
   * Whether level-0 tables keep their filter chunks and index partitions pinned in the block cache;
   * default false. See {@link Builder#pinL0FilterAndIndexBlocksInCache(boolean)}.
   */
  public boolean pinL0FilterAndIndexBlocksInCache() {
    return pinL0FilterAndIndexBlocksInCache;
  }

  /**
   * Whether table files are read with {@code O_DIRECT}, past the OS page cache; default false. See
   * {@link Builder#useDirectReads(boolean)}.
   */
  public boolean useDirectReads() {
    return useDirectReads;
  }

  /**
   * Bytes a compaction reads from an input table at once; default 2 MiB. See {@link
   * Builder#compactionReadaheadBytes(int)}.
   */
  public int compactionReadaheadBytes() {
    return compactionReadaheadBytes;
  }

  /**
   * Whether the first open in a JVM runs the read paths once over two of its tables before it
   * returns; default false. See {@link Builder#warmUpOnOpen(boolean)}.
   */
  public boolean warmUpOnOpen() {
    return warmUpOnOpen;
  }

  /**
   * Threads a batched Get may use besides its caller; default 0. See {@link
   * Builder#multiGetThreads(int)}.
   */
  public int multiGetThreads() {
    return multiGetThreads;
  }

  /** How table readers read their files. */
  TableReadOptions tableReadOptions() {
    return new TableReadOptions(useDirectReads, compactionReadaheadBytes);
  }

  /**
   * Bytes of each row's prefix that new tables' filters also hold, so {@code scanPrefix} can skip
   * tables; default 0 (off). Not used under {@link BloomType#NONE}.
   */
  public int prefixBloomLength() {
    return prefixBloomLength;
  }

  /** The table layout the options ask for; tables record it, so readers never need the options. */
  TableOptions tableOptions() {
    FilterType filter =
        switch (bloomType) {
          case NONE -> FilterType.NONE;
          case ROW -> FilterType.ROW;
          case ROWCOL -> FilterType.ROWCOL;
        };
    BlockCompression codec =
        switch (compression) {
          case NONE -> BlockCompression.NONE;
          case LZ4 -> BlockCompression.LZ4;
        };
    return new TableOptions(
        blockSizeBytes, filter, bloomBitsPerKey, bloomChunkBytes, codec, prefixBloomLength);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DbOptions d
        && bloomType == d.bloomType
        && Double.compare(bloomBitsPerKey, d.bloomBitsPerKey) == 0
        && bloomChunkBytes == d.bloomChunkBytes
        && blockSizeBytes == d.blockSizeBytes
        && compression == d.compression
        && blockCacheBytes == d.blockCacheBytes
        && blockCacheShards == d.blockCacheShards
        && blockCacheOffHeapMinBytes == d.blockCacheOffHeapMinBytes
        && memtableBytes == d.memtableBytes
        && syncWrites == d.syncWrites
        && autoCompaction == d.autoCompaction
        && level0CompactionTrigger == d.level0CompactionTrigger
        && maxSubcompactions == d.maxSubcompactions
        && readTriggeredCompactionBytesPerRead == d.readTriggeredCompactionBytesPerRead
        && levelSizeMultiplier == d.levelSizeMultiplier
        && targetFileSizeBytes == d.targetFileSizeBytes
        && maxBytesForLevelBase == d.maxBytesForLevelBase
        && prefixBloomLength == d.prefixBloomLength
        && level0SlowdownTrigger == d.level0SlowdownTrigger
        && level0StopTrigger == d.level0StopTrigger
        && softPendingCompactionBytesLimit == d.softPendingCompactionBytesLimit
        && hardPendingCompactionBytesLimit == d.hardPendingCompactionBytesLimit
        && delayedWriteRate == d.delayedWriteRate
        && maxOpenFiles == d.maxOpenFiles
        && walRecovery == d.walRecovery
        && readOnly == d.readOnly
        && pinL0FilterAndIndexBlocksInCache == d.pinL0FilterAndIndexBlocksInCache
        && useDirectReads == d.useDirectReads
        && compactionReadaheadBytes == d.compactionReadaheadBytes
        && warmUpOnOpen == d.warmUpOnOpen
        && multiGetThreads == d.multiGetThreads;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        bloomType,
        bloomBitsPerKey,
        bloomChunkBytes,
        blockSizeBytes,
        compression,
        blockCacheBytes,
        blockCacheShards,
        blockCacheOffHeapMinBytes,
        memtableBytes,
        syncWrites,
        autoCompaction,
        level0CompactionTrigger,
        maxSubcompactions,
        readTriggeredCompactionBytesPerRead,
        levelSizeMultiplier,
        targetFileSizeBytes,
        maxBytesForLevelBase,
        level0SlowdownTrigger,
        level0StopTrigger,
        softPendingCompactionBytesLimit,
        hardPendingCompactionBytesLimit,
        delayedWriteRate,
        maxOpenFiles,
        walRecovery,
        readOnly,
        pinL0FilterAndIndexBlocksInCache,
        useDirectReads,
        compactionReadaheadBytes,
        warmUpOnOpen,
        multiGetThreads,
        prefixBloomLength);
  }

  @Override
  public String toString() {
    return "DbOptions{bloomType="
        + bloomType
        + ", bloomBitsPerKey="
        + bloomBitsPerKey
        + ", bloomChunkBytes="
        + bloomChunkBytes
        + ", blockSizeBytes="
        + blockSizeBytes
        + ", compression="
        + compression
        + ", blockCacheBytes="
        + blockCacheBytes
        + ", blockCacheShards="
        + blockCacheShards
        + ", blockCacheOffHeapMinBytes="
        + blockCacheOffHeapMinBytes
        + ", memtableBytes="
        + memtableBytes
        + ", syncWrites="
        + syncWrites
        + ", autoCompaction="
        + autoCompaction
        + ", level0CompactionTrigger="
        + level0CompactionTrigger
        + ", maxSubcompactions="
        + maxSubcompactions
        + ", readTriggeredCompactionBytesPerRead="
        + readTriggeredCompactionBytesPerRead
        + ", levelSizeMultiplier="
        + levelSizeMultiplier
        + ", targetFileSizeBytes="
        + targetFileSizeBytes
        + ", maxBytesForLevelBase="
        + maxBytesForLevelBase
        + ", level0SlowdownTrigger="
        + level0SlowdownTrigger
        + ", level0StopTrigger="
        + level0StopTrigger
        + ", softPendingCompactionBytesLimit="
        + softPendingCompactionBytesLimit
        + ", hardPendingCompactionBytesLimit="
        + hardPendingCompactionBytesLimit
        + ", delayedWriteRate="
        + delayedWriteRate
        + ", maxOpenFiles="
        + maxOpenFiles
        + ", walRecovery="
        + walRecovery
        + ", readOnly="
        + readOnly
        + ", pinL0FilterAndIndexBlocksInCache="
        + pinL0FilterAndIndexBlocksInCache
        + ", useDirectReads="
        + useDirectReads
        + ", compactionReadaheadBytes="
        + compactionReadaheadBytes
        + ", warmUpOnOpen="
        + warmUpOnOpen
        + ", multiGetThreads="
        + multiGetThreads
        + ", prefixBloomLength="
        + prefixBloomLength
        + "}";
  }

  /**
   * Collects options; {@link #build()} validates them all. Setters of enums reject null at once
   * with a {@link NullPointerException} naming the option; numbers are checked by {@link #build()}.
   *
   * <p>Not thread-safe.
   */
  public static final class Builder {
    private BloomType bloomType = BloomType.ROW;
    private double bloomBitsPerKey = 10;
    private int bloomChunkBytes = 4096;
    private int blockSizeBytes = 4096;
    private Compression compression = Compression.LZ4;
    private long blockCacheBytes = 64L << 20;
    private int blockCacheShards = 16;
    private long blockCacheOffHeapMinBytes = 1L << 30;
    private long memtableBytes = 64L << 20;
    private boolean syncWrites = false;
    private boolean autoCompaction = true;
    private int level0CompactionTrigger = 4;
    private int maxSubcompactions = 1;
    private long readTriggeredCompactionBytesPerRead = 16L << 10;
    private int levelSizeMultiplier = 10;
    private long targetFileSizeBytes = 64L << 20;
    private long maxBytesForLevelBase = 256L << 20;
    private int prefixBloomLength = 0;
    private int level0SlowdownTrigger = 20;
    private int level0StopTrigger = 36;
    private long softPendingCompactionBytesLimit = 64L << 30;
    private long hardPendingCompactionBytesLimit = 256L << 30;
    private long delayedWriteRate = 16L << 20;
    private int maxOpenFiles = -1;
    private WalRecoveryMode walRecovery = WalRecoveryMode.POINT_IN_TIME;
    private boolean readOnly = false;
    private boolean pinL0FilterAndIndexBlocksInCache = false;
    private boolean useDirectReads = false;
    private int compactionReadaheadBytes = TableReadOptions.DEFAULT_COMPACTION_READAHEAD_BYTES;
    private boolean warmUpOnOpen = false;
    private int multiGetThreads = 0;

    private Builder() {}

    private Builder(DbOptions o) {
      bloomType = o.bloomType;
      bloomBitsPerKey = o.bloomBitsPerKey;
      bloomChunkBytes = o.bloomChunkBytes;
      blockSizeBytes = o.blockSizeBytes;
      compression = o.compression;
      blockCacheBytes = o.blockCacheBytes;
      blockCacheShards = o.blockCacheShards;
      blockCacheOffHeapMinBytes = o.blockCacheOffHeapMinBytes;
      memtableBytes = o.memtableBytes;
      syncWrites = o.syncWrites;
      autoCompaction = o.autoCompaction;
      level0CompactionTrigger = o.level0CompactionTrigger;
      maxSubcompactions = o.maxSubcompactions;
      readTriggeredCompactionBytesPerRead = o.readTriggeredCompactionBytesPerRead;
      levelSizeMultiplier = o.levelSizeMultiplier;
      targetFileSizeBytes = o.targetFileSizeBytes;
      maxBytesForLevelBase = o.maxBytesForLevelBase;
      prefixBloomLength = o.prefixBloomLength;
      level0SlowdownTrigger = o.level0SlowdownTrigger;
      level0StopTrigger = o.level0StopTrigger;
      softPendingCompactionBytesLimit = o.softPendingCompactionBytesLimit;
      hardPendingCompactionBytesLimit = o.hardPendingCompactionBytesLimit;
      delayedWriteRate = o.delayedWriteRate;
      maxOpenFiles = o.maxOpenFiles;
      walRecovery = o.walRecovery;
      readOnly = o.readOnly;
      pinL0FilterAndIndexBlocksInCache = o.pinL0FilterAndIndexBlocksInCache;
      useDirectReads = o.useDirectReads;
      compactionReadaheadBytes = o.compactionReadaheadBytes;
      warmUpOnOpen = o.warmUpOnOpen;
      multiGetThreads = o.multiGetThreads;
    }

    /** What new tables' filters index; default {@link BloomType#ROW}. */
    public Builder bloomType(BloomType type) {
      this.bloomType = Limits.requireNonNull(type, "bloomType");
      return this;
    }

    /**
     * Filter bits per entry, in [1, 64]; default 10; not used under {@link BloomType#NONE} but
     * checked all the same, so a typo never hides behind the bloom type.
     */
    public Builder bloomBitsPerKey(double bits) {
      this.bloomBitsPerKey = bits;
      return this;
    }

    /** Filter partition size in [64, 2^30] bytes; default 4096. */
    public Builder bloomChunkBytes(int bytes) {
      this.bloomChunkBytes = bytes;
      return this;
    }

    /** Data block target size in [64, 2^26] bytes (64 bytes to 64 MiB); default 4096. */
    public Builder blockSizeBytes(int bytes) {
      this.blockSizeBytes = bytes;
      return this;
    }

    /** Data block compression; default {@link Compression#LZ4}. */
    public Builder compression(Compression c) {
      this.compression = Limits.requireNonNull(c, "compression");
      return this;
    }

    /** LRU block cache capacity, at least 0; default 64 MiB; 0 = no cache. */
    public Builder blockCacheBytes(long bytes) {
      this.blockCacheBytes = bytes;
      return this;
    }

    /** Block cache shards in [1, 1024]; default 16. */
    public Builder blockCacheShards(int shards) {
      this.blockCacheShards = shards;
      return this;
    }

    /**
     * The block cache capacity, at least 0, from which the cache holds data blocks off the heap:
     * their bytes in direct-memory slabs of up to 4 MiB (counted against {@code
     * -XX:MaxDirectMemorySize}, which defaults to the heap's maximum), on the heap only about 110
     * bytes per block besides the cache's own entry; freed when the database closes. Default 1 GiB:
     * a heap holding a gigabyte or more of cached blocks costs the collector long pauses, while a
     * smaller cache is faster on the heap (a hit on an off-heap block copies it). 0 = always,
     * {@link Long#MAX_VALUE} = never. Index and filter blocks stay on the heap.
     */
    public Builder blockCacheOffHeapMinBytes(long bytes) {
      this.blockCacheOffHeapMinBytes = bytes;
      return this;
    }

    /**
     * Memtable flush threshold, at least 1 byte (tiny values make tests flush constantly); default
     * 64 MiB.
     */
    public Builder memtableBytes(long bytes) {
      this.memtableBytes = bytes;
      return this;
    }

    /** Fsync the log on every write; default false (written to the operating system only). */
    public Builder syncWrites(boolean sync) {
      this.syncWrites = sync;
      return this;
    }

    /** Run compactions in the background on their own; default true. */
    public Builder autoCompaction(boolean on) {
      this.autoCompaction = on;
      return this;
    }

    /** Level-0 table count that triggers a compaction into level 1, in [1, 65536]; default 4. */
    public Builder level0CompactionTrigger(int tables) {
      this.level0CompactionTrigger = tables;
      return this;
    }

    /**
     * Key-range jobs a level-0 compaction may be cut into and run in parallel, each on a thread of
     * its own but the first, in [1, 64]; default 1.
     */
    public Builder maxSubcompactions(int jobs) {
      this.maxSubcompactions = jobs;
      return this;
    }

    /**
     * Bytes of compaction input one wasted read of a level-0 table is worth before level 0 is
     * compacted for the reads' sake, at least 0; default 16 KiB; 0 turns read-triggered
     * compaction off.
     */
    public Builder readTriggeredCompactionBytesPerRead(long bytes) {
      this.readTriggeredCompactionBytesPerRead = bytes;
      return this;
    }

    /** Size ratio between consecutive levels, in [2, 1000]; default 10. */
    public Builder levelSizeMultiplier(int multiplier) {
      this.levelSizeMultiplier = multiplier;
      return this;
    }

    /** Compaction output table size target, at least 1 byte; default 64 MiB. */
    public Builder targetFileSizeBytes(long bytes) {
      this.targetFileSizeBytes = bytes;
      return this;
    }

    /** Target total size of level 1, at least 1 byte; default 256 MiB. */
    public Builder maxBytesForLevelBase(long bytes) {
      this.maxBytesForLevelBase = bytes;
      return this;
    }

    /**
     * Bytes of each row's start that new tables' filters also hold (in a hash domain of their own),
     * in [0, {@value TableOptions#MAX_PREFIX_LENGTH}]; default 0 = off. A {@code scanPrefix} of a
     * prefix at least this long skips every table whose filter says no row starts with it. Each
     * table records its own length, so changing it never changes how existing tables are read.
     */
    public Builder prefixBloomLength(int bytes) {
      this.prefixBloomLength = bytes;
      return this;
    }

    /**
     * Level-0 tables at which each write group starts to be delayed, in [1, 65536]; default 20
     * (RocksDB's). Raised to the compaction trigger when below it.
     */
    public Builder level0SlowdownTrigger(int tables) {
      this.level0SlowdownTrigger = tables;
      return this;
    }

    /**
     * Level-0 tables at which writes stop until compaction catches up, in [1, 65536]; default 36
     * (RocksDB's). Raised to the slowdown trigger when below it; level 0 never holds more tables.
     */
    public Builder level0StopTrigger(int tables) {
      this.level0StopTrigger = tables;
      return this;
    }

    /**
     * Estimated bytes compaction still has to rewrite at which writes slow down, at least 0 (0 = no
     * limit); default 64 GiB (RocksDB's).
     */
    public Builder softPendingCompactionBytesLimit(long bytes) {
      this.softPendingCompactionBytesLimit = bytes;
      return this;
    }

    /**
     * Estimated bytes compaction still has to rewrite at which writes stop, at least 0 (0 = no
     * limit); default 256 GiB (RocksDB's).
     */
    public Builder hardPendingCompactionBytesLimit(long bytes) {
      this.hardPendingCompactionBytesLimit = bytes;
      return this;
    }

    /**
     * Bytes per second a slowed-down writer may still write at the start of a slowdown, at least 1;
     * default 16 MiB (RocksDB's). The rate falls to a sixteenth of it as the stop trigger nears.
     */
    public Builder delayedWriteRate(long bytesPerSecond) {
      this.delayedWriteRate = bytesPerSecond;
      return this;
    }

    /**
     * Tables open at once, at most: -1 (the default) for no limit, otherwise at least 16. The least
     * recently used tables are closed and reopened on demand.
     */
    public Builder maxOpenFiles(int files) {
      this.maxOpenFiles = files;
      return this;
    }

    /**
     * What open does with damaged logs ({@link WalRecoveryMode}); default {@link
     * WalRecoveryMode#POINT_IN_TIME}.
     */
    public Builder walRecovery(WalRecoveryMode mode) {
      this.walRecovery = Limits.requireNonNull(mode, "walRecovery");
      return this;
    }

    /**
     * Opens the database read-only; default false. A read-only open writes nothing and deletes
     * nothing, so it works on a full disk and in a read-only directory: it takes no directory lock
     * (a writer may hold it meanwhile), creates no file, replays the logs into memory without
     * flushing them, and runs no compaction. Every write, {@code flush()} and {@code compact()}
     * throws {@link IllegalStateException}. It reads the files as they were at open; a writer that
     * replaces them during the open can make it fail, and a retry then succeeds. A directory
     * without a database is an {@link java.io.IOException}, not a new database.
     *
     * <p>Beside a live writer it is a point-in-time view (RocksDB's {@code OpenForReadOnly}): the
     * writer's compactions may delete tables it lists. A table it has open keeps answering from its
     * file; a read that must open one that is gone throws {@link java.nio.file.NoSuchFileException}
     * saying it was deleted since this read-only open, never a wrong or missing answer. Reopen to
     * read the current state.
     */
    public Builder readOnly(boolean readOnly) {
      this.readOnly = readOnly;
      return this;
    }

    /**
     * Keeps the filter chunks and index partitions of level-0 tables pinned in the block cache
     * (RocksDB's {@code pin_l0_filter_and_index_blocks_in_cache}); default false. A level-0 table
     * loads them all when it opens (at {@code Db.open}, or on the flush thread after a flush) and
     * they are never evicted while it stays at level 0: level 0 is consulted by nearly every Get and
     * its tables overlap, so their metadata is the hottest there is. Pinned blocks are charged to
     * the cache (they show in {@code blockCacheBytes} and {@code pinnedMetadataBytes}) and may take
     * it past its capacity when they alone exceed it, as in RocksDB. They are unpinned when the
     * table leaves level 0 or the database; with a cache of capacity 0 nothing is pinned. The top
     * level of each table's index and its filter index are always held by the open table.
     */
    public Builder pinL0FilterAndIndexBlocksInCache(boolean pin) {
      this.pinL0FilterAndIndexBlocksInCache = pin;
      return this;
    }

    /**
     * Reads table files with {@code O_DIRECT} (RocksDB's {@code use_direct_reads}); default false.
     * A block-cache miss then reads from the device exactly the file-system blocks that cover the
     * block, where a buffered read lets the kernel read ahead (about three times what a cold random
     * Get asked for) and fills the OS page cache with table pages the block cache holds already.
     * The price: the OS caches nothing for the tables, so with a database that fits in free memory
     * every block-cache miss becomes a device read; size the block cache for the working set. Writes
     * (flushes, compaction outputs, logs) stay buffered. A file system that refuses {@code O_DIRECT}
     * (tmpfs on older kernels) is read through the page cache instead, with one log line; the open
     * never fails for it. The "Direct reads" section of docs/OPERATING.md has the measurements behind
     * the default.
     */
    public Builder useDirectReads(boolean direct) {
      this.useDirectReads = direct;
      return this;
    }

    /**
     * Bytes a compaction reads from an input table at once (RocksDB's {@code
     * compaction_readahead_size}); default 2 MiB, in [0, 64 MiB]. A compaction reads its inputs'
     * data blocks in file order past the block cache: one read of this many bytes serves the blocks
     * that follow, instead of a read call per block. It matters most with {@link
     * #useDirectReads(boolean)}, where nothing else reads ahead. Each input table being read holds a
     * window this size on the heap; 0 reads block by block.
     */
    public Builder compactionReadaheadBytes(int bytes) {
      this.compactionReadaheadBytes = bytes;
      return this;
    }

    /**
     * Whether the first open in a JVM runs every read path once before it returns; default false:
     * an open opens, and does nothing else. A JVM's first Get loads, verifies and links the read
     * path's classes and lambdas (some tens of classes) and its first compressed block loads LZ4's
     * native library: CPU time that a first Get otherwise pays. With this on, the open pays it
     * instead, on a thread beside its own table reads, and waits for it: Gets, a batched Get, cursor
     * steps and a row read over up to two of the database's tables (a few tens of KB read, through
     * a block cache of its own, so nothing shows in the statistics or the cache), and the loading
     * of LZ4 and the platform MBean server. It costs the first open that much more time and CPU;
     * later opens in the JVM do nothing. docs/PERFORMANCE.md gives the measured first Get with and
     * without it.
     */
    public Builder warmUpOnOpen(boolean warmUp) {
      this.warmUpOnOpen = warmUp;
      return this;
    }

    /**
     * Threads a batched Get ({@code multiGet}) may use besides its caller, 0 to {@value
     * #MAX_MULTI_GET_THREADS}; default 0, every batch on its caller's thread. Java cannot overlap
     * the reads of one thread (it has no asynchronous positional read of a buffered file), so a
     * batch whose blocks come from files rather than the block cache overlaps them by running parts
     * of itself (8 keys each, by key range) on this many pool threads as well, when it has 16
     * undecided keys or more after the memtables. The choice is this option's alone, never a
     * clock's: the same batch always takes the same path. The threads start with the first batch
     * that uses them, park when idle and end after 30 seconds without work. RocksDB's {@code
     * ReadOptions::async_io} is the nearest equivalent. docs/PERFORMANCE.md ("Batched Gets") gives
     * what it saves, and costs, with a caller per core and with fewer callers than cores.
     */
    public Builder multiGetThreads(int threads) {
      this.multiGetThreads = threads;
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException naming the first option whose value is out of range
     */
    public DbOptions build() {
      if (!(bloomBitsPerKey >= MIN_BLOOM_BITS_PER_KEY
          && bloomBitsPerKey <= MAX_BLOOM_BITS_PER_KEY)) {
        throw outOfRange(
            "bloomBitsPerKey",
            bloomBitsPerKey,
            "[" + MIN_BLOOM_BITS_PER_KEY + ", " + MAX_BLOOM_BITS_PER_KEY + "]");
      }
      checkRange("bloomChunkBytes", bloomChunkBytes, MIN_BLOOM_CHUNK_BYTES, MAX_BLOOM_CHUNK_BYTES);
      checkRange("blockSizeBytes", blockSizeBytes, MIN_BLOCK_SIZE_BYTES, MAX_BLOCK_SIZE_BYTES);
      checkRange("blockCacheBytes", blockCacheBytes, 0, Long.MAX_VALUE);
      checkRange("blockCacheShards", blockCacheShards, 1, MAX_BLOCK_CACHE_SHARDS);
      checkRange("blockCacheOffHeapMinBytes", blockCacheOffHeapMinBytes, 0, Long.MAX_VALUE);
      checkRange("memtableBytes", memtableBytes, 1, Long.MAX_VALUE);
      checkRange(
          "level0CompactionTrigger", level0CompactionTrigger, 1, MAX_LEVEL0_COMPACTION_TRIGGER);
      checkRange("maxSubcompactions", maxSubcompactions, 1, MAX_SUBCOMPACTIONS);
      checkRange("multiGetThreads", multiGetThreads, 0, MAX_MULTI_GET_THREADS);
      checkRange(
          "readTriggeredCompactionBytesPerRead",
          readTriggeredCompactionBytesPerRead,
          0,
          Long.MAX_VALUE);
      checkRange(
          "levelSizeMultiplier",
          levelSizeMultiplier,
          MIN_LEVEL_SIZE_MULTIPLIER,
          MAX_LEVEL_SIZE_MULTIPLIER);
      checkRange("targetFileSizeBytes", targetFileSizeBytes, 1, Long.MAX_VALUE);
      checkRange("maxBytesForLevelBase", maxBytesForLevelBase, 1, Long.MAX_VALUE);
      checkRange("prefixBloomLength", prefixBloomLength, 0, TableOptions.MAX_PREFIX_LENGTH);
      checkRange(
          "level0SlowdownTrigger", level0SlowdownTrigger, 1, MAX_LEVEL0_COMPACTION_TRIGGER);
      checkRange("level0StopTrigger", level0StopTrigger, 1, MAX_LEVEL0_COMPACTION_TRIGGER);
      checkRange(
          "softPendingCompactionBytesLimit", softPendingCompactionBytesLimit, 0, Long.MAX_VALUE);
      checkRange(
          "hardPendingCompactionBytesLimit", hardPendingCompactionBytesLimit, 0, Long.MAX_VALUE);
      checkRange("delayedWriteRate", delayedWriteRate, 1, Long.MAX_VALUE);
      checkRange("compactionReadaheadBytes", compactionReadaheadBytes, 0,
          TableReadOptions.MAX_COMPACTION_READAHEAD_BYTES);
      if (maxOpenFiles != -1 && maxOpenFiles < MIN_MAX_OPEN_FILES) {
        throw outOfRange("maxOpenFiles", maxOpenFiles, "-1 or at least " + MIN_MAX_OPEN_FILES);
      }
      return new DbOptions(this);
    }

    private static void checkRange(String option, long value, long min, long max) {
      if (value < min || value > max) {
        throw outOfRange(
            option,
            value,
            max == Long.MAX_VALUE ? "at least " + min : "[" + min + ", " + max + "]");
      }
    }

    private static IllegalArgumentException outOfRange(String option, Object value, String range) {
      return new IllegalArgumentException(
          String.format(Locale.ROOT, "%s must be %s, was %s", option, range, value));
    }
  }
}
