package dev.strata.sstable.cache;

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
  /**
   * A well-mixed hash, for choosing a shard and a ghost slot: SplitMix64's finalizer over the file
   * number and offset. Every output bit depends on every input bit, so blocks of one file (offsets a
   * few KiB apart) spread over all shards.
   */
  public long mixedHash() {
    return mixedHash(fileNumber, offset);
  }

  /** {@link #mixedHash()} of the key (fileNumber, offset), for lookups that make no key. */
  public static long mixedHash(long fileNumber, long offset) {
    long h = fileNumber * 0x9E3779B97F4A7C15L + offset;
    h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
    h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
    return h ^ (h >>> 31);
  }
}
