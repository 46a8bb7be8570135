package dev.strata.sstable;

import java.util.Objects;

/**
 * How a {@link TableWriter} lays out a table. Readers never look at options: everything they need is
 * in the table's own {@link TableProperties}.
 *
 * @param blockSizeBytes target uncompressed size of a data block, in [64, 64 MiB]; a block is cut
 *     after the entry that reaches it, so a block holds at least one entry however large
 * @param filterType what the filter holds
 * @param bitsPerKey filter bits per filter key, in [1, 64]; ignored for {@link FilterType#NONE}
 * @param filterChunkBytes target size of a filter chunk, in [64, 1 GiB]; a chunk holds
 *     {@code max(1, floor(filterChunkBytes * 8 / bitsPerKey))} filter keys
 * @param compression how data blocks are stored; other blocks are never compressed
 *
 * <p>Immutable.
 */
public record TableOptions(
    int blockSizeBytes,
    FilterType filterType,
    double bitsPerKey,
    int filterChunkBytes,
    BlockCompression compression) {

  /** The default data block size. */
  public static final int DEFAULT_BLOCK_SIZE_BYTES = 4096;

  /** The default filter bits per key. */
  public static final double DEFAULT_BITS_PER_KEY = 10;

  /** The default filter chunk size. */
  public static final int DEFAULT_FILTER_CHUNK_BYTES = 128 << 10;

  /** Validates every field; {@link IllegalArgumentException} names the bad one. */
  public TableOptions {
    Objects.requireNonNull(filterType, "filterType");
    Objects.requireNonNull(compression, "compression");
    if (blockSizeBytes < 64 || blockSizeBytes > (64 << 20)) {
      throw new IllegalArgumentException("blockSizeBytes must be in [64, 64 MiB]: " + blockSizeBytes);
    }
    if (!(bitsPerKey >= 1 && bitsPerKey <= 64)) {
      throw new IllegalArgumentException("bitsPerKey must be in [1, 64]: " + bitsPerKey);
    }
    if (filterChunkBytes < 64 || filterChunkBytes > (1 << 30)) {
      throw new IllegalArgumentException("filterChunkBytes must be in [64, 1 GiB]: " + filterChunkBytes);
    }
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
    return new TableOptions(bytes, filterType, bitsPerKey, filterChunkBytes, compression);
  }

  /** A copy with another filter type. */
  public TableOptions withFilterType(FilterType type) {
    return new TableOptions(blockSizeBytes, type, bitsPerKey, filterChunkBytes, compression);
  }

  /** A copy with another bits/key. */
  public TableOptions withBitsPerKey(double bits) {
    return new TableOptions(blockSizeBytes, filterType, bits, filterChunkBytes, compression);
  }

  /** A copy with another filter chunk size. */
  public TableOptions withFilterChunkBytes(int bytes) {
    return new TableOptions(blockSizeBytes, filterType, bitsPerKey, bytes, compression);
  }

  /** A copy with another compression. */
  public TableOptions withCompression(BlockCompression c) {
    return new TableOptions(blockSizeBytes, filterType, bitsPerKey, filterChunkBytes, c);
  }

  /** Filter keys per chunk. */
  long keysPerChunk() {
    return Math.max(1L, (long) Math.floor(filterChunkBytes * 8.0 / bitsPerKey));
  }
}
