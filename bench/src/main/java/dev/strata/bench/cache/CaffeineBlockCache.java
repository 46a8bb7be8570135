package dev.strata.bench.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CacheStats;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.CacheCounters;
import dev.strata.sstable.cache.ClockBlockCache;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Executor;

/**
 * Caffeine (W-TinyLFU, buffered reordering) behind Strata's {@link BlockCache}: the outside baseline
 * for hit rate and hit throughput. It weighs an entry as {@code ClockBlockCache} charges it (block
 * heap bytes plus {@link ClockBlockCache#ENTRY_BYTES}), so both hold the same bytes; it has no
 * priority for metadata, which is what the comparison shows. Each value carries its block's kind,
 * so that an eviction is counted against it.
 *
 * <p>Thread-safe.
 */
public final class CaffeineBlockCache implements BlockCache {
  private final long capacity;
  private final Cache<BlockCacheKey, Held> cache;
  private final CacheCounters counters = new CacheCounters();

  /**
   * A cache of {@code capacityBytes}; {@code executor} runs Caffeine's maintenance ({@code
   * Runnable::run} makes a single-threaded replay deterministic).
   */
  public CaffeineBlockCache(long capacityBytes, Executor executor) {
    this.capacity = capacityBytes;
    this.cache = Caffeine.newBuilder()
        .maximumWeight(capacityBytes)
        .weigher((BlockCacheKey k, Held h) -> h.block().sizeBytes() + ClockBlockCache.ENTRY_BYTES)
        .evictionListener((BlockCacheKey k, Held h, RemovalCause cause) -> {
          if (cause.wasEvicted()) {
            counters.evicted(h.kind());
          }
        })
        .executor(executor)
        .build();
  }

  @Override
  public <T extends CachedBlock> T getOrLoad(BlockCacheKey key, BlockKind kind, Loader<T> loader)
      throws IOException {
    if (capacity == 0) { // holds nothing: Caffeine would admit each block and evict it at once
      counters.miss(kind);
      return loader.load();
    }
    Held present = cache.getIfPresent(key); // the hit path allocates nothing
    if (present != null) {
      counters.hit(kind);
      @SuppressWarnings("unchecked") // a key always names blocks of one kind
      T t = (T) present.block();
      return t;
    }
    boolean[] ran = {false};
    try {
      Held held = cache.get(key, k -> {
        ran[0] = true;
        try {
          return new Held(loader.load(), kind);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      if (ran[0]) {
        counters.miss(kind);
      } else {
        counters.hit(kind);
      }
      @SuppressWarnings("unchecked") // a key always names blocks of one kind
      T t = (T) held.block();
      return t;
    } catch (UncheckedIOException e) {
      counters.miss(kind);
      throw e.getCause();
    }
  }

  @Override
  public CacheStats stats() {
    long bytes = cache.policy().eviction().orElseThrow().weightedSize().orElse(0);
    return counters.snapshot(capacity, bytes, cache.estimatedSize(), 0);
  }

  @Override
  public long capacityBytes() {
    return capacity;
  }

  /** A cached block and its kind. */
  private record Held(CachedBlock block, BlockKind kind) {}
}
