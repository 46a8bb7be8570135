package dev.strata.engine;

import dev.strata.engine.write.Limits;
import dev.strata.sstable.TableReadOptions;
import java.util.List;

/**
 * How a {@link Db} is configured, as eight groups of options, each a record that checks its own
 * ranges: {@link #filters()}, {@link #dataBlocks()}, {@link #blockCache()}, {@link #memtable()},
 * {@link #compaction()}, {@link #writeStalls()}, {@link #files()} and {@link #reads()}. Built with
 * {@link #builder()}, whose setters keep each option's one flat name (the record component of the
 * same name documents it); {@link Builder#build()} throws an {@link IllegalArgumentException}
 * naming an option that is out of range. Options are not persisted: each open uses the options it is
 * given, and every table records the filter and codec it was written with, so changing an option
 * never changes how existing tables are read.
 *
 * <p>Immutable.
 */
public final class DbOptions {
  private static final DbOptions DEFAULTS = builder().build();

  private final FilterOptions filters;
  private final DataBlockOptions dataBlocks;
  private final BlockCacheOptions blockCache;
  private final MemtableOptions memtable;
  private final CompactionOptions compaction;
  private final WriteStallOptions writeStalls;
  private final FileOptions files;
  private final ReadOptions reads;

  /** Groups the builder's options; each group's constructor checks its own. */
  private DbOptions(Builder b) {
    filters =
        new FilterOptions(
            b.bloomType,
            b.bloomBitsPerKey,
            b.bloomChunkBytes,
            b.prefixBloomLength,
            b.filterAllocation,
            b.ribbonFromLevel,
            b.bloomFalsePositiveRate,
            b.cacheMetadataOnWrite,
            b.filterMemoryBytes,
            b.refitFiltersAtRest);
    dataBlocks = new DataBlockOptions(b.blockSizeBytes, b.compression);
    blockCache =
        new BlockCacheOptions(
            b.blockCacheBytes,
            b.blockCacheShards,
            b.blockCacheOffHeapMinBytes,
            b.pinL0FilterAndIndexBlocksInCache);
    memtable = new MemtableOptions(b.memtableBytes, b.syncWrites, b.walRecovery);
    compaction =
        new CompactionOptions(
            b.autoCompaction,
            b.level0CompactionTrigger,
            b.maxSubcompactions,
            b.readTriggeredCompactionBytesPerRead,
            b.levelSizeMultiplier,
            b.targetFileSizeBytes,
            b.maxBytesForLevelBase);
    writeStalls = new WriteStallOptions(b.level0SlowdownTrigger, b.level0StopTrigger,
        b.softPendingCompactionBytesLimit, b.hardPendingCompactionBytesLimit, b.delayedWriteRate);
    files =
        new FileOptions(b.readOnly, b.maxOpenFiles, b.useDirectReads, b.compactionReadaheadBytes);
    reads = new ReadOptions(b.multiGetThreads, b.warmUpOnOpen);
  }

  /** Every option at its default, one shared instance. */
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

  /** How new tables' filters are built. */
  public FilterOptions filters() {
    return filters;
  }

  /** How new tables' data blocks are cut and compressed. */
  public DataBlockOptions dataBlocks() {
    return dataBlocks;
  }

  /** The shared block cache. */
  public BlockCacheOptions blockCache() {
    return blockCache;
  }

  /** The memtable and the write-ahead log behind it. */
  public MemtableOptions memtable() {
    return memtable;
  }

  /** Leveled compaction. */
  public CompactionOptions compaction() {
    return compaction;
  }

  /** When writes slow down or stop for compaction to keep up. */
  public WriteStallOptions writeStalls() {
    return writeStalls;
  }

  /** How the database uses its files. */
  public FileOptions files() {
    return files;
  }

  /** The threads and warm-up of the read path. */
  public ReadOptions reads() {
    return reads;
  }

  /**
   * Whether the block cache holds data blocks off the heap: its capacity is not 0 and reaches
   * {@link BlockCacheOptions#blockCacheOffHeapMinBytes()}.
   */
  public boolean blockCacheOffHeap() {
    long bytes = blockCache.blockCacheBytes();
    return bytes > 0 && bytes >= blockCache.blockCacheOffHeapMinBytes();
  }

  /**
   * The shards the block cache is actually split into: {@link
   * BlockCacheOptions#blockCacheShards()}, halved until each shard holds at least four filter
   * chunks (or data blocks), so half a shard, well within its metadata floor, holds two. With fewer, a
   * filter chunk fills its shard's share and every stream of data blocks evicts it, so Gets reload
   * filters from disk (RocksDB has the same trap: a filter larger than a cache shard is re-read on
   * every Get).
   */
  public int effectiveBlockCacheShards() {
    long minShardBytes = 4L * Math.max(filters.bloomChunkBytes(), dataBlocks.blockSizeBytes());
    int shards = blockCache.blockCacheShards();
    while (shards > 1 && blockCache.blockCacheBytes() / shards < minShardBytes) {
      shards = (shards + 1) / 2;
    }
    return shards;
  }

  /** The groups, in order: equality, hash and text are theirs, so no option can be left out. */
  private List<Record> groups() {
    return List.of(
        filters, dataBlocks, blockCache, memtable, compaction, writeStalls, files, reads);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DbOptions d && groups().equals(d.groups());
  }

  @Override
  public int hashCode() {
    return groups().hashCode();
  }

  /** Every group with every option, by the option's name. */
  @Override
  public String toString() {
    return "DbOptions" + groups();
  }

  /**
   * Collects options under their flat names; {@link #build()} groups and checks them. Each setter
   * sets the record component of the same name, which documents its meaning, range and default.
   * Setters of enums reject null at once with a {@link NullPointerException} naming the option;
   * numbers are checked by {@link #build()}.
   *
   * <p>Not thread-safe.
   */
  public static final class Builder {
    private BloomType bloomType = BloomType.ROW;
    private double bloomBitsPerKey = 10;
    private int bloomChunkBytes = 4096;
    private int prefixBloomLength = 0;
    private FilterAllocation filterAllocation = FilterAllocation.UNIFORM;
    private int ribbonFromLevel = Integer.MAX_VALUE;
    private double bloomFalsePositiveRate = 0;
    private boolean cacheMetadataOnWrite = true;
    private long filterMemoryBytes = 0;
    private boolean refitFiltersAtRest = false;
    private int blockSizeBytes = 4096;
    private Compression compression = Compression.LZ4;
    private long blockCacheBytes = 64L << 20;
    private int blockCacheShards = 16;
    private long blockCacheOffHeapMinBytes = 0;
    private boolean pinL0FilterAndIndexBlocksInCache = false;
    private long memtableBytes = 64L << 20;
    private boolean syncWrites = false;
    private WalRecoveryMode walRecovery = WalRecoveryMode.POINT_IN_TIME;
    private boolean autoCompaction = true;
    private int level0CompactionTrigger = 4;
    private int maxSubcompactions = 1;
    private long readTriggeredCompactionBytesPerRead = 16L << 10;
    private int levelSizeMultiplier = 10;
    private long targetFileSizeBytes = 64L << 20;
    private long maxBytesForLevelBase = 256L << 20;
    private int level0SlowdownTrigger = 20;
    private int level0StopTrigger = 36;
    private long softPendingCompactionBytesLimit = 64L << 30;
    private long hardPendingCompactionBytesLimit = 256L << 30;
    private long delayedWriteRate = 16L << 20;
    private boolean readOnly = false;
    private int maxOpenFiles = -1;
    private boolean useDirectReads = false;
    private int compactionReadaheadBytes = TableReadOptions.DEFAULT_COMPACTION_READAHEAD_BYTES;
    private int multiGetThreads = 0;
    private boolean warmUpOnOpen = false;

    private Builder() {}

    private Builder(DbOptions o) {
      bloomType(o.filters.bloomType())
          .bloomBitsPerKey(o.filters.bloomBitsPerKey())
          .bloomFalsePositiveRate(o.filters.bloomFalsePositiveRate())
          .bloomChunkBytes(o.filters.bloomChunkBytes())
          .prefixBloomLength(o.filters.prefixBloomLength())
          .filterAllocation(o.filters.filterAllocation())
          .ribbonFromLevel(o.filters.ribbonFromLevel())
          .cacheMetadataOnWrite(o.filters.cacheMetadataOnWrite())
          .filterMemoryBytes(o.filters.filterMemoryBytes())
          .refitFiltersAtRest(o.filters.refitFiltersAtRest())
          .blockSizeBytes(o.dataBlocks.blockSizeBytes())
          .compression(o.dataBlocks.compression())
          .blockCacheBytes(o.blockCache.blockCacheBytes())
          .blockCacheShards(o.blockCache.blockCacheShards())
          .blockCacheOffHeapMinBytes(o.blockCache.blockCacheOffHeapMinBytes())
          .pinL0FilterAndIndexBlocksInCache(o.blockCache.pinL0FilterAndIndexBlocksInCache())
          .memtableBytes(o.memtable.memtableBytes())
          .syncWrites(o.memtable.syncWrites())
          .walRecovery(o.memtable.walRecovery())
          .autoCompaction(o.compaction.autoCompaction())
          .level0CompactionTrigger(o.compaction.level0CompactionTrigger())
          .maxSubcompactions(o.compaction.maxSubcompactions())
          .readTriggeredCompactionBytesPerRead(o.compaction.readTriggeredCompactionBytesPerRead())
          .levelSizeMultiplier(o.compaction.levelSizeMultiplier())
          .targetFileSizeBytes(o.compaction.targetFileSizeBytes())
          .maxBytesForLevelBase(o.compaction.maxBytesForLevelBase())
          .level0SlowdownTrigger(o.writeStalls.level0SlowdownTrigger())
          .level0StopTrigger(o.writeStalls.level0StopTrigger())
          .softPendingCompactionBytesLimit(o.writeStalls.softPendingCompactionBytesLimit())
          .hardPendingCompactionBytesLimit(o.writeStalls.hardPendingCompactionBytesLimit())
          .delayedWriteRate(o.writeStalls.delayedWriteRate())
          .readOnly(o.files.readOnly())
          .maxOpenFiles(o.files.maxOpenFiles())
          .useDirectReads(o.files.useDirectReads())
          .compactionReadaheadBytes(o.files.compactionReadaheadBytes())
          .multiGetThreads(o.reads.multiGetThreads())
          .warmUpOnOpen(o.reads.warmUpOnOpen());
    }

    /** Sets {@link FilterOptions#bloomType()}. */
    public Builder bloomType(BloomType type) {
      this.bloomType = Limits.requireNonNull(type, "bloomType");
      return this;
    }

    /** Sets {@link FilterOptions#bloomBitsPerKey()}, and clears {@code bloomFalsePositiveRate}. */
    public Builder bloomBitsPerKey(double bits) {
      this.bloomBitsPerKey = bits;
      this.bloomFalsePositiveRate = 0;
      return this;
    }

    /** Sets {@link FilterOptions#bloomFalsePositiveRate()} (0: not set, bits per key decide). */
    public Builder bloomFalsePositiveRate(double fpp) {
      this.bloomFalsePositiveRate = fpp;
      return this;
    }

    /** Sets {@link FilterOptions#filterAllocation()}. */
    public Builder filterAllocation(FilterAllocation allocation) {
      this.filterAllocation = Limits.requireNonNull(allocation, "filterAllocation");
      return this;
    }

    /** Sets {@link FilterOptions#ribbonFromLevel()}. */
    public Builder ribbonFromLevel(int level) {
      this.ribbonFromLevel = level;
      return this;
    }

    /** Sets {@link FilterOptions#cacheMetadataOnWrite()}. */
    public Builder cacheMetadataOnWrite(boolean on) {
      this.cacheMetadataOnWrite = on;
      return this;
    }

    /** Sets {@link FilterOptions#filterMemoryBytes()}. */
    public Builder filterMemoryBytes(long bytes) {
      this.filterMemoryBytes = bytes;
      return this;
    }

    /** Sets {@link FilterOptions#refitFiltersAtRest()}. */
    public Builder refitFiltersAtRest(boolean on) {
      this.refitFiltersAtRest = on;
      return this;
    }

    /** Sets {@link FilterOptions#bloomChunkBytes()}. */
    public Builder bloomChunkBytes(int bytes) {
      this.bloomChunkBytes = bytes;
      return this;
    }

    /** Sets {@link FilterOptions#prefixBloomLength()}. */
    public Builder prefixBloomLength(int bytes) {
      this.prefixBloomLength = bytes;
      return this;
    }

    /** Sets {@link DataBlockOptions#blockSizeBytes()}. */
    public Builder blockSizeBytes(int bytes) {
      this.blockSizeBytes = bytes;
      return this;
    }

    /** Sets {@link DataBlockOptions#compression()}. */
    public Builder compression(Compression c) {
      this.compression = Limits.requireNonNull(c, "compression");
      return this;
    }

    /** Sets {@link BlockCacheOptions#blockCacheBytes()}. */
    public Builder blockCacheBytes(long bytes) {
      this.blockCacheBytes = bytes;
      return this;
    }

    /** Sets {@link BlockCacheOptions#blockCacheShards()}. */
    public Builder blockCacheShards(int shards) {
      this.blockCacheShards = shards;
      return this;
    }

    /** Sets {@link BlockCacheOptions#blockCacheOffHeapMinBytes()}. */
    public Builder blockCacheOffHeapMinBytes(long bytes) {
      this.blockCacheOffHeapMinBytes = bytes;
      return this;
    }

    /** Sets {@link BlockCacheOptions#pinL0FilterAndIndexBlocksInCache()}. */
    public Builder pinL0FilterAndIndexBlocksInCache(boolean pin) {
      this.pinL0FilterAndIndexBlocksInCache = pin;
      return this;
    }

    /** Sets {@link MemtableOptions#memtableBytes()}. */
    public Builder memtableBytes(long bytes) {
      this.memtableBytes = bytes;
      return this;
    }

    /** Sets {@link MemtableOptions#syncWrites()}. */
    public Builder syncWrites(boolean sync) {
      this.syncWrites = sync;
      return this;
    }

    /** Sets {@link MemtableOptions#walRecovery()}. */
    public Builder walRecovery(WalRecoveryMode mode) {
      this.walRecovery = Limits.requireNonNull(mode, "walRecovery");
      return this;
    }

    /** Sets {@link CompactionOptions#autoCompaction()}. */
    public Builder autoCompaction(boolean on) {
      this.autoCompaction = on;
      return this;
    }

    /** Sets {@link CompactionOptions#level0CompactionTrigger()}. */
    public Builder level0CompactionTrigger(int tables) {
      this.level0CompactionTrigger = tables;
      return this;
    }

    /** Sets {@link CompactionOptions#maxSubcompactions()}. */
    public Builder maxSubcompactions(int jobs) {
      this.maxSubcompactions = jobs;
      return this;
    }

    /** Sets {@link CompactionOptions#readTriggeredCompactionBytesPerRead()}. */
    public Builder readTriggeredCompactionBytesPerRead(long bytes) {
      this.readTriggeredCompactionBytesPerRead = bytes;
      return this;
    }

    /** Sets {@link CompactionOptions#levelSizeMultiplier()}. */
    public Builder levelSizeMultiplier(int multiplier) {
      this.levelSizeMultiplier = multiplier;
      return this;
    }

    /** Sets {@link CompactionOptions#targetFileSizeBytes()}. */
    public Builder targetFileSizeBytes(long bytes) {
      this.targetFileSizeBytes = bytes;
      return this;
    }

    /** Sets {@link CompactionOptions#maxBytesForLevelBase()}. */
    public Builder maxBytesForLevelBase(long bytes) {
      this.maxBytesForLevelBase = bytes;
      return this;
    }

    /** Sets {@link WriteStallOptions#level0SlowdownTrigger()}. */
    public Builder level0SlowdownTrigger(int tables) {
      this.level0SlowdownTrigger = tables;
      return this;
    }

    /** Sets {@link WriteStallOptions#level0StopTrigger()}. */
    public Builder level0StopTrigger(int tables) {
      this.level0StopTrigger = tables;
      return this;
    }

    /** Sets {@link WriteStallOptions#softPendingCompactionBytesLimit()}. */
    public Builder softPendingCompactionBytesLimit(long bytes) {
      this.softPendingCompactionBytesLimit = bytes;
      return this;
    }

    /** Sets {@link WriteStallOptions#hardPendingCompactionBytesLimit()}. */
    public Builder hardPendingCompactionBytesLimit(long bytes) {
      this.hardPendingCompactionBytesLimit = bytes;
      return this;
    }

    /** Sets {@link WriteStallOptions#delayedWriteRate()}. */
    public Builder delayedWriteRate(long bytesPerSecond) {
      this.delayedWriteRate = bytesPerSecond;
      return this;
    }

    /** Sets {@link FileOptions#readOnly()}. */
    public Builder readOnly(boolean readOnly) {
      this.readOnly = readOnly;
      return this;
    }

    /** Sets {@link FileOptions#maxOpenFiles()}. */
    public Builder maxOpenFiles(int files) {
      this.maxOpenFiles = files;
      return this;
    }

    /** Sets {@link FileOptions#useDirectReads()}. */
    public Builder useDirectReads(boolean direct) {
      this.useDirectReads = direct;
      return this;
    }

    /** Sets {@link FileOptions#compactionReadaheadBytes()}. */
    public Builder compactionReadaheadBytes(int bytes) {
      this.compactionReadaheadBytes = bytes;
      return this;
    }

    /** Sets {@link ReadOptions#multiGetThreads()}. */
    public Builder multiGetThreads(int threads) {
      this.multiGetThreads = threads;
      return this;
    }

    /** Sets {@link ReadOptions#warmUpOnOpen()}. */
    public Builder warmUpOnOpen(boolean warmUp) {
      this.warmUpOnOpen = warmUp;
      return this;
    }

    /**
     * The options, grouped.
     *
     * @throws IllegalArgumentException naming an option whose value is out of range (the first
     *     group's, when several are)
     */
    public DbOptions build() {
      return new DbOptions(this);
    }
  }
}
