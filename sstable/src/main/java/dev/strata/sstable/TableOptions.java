package dev.strata.sstable;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.SstableFormat;
import java.util.Objects;

/**
 * How a {@link TableWriter} lays out a table. Readers never look at options: everything they need is
 * in the table's own {@link TableProperties}.
 *
 * @param blockSizeBytes target uncompressed size of a data block, in [{@value #MIN_BLOCK_SIZE_BYTES},
 *     {@value #MAX_BLOCK_SIZE_BYTES}]; a block is cut
 *     after the entry that reaches it, so a block holds at least one entry however large
 * @param filterType what the filter holds
 * @param bitsPerKey filter bits per filter key, in [{@value #MIN_BITS_PER_KEY}, {@value
 *     #MAX_BITS_PER_KEY}]; ignored for {@link FilterType#NONE}
 * @param filterChunkBytes target size of a filter chunk, in [{@value #MIN_FILTER_CHUNK_BYTES},
 *     {@value #MAX_FILTER_CHUNK_BYTES}]; a chunk holds
 *     {@code max(1, floor(filterChunkBytes * 8 / bitsPerKey))} filter keys
 * @param compression how data blocks are stored; other blocks are never compressed
 * @param prefixLength when above 0 (and the filter type is not NONE), every filter chunk also holds
 *     the first {@code prefixLength} bytes of each row it covers that is at least that long, so a
 *     prefix scan can skip the table; in [0, {@value #MAX_PREFIX_LENGTH}]
 * @param filterKind the structure of the filter chunks: {@link FilterKind#BLOOM} chunks spend
 *     {@code bitsPerKey}; {@link FilterKind#RIBBON} chunks reach the rate a blocked Bloom filter of
 *     {@code bitsPerKey} has (its model), in the fewer bits a Ribbon filter needs for it. The
 *     row-tombstone filter is always a blocked Bloom filter
 *
 * <p>Immutable.
 */
public record TableOptions(
    int blockSizeBytes,
    FilterType filterType,
    double bitsPerKey,
    int filterChunkBytes,
    BlockCompression compression,
    int prefixLength,
    FilterKind filterKind) {

  // The ranges below are the single source of truth: DbOptions' builder checks against these
  // constants, so every option it accepts is a table layout this class accepts.

  /** Smallest data block target: a block holds at least one entry however small the target. */
  public static final int MIN_BLOCK_SIZE_BYTES = 64;

  /** Largest data block target (64 MiB); a block is read and cached whole. */
  public static final int MAX_BLOCK_SIZE_BYTES = 64 << 20;

  /** Smallest filter bits per key: below one bit per key a filter answers "maybe" to nearly all. */
  public static final double MIN_BITS_PER_KEY = 1;

  /** Largest filter bits per key, as {@code BlockedBloomFilter.create} accepts. */
  public static final double MAX_BITS_PER_KEY = 64;

  /** Smallest filter chunk: one 64-byte filter block. */
  public static final int MIN_FILTER_CHUNK_BYTES = 64;

  /** Largest filter chunk (1 GiB); a chunk is read and cached whole. */
  public static final int MAX_FILTER_CHUNK_BYTES = 1 << 30;

  /** The default data block size. */
  public static final int DEFAULT_BLOCK_SIZE_BYTES = 4096;

  /** The default filter bits per key. */
  public static final double DEFAULT_BITS_PER_KEY = 10;

  /** Longest row prefix a filter can hold: the longest row. */
  public static final int MAX_PREFIX_LENGTH = SstableFormat.MAX_ROW_LENGTH;

  /** The default filter chunk size. */
  public static final int DEFAULT_FILTER_CHUNK_BYTES = 128 << 10;

  /** Validates every field; {@link IllegalArgumentException} names the bad one. */
  public TableOptions {
    Objects.requireNonNull(filterType, "filterType");
    Objects.requireNonNull(compression, "compression");
    Objects.requireNonNull(filterKind, "filterKind");
    if (blockSizeBytes < MIN_BLOCK_SIZE_BYTES || blockSizeBytes > MAX_BLOCK_SIZE_BYTES) {
      throw new IllegalArgumentException(
          "blockSizeBytes must be in [" + MIN_BLOCK_SIZE_BYTES + ", " + MAX_BLOCK_SIZE_BYTES + "]: "
              + blockSizeBytes);
    }
    if (!(bitsPerKey >= MIN_BITS_PER_KEY && bitsPerKey <= MAX_BITS_PER_KEY)) {
      throw new IllegalArgumentException("bitsPerKey must be in [1, 64]: " + bitsPerKey);
    }
    if (filterChunkBytes < MIN_FILTER_CHUNK_BYTES || filterChunkBytes > MAX_FILTER_CHUNK_BYTES) {
      throw new IllegalArgumentException(
          "filterChunkBytes must be in [" + MIN_FILTER_CHUNK_BYTES + ", " + MAX_FILTER_CHUNK_BYTES
              + "]: " + filterChunkBytes);
    }
    if (prefixLength < 0 || prefixLength > MAX_PREFIX_LENGTH) {
      throw new IllegalArgumentException(
          "prefixLength must be in [0, " + MAX_PREFIX_LENGTH + "]: " + prefixLength);
    }
  }

  /** Options with blocked Bloom filter chunks. */
  public TableOptions(
      int blockSizeBytes,
      FilterType filterType,
      double bitsPerKey,
      int filterChunkBytes,
      BlockCompression compression,
      int prefixLength) {
    this(blockSizeBytes, filterType, bitsPerKey, filterChunkBytes, compression, prefixLength, FilterKind.BLOOM);
  }

  /** Options without a prefix filter. */
  public TableOptions(
      int blockSizeBytes,
      FilterType filterType,
      double bitsPerKey,
      int filterChunkBytes,
      BlockCompression compression) {
    this(blockSizeBytes, filterType, bitsPerKey, filterChunkBytes, compression, 0);
  }

  /** 4 KiB blocks, a {@code ROW} filter of 10 bits/key in 128 KiB chunks, LZ4. */
  public static TableOptions defaults() {
    return new TableOptions(
        DEFAULT_BLOCK_SIZE_BYTES,
        FilterType.ROW,
        DEFAULT_BITS_PER_KEY,
        DEFAULT_FILTER_CHUNK_BYTES,
        BlockCompression.LZ4);
  }

  /** A copy with another block size. */
  public TableOptions withBlockSizeBytes(int bytes) {
    return new TableOptions(bytes, filterType, bitsPerKey, filterChunkBytes, compression, prefixLength, filterKind);
  }

  /** A copy with another filter type. */
  public TableOptions withFilterType(FilterType type) {
    return new TableOptions(blockSizeBytes, type, bitsPerKey, filterChunkBytes, compression, prefixLength, filterKind);
  }

  /** A copy with another bits/key. */
  public TableOptions withBitsPerKey(double bits) {
    return new TableOptions(blockSizeBytes, filterType, bits, filterChunkBytes, compression, prefixLength, filterKind);
  }

  /** A copy with another filter chunk size. */
  public TableOptions withFilterChunkBytes(int bytes) {
    return new TableOptions(blockSizeBytes, filterType, bitsPerKey, bytes, compression, prefixLength, filterKind);
  }

  /** A copy with another compression. */
  public TableOptions withCompression(BlockCompression c) {
    return new TableOptions(blockSizeBytes, filterType, bitsPerKey, filterChunkBytes, c, prefixLength, filterKind);
  }

  /** A copy with another row-prefix length for the filter (0: none). */
  public TableOptions withPrefixLength(int length) {
    return new TableOptions(blockSizeBytes, filterType, bitsPerKey, filterChunkBytes, compression, length, filterKind);
  }

  /** A copy with another filter kind. */
  public TableOptions withFilterKind(FilterKind kind) {
    return new TableOptions(blockSizeBytes, filterType, bitsPerKey, filterChunkBytes, compression, prefixLength, kind);
  }

  /** Filter keys per chunk. */
  long keysPerChunk() {
    return Math.max(1L, (long) Math.floor(filterChunkBytes * 8.0 / bitsPerKey));
  }
}
