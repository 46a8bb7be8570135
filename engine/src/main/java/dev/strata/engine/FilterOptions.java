package dev.strata.engine;

import dev.strata.engine.compaction.FilterModel;
import dev.strata.engine.write.Limits;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.cache.ClockBlockCache;

/**
 * How new tables' filters are built: what they index, their bits per entry, their partition size
 * and the row prefix they also hold. Each table records its own filter, so changing these never
 * changes how existing tables are read. Each component is set by the {@link DbOptions.Builder}
 * method of the same name; the constructor rejects a value out of range with an {@link
 * IllegalArgumentException} naming it.
 *
 * <p>Immutable.
 *
 * @param bloomType what new tables' filters index; default {@link BloomType#ROW}
 * @param bloomBitsPerKey filter bits per entry, in [1, 64]; default 10; not used under {@link
 *     BloomType#NONE} but checked all the same, so a typo never hides behind the bloom type
 * @param bloomChunkBytes target size of one filter partition (chunk), in [64, 2^30] bytes; default
 *     4096. A Get that misses the cache reads one whole chunk to answer one probe, so small chunks
 *     read less; the cost is a longer filter index held by each open table (one entry per chunk)
 * @param prefixBloomLength bytes of each row's start that new tables' filters also hold (in a hash
 *     domain of their own), in [0, {@value #MAX_PREFIX_BLOOM_LENGTH}]; default 0 = off; not used
 *     under {@link BloomType#NONE}. A {@code scanPrefix} of a prefix at least this long skips every
 *     table whose filter says no row starts with it
 * @param filterAllocation how the budget is spread over the tree's levels; default {@link
 *     FilterAllocation#UNIFORM}. Under {@link FilterAllocation#BY_LEVEL} the budget is the average
 *     over the tree's filter keys, and each new table's bits per key come from its level and the
 *     tree's shape at flush or compaction ({@code dev.strata.bloom.FilterBudget}), clamped to [1, 64]
 * @param ribbonFromLevel tables written to this level or deeper carry Ribbon filters instead of
 *     blocked Bloom filters, in [0, {@link Integer#MAX_VALUE}]; 0 = every table, {@link
 *     Integer#MAX_VALUE} (the default) = never. A Ribbon table gets the false-positive rate the
 *     Bloom plan gives its level, in the fewer bits Ribbon needs for it: the budget counts rates, so
 *     Ribbon saves memory at the same false positives (and costs several times the CPU to build,
 *     chunk by chunk, so its memory stays bounded by a chunk's). Level 0 is flushed often and
 *     compacted soon: RocksDB's advice, kept here, is Ribbon from level 1
 * @param bloomFalsePositiveRate the budget given as a rate, in (0, 1), instead of bits per key; 0
 *     (the default) = not set, {@code bloomBitsPerKey} decides. When set it decides, converted
 *     through the blocked filter's own model (10 bits per key reach about 1 %); the builder's
 *     {@code bloomBitsPerKey} and {@code bloomFalsePositiveRate} each clear the other, so the last
 *     one set wins
 * @param cacheMetadataOnWrite whether a flush or compaction puts each filter chunk and index
 *     partition it writes into the block cache (at metadata priority, within the cache's metadata
 *     share), keyed as a reader looks them up, so no Get reads the metadata of a table this process
 *     wrote; default true. Off, a new table's metadata is read from disk on its first Gets
 * @param filterMemoryBytes memory the tree's filters may take, in bytes (chunks, filter indexes and
 *     their overhead, as {@code Db.levelStats()} counts them); 0 (the default) = no bound, the
 *     budget decides alone. Under a bound each new table's bits per key are planned for the tree
 *     it will live in: the tree after everything in it has reached its deepest level (a table
 *     keeps its bits until a compaction rewrites it, and the deepest level's tables are rewritten
 *     only as the level above drains into them), the memory spread over that tree's keys (the
 *     average never above the budget, never below one bit per key) and, under {@link
 *     FilterAllocation#BY_LEVEL}, split where it saves the most reads, Ribbon's levels at Ribbon's
 *     rates. A table never gets more than what the bound leaves after the tables that stay and
 *     the jobs written beside it, so the bound holds at every step as the tree grows (except where
 *     one bit per key for every key is already more). The price: a tree that stops growing leaves
 *     memory unspent, about the share of the keys above its deepest level and what level-0 tables
 *     piled past the trigger held while the deeper tables were written; {@code Db.compact()}
 *     spends it, and so does {@code refitFiltersAtRest}, table by table. Set within the
 *     block cache's metadata share, every table's filter chunks are pinned in the cache as it
 *     opens ({@link #filtersPinnedIn}): a filter that cannot stay costs a chunk read for each
 *     absent Get that reaches it, far more than the false positives its extra bits would save.
 *     The index partitions then share what the filters leave of the cache with the data blocks
 * @param refitFiltersAtRest whether, under a {@code filterMemoryBytes} bound, the tables of levels 1
 *     and deeper are rewritten in place, one at a time, with the bits the plan for the tree as it
 *     is gives them, once compaction has nothing to do; default false. The background work looks
 *     for such a rewrite only when a flush or compaction has just installed (never by a clock),
 *     and only when no flush is pending and no compaction is due: it takes the table whose rewrite
 *     lowers an absent Get's expected false positives the most per byte rewritten (or compacts
 *     level 0 into level 1 when its tables cost a tenth of them), and stops once no table's rate
 *     would fall by a tenth ({@code dev.strata.engine.compaction.FilterRefit}), so a
 *     quiet tree becomes quiet again. Each rewrite keeps the bound. Off, or with {@code
 *     autoCompaction} off or a read-only open, nothing is rewritten
 */
public record FilterOptions(
    BloomType bloomType,
    double bloomBitsPerKey,
    int bloomChunkBytes,
    int prefixBloomLength,
    FilterAllocation filterAllocation,
    int ribbonFromLevel,
    double bloomFalsePositiveRate,
    boolean cacheMetadataOnWrite,
    long filterMemoryBytes,
    boolean refitFiltersAtRest) {

  // The ranges are the table layer's own (TableOptions): one source of truth, so every value
  // accepted here is a layout the table writer accepts.

  /** Smallest bits per key: below one bit per key a filter answers "maybe" to nearly all. */
  public static final double MIN_BLOOM_BITS_PER_KEY = TableOptions.MIN_BITS_PER_KEY;

  /** Largest bits per key, as {@code BlockedBloomFilter.create} accepts. */
  public static final double MAX_BLOOM_BITS_PER_KEY = TableOptions.MAX_BITS_PER_KEY;

  /** Smallest filter chunk: one 64-byte filter block. */
  public static final int MIN_BLOOM_CHUNK_BYTES = TableOptions.MIN_FILTER_CHUNK_BYTES;

  /** Largest filter chunk (1 GiB); a chunk is read and cached whole. */
  public static final int MAX_BLOOM_CHUNK_BYTES = TableOptions.MAX_FILTER_CHUNK_BYTES;

  /** Longest row prefix a filter may hold, as the table format accepts. */
  public static final int MAX_PREFIX_BLOOM_LENGTH = TableOptions.MAX_PREFIX_LENGTH;

  /** Checks every component's range. */
  public FilterOptions {
    Limits.requireNonNull(bloomType, "bloomType");
    Limits.requireNonNull(filterAllocation, "filterAllocation");
    OptionRanges.check("ribbonFromLevel", ribbonFromLevel, 0, Integer.MAX_VALUE);
    if (!(bloomFalsePositiveRate == 0
        || (bloomFalsePositiveRate > 0 && bloomFalsePositiveRate < 1
            && bloomFalsePositiveRate >= FilterModel.bloomFpp(MAX_BLOOM_BITS_PER_KEY)))) {
      throw OptionRanges.outOfRange(
          "bloomFalsePositiveRate",
          bloomFalsePositiveRate,
          "0 (not set) or in [" + FilterModel.bloomFpp(MAX_BLOOM_BITS_PER_KEY) + ", 1)");
    }
    if (!(bloomBitsPerKey >= MIN_BLOOM_BITS_PER_KEY && bloomBitsPerKey <= MAX_BLOOM_BITS_PER_KEY)) {
      throw OptionRanges.outOfRange(
          "bloomBitsPerKey",
          bloomBitsPerKey,
          "[" + MIN_BLOOM_BITS_PER_KEY + ", " + MAX_BLOOM_BITS_PER_KEY + "]");
    }
    OptionRanges.check(
        "bloomChunkBytes", bloomChunkBytes, MIN_BLOOM_CHUNK_BYTES, MAX_BLOOM_CHUNK_BYTES);
    OptionRanges.check("prefixBloomLength", prefixBloomLength, 0, MAX_PREFIX_BLOOM_LENGTH);
    OptionRanges.check("filterMemoryBytes", filterMemoryBytes, 0, Long.MAX_VALUE);
  }

  /** Options with the allocation, Ribbon and cache-on-write settings at their defaults. */
  public FilterOptions(
      BloomType bloomType, double bloomBitsPerKey, int bloomChunkBytes, int prefixBloomLength) {
    this(bloomType, bloomBitsPerKey, bloomChunkBytes, prefixBloomLength, FilterAllocation.UNIFORM,
        Integer.MAX_VALUE, 0, true, 0, false);
  }

  /**
   * The budget in bits per filter key: {@link #bloomBitsPerKey()}, or the blocked filter's bits for
   * {@link #bloomFalsePositiveRate()} when that is set.
   */
  public double budgetBitsPerKey() {
    return bloomFalsePositiveRate == 0
        ? bloomBitsPerKey
        : FilterModel.bloomBitsForRate(bloomFalsePositiveRate);
  }

  /**
   * Whether every table's filter chunks are pinned in a block cache of {@code blockCacheBytes}: a
   * {@link #filterMemoryBytes()} bound set within the cache's metadata share ({@link
   * ClockBlockCache#METADATA_SHARE}), so the filters the bound admits all stay resident and no
   * data block or index partition evicts them (the cache's {@code pinnedBytes} shows them). A bound
   * beyond the share leaves the filters to load lazily and age with the rest.
   */
  public boolean filtersPinnedIn(long blockCacheBytes) {
    return filterMemoryBytes > 0
        && filterMemoryBytes <= blockCacheBytes * ClockBlockCache.METADATA_SHARE;
  }

  /**
   * The average bits per filter key the tree can have when it holds {@code treeKeys} filter keys:
   * {@link #budgetBitsPerKey()}, or less when {@link #filterMemoryBytes()} cannot hold that many,
   * never below {@link #MIN_BLOOM_BITS_PER_KEY}.
   */
  public double averageBitsPerKey(long treeKeys) {
    double budget = budgetBitsPerKey();
    if (filterMemoryBytes == 0 || treeKeys <= 0) {
      return budget;
    }
    double affordable = filterMemoryBytes * 8.0 / treeKeys;
    return Math.max(MIN_BLOOM_BITS_PER_KEY, Math.min(budget, affordable));
  }
}
