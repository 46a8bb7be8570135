package dev.strata.sstable;

/**
 * Names a block in the {@link BlockCache}: the table's file number (never reused within a database)
 * and the block's offset in that file.
 *
 * @param fileNumber the table's file number
 * @param offset the file offset of the block's payload
 *
 * <p>Immutable.
 */
public record BlockCacheKey(long fileNumber, long offset) {
  /** A well-mixed hash, for choosing a shard. */
  long mixedHash() {
    long h = fileNumber * 0x9E3779B97F4A7C15L + offset;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h;
  }
}
