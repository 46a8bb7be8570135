package dev.strata.sstable.cache;

import java.util.concurrent.atomic.LongAdder;

/**
 * A block cache's hit, miss and eviction counters per {@link BlockKind}, and the {@link CacheStats}
 * snapshot built from them. Public so that other {@code BlockCache} implementations (the baselines in
 * {@code bench}) count the same way.
 *
 * <p>Thread-safe: LongAdders, contended by nothing on the hit path but their own cells.
 */
public final class CacheCounters {
  private final LongAdder[] hits = adders();
  private final LongAdder[] misses = adders();
  private final LongAdder[] evictions = adders();

  /** Counts a call served without running its loader. */
  public void hit(BlockKind kind) {
    hits[kind.ordinal()].increment();
  }

  /** Counts {@code count} calls served without running their loaders. */
  public void hits(BlockKind kind, int count) {
    hits[kind.ordinal()].add(count);
  }

  /** Counts a call that ran its loader. */
  public void miss(BlockKind kind) {
    misses[kind.ordinal()].increment();
  }

  /** Counts a block dropped to make room. */
  public void evicted(BlockKind kind) {
    evictions[kind.ordinal()].increment();
  }

  /** A snapshot of the counters with what a cache that pins nothing holds now. */
  public CacheStats snapshot(long capacityBytes, long bytesHeld, long blocksHeld, long metadataBytesHeld) {
    return snapshot(capacityBytes, bytesHeld, blocksHeld, metadataBytesHeld, 0);
  }

  /** A snapshot of the counters with what the cache holds now, {@code pinnedBytesHeld} of it pinned. */
  public CacheStats snapshot(long capacityBytes, long bytesHeld, long blocksHeld, long metadataBytesHeld,
      long pinnedBytesHeld) {
    return new CacheStats(capacityBytes, bytesHeld, blocksHeld, metadataBytesHeld, pinnedBytesHeld,
        counts(BlockKind.DATA), counts(BlockKind.INDEX), counts(BlockKind.FILTER));
  }

  private CacheStats.Counts counts(BlockKind kind) {
    int k = kind.ordinal();
    return new CacheStats.Counts(hits[k].sum(), misses[k].sum(), evictions[k].sum());
  }

  private static LongAdder[] adders() {
    LongAdder[] a = new LongAdder[BlockKind.values().length];
    for (int i = 0; i < a.length; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }
}
