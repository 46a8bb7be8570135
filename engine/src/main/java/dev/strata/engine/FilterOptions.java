package dev.strata.engine;

import dev.strata.engine.write.Limits;
import dev.strata.sstable.TableOptions;

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
 */
public record FilterOptions(
    BloomType bloomType, double bloomBitsPerKey, int bloomChunkBytes, int prefixBloomLength) {

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
    if (!(bloomBitsPerKey >= MIN_BLOOM_BITS_PER_KEY && bloomBitsPerKey <= MAX_BLOOM_BITS_PER_KEY)) {
      throw OptionRanges.outOfRange(
          "bloomBitsPerKey",
          bloomBitsPerKey,
          "[" + MIN_BLOOM_BITS_PER_KEY + ", " + MAX_BLOOM_BITS_PER_KEY + "]");
    }
    OptionRanges.check(
        "bloomChunkBytes", bloomChunkBytes, MIN_BLOOM_CHUNK_BYTES, MAX_BLOOM_CHUNK_BYTES);
    OptionRanges.check("prefixBloomLength", prefixBloomLength, 0, MAX_PREFIX_BLOOM_LENGTH);
  }
}
