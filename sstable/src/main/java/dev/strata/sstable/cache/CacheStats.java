package dev.strata.sstable.cache;

/**
 * A snapshot of a {@link BlockCache}'s counters. For each {@link BlockKind}: {@code hits} counts
 * {@code getOrLoad} calls served without running their loader (the block was cached, or another
 * thread's load of it was in flight); {@code misses} counts calls that ran their loader (with capacity
 * 0, every call); {@code evictions} counts blocks dropped to make room.
 *
 * @param capacityBytes the cache's capacity
 * @param bytesHeld what the blocks held now cost, their bookkeeping included
 * @param blocksHeld blocks held now
 * @param metadataBytesHeld the part of {@code bytesHeld} that index and filter blocks cost
 * @param pinnedBytesHeld the part of {@code bytesHeld} that pinned blocks cost (never evicted)
 * @param data counters of data blocks
 * @param index counters of index blocks
 * @param filter counters of filter chunks
 *
 * <p>Immutable.
 */
public record CacheStats(
    long capacityBytes,
    long bytesHeld,
    long blocksHeld,
    long metadataBytesHeld,
    long pinnedBytesHeld,
    Counts data,
    Counts index,
    Counts filter) {

  /**
   * Counters of one kind of block.
   *
   * @param hits calls served without loading
   * @param misses calls that loaded
   * @param evictions blocks evicted
   *
   * <p>Immutable.
   */
  public record Counts(long hits, long misses, long evictions) {}

  /** The counters of {@code kind}. */
  public Counts of(BlockKind kind) {
    return switch (kind) {
      case DATA -> data;
      case INDEX -> index;
      case FILTER -> filter;
    };
  }
}
