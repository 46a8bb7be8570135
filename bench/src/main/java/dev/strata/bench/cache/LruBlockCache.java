package dev.strata.bench.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CacheStats;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.CacheCounters;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The block cache Strata shipped before {@code ClockBlockCache}, kept as a baseline for the hit-rate
 * harness ({@link CacheSimCommand}): a byte-bounded LRU, sharded, with a protected share for index and
 * filter blocks that works as a ceiling. It charges payload bytes only, and a hit takes its shard's
 * lock to reorder a LinkedHashMap; both are what the harness and the JMH compare against.
 *
 * <p>Thread-safe.
 */
public final class LruBlockCache implements BlockCache {
  /*
   * Design.
   *
   * Sharding. A key (file number, offset) is hashed to one of N shards; each shard owns capacity/N
   * bytes (the remainder spread over the first shards, so the shards sum to the capacity exactly) and
   * one lock. Everything a call does to a shard happens under that lock: lookup, access-order update,
   * insert and eviction. There is no eviction thread: put evicts until the shard fits, so the bytes
   * held never exceed the capacity, and a block larger than its shard is returned but not cached [1].
   *
   * Two segments. A shard keeps two access-ordered LinkedHashMaps: one for data blocks and one, the
   * protected segment, for index blocks and filter chunks. Eviction takes the least recently used
   * block of the protected segment only while that segment holds more than PROTECTED_SHARE of the
   * shard (or when there are no data blocks left); otherwise it takes the least recently used data
   * block. So a scan streaming data blocks through the cache can shrink index and filter blocks to
   * their share but never below it, while either kind may use the whole cache when the other is
   * absent. This is RocksDB's high-priority pool for index and filter blocks [2]; HBase's
   * LruBlockCache gives them no priority of their own [3].
   *
   * Single flight. A miss registers a future in the shard's in-flight map before it loads (outside
   * the lock); concurrent misses on the same key find the future and wait for it instead of loading
   * again [4]. A failed load completes the future with null, and the waiters retry with their own
   * loaders, so each caller sees its own exception and nothing failed is cached.
   *
   * Counters are a CacheCounters, read into an immutable CacheStats.
   *
   * [1] HBase LruBlockCache: byte-sized capacity, blocks over the maximum size are not cached.
   * [2] RocksDB LRUCache, high_pri_pool_ratio and cache_index_and_filter_blocks_with_high_priority.
   * [3] HBase LruBlockCache: single/multi/in-memory priorities by access count, not by block type.
   * [4] Caffeine's computeIfAbsent: one load per key, concurrent callers wait for it.
   */

  /** The share of each shard's capacity that index and filter blocks keep against data blocks. */
  public static final double PROTECTED_SHARE = 0.5;

  /** The shard count {@link #LruBlockCache(long)} uses. */
  public static final int DEFAULT_SHARDS = 16;

  /** The most shards a cache may have. */
  public static final int MAX_SHARDS = 1024;

  private final long capacity;
  private final Shard[] shards;
  private final CacheCounters counters = new CacheCounters();

  /** A cache of {@code capacityBytes} in {@link #DEFAULT_SHARDS} shards. */
  public LruBlockCache(long capacityBytes) {
    this(capacityBytes, DEFAULT_SHARDS);
  }

  /**
   * A cache of {@code capacityBytes} (0 disables caching: every call runs its loader) in {@code
   * shardCount} shards of equal capacity.
   */
  public LruBlockCache(long capacityBytes, int shardCount) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("capacityBytes must be >= 0: " + capacityBytes);
    }
    if (shardCount < 1 || shardCount > MAX_SHARDS) {
      throw new IllegalArgumentException("shardCount must be in [1, " + MAX_SHARDS + "]: " + shardCount);
    }
    this.capacity = capacityBytes;
    this.shards = new Shard[shardCount];
    for (int i = 0; i < shardCount; i++) {
      long share = capacityBytes / shardCount + (i < capacityBytes % shardCount ? 1 : 0);
      shards[i] = new Shard(share);
    }
  }

  @Override
  public long capacityBytes() {
    return capacity;
  }

  @Override
  public <T extends CachedBlock> T getOrLoad(BlockCacheKey key, BlockKind kind, Loader<T> loader)
      throws IOException {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(kind, "kind");
    if (capacity == 0) {
      counters.miss(kind);
      return Objects.requireNonNull(loader.load(), "loader returned null");
    }
    Shard shard = shards[(int) (((key.mixedHash() >>> 32) * shards.length) >>> 32)];
    while (true) {
      CompletableFuture<CachedBlock> pending;
      CompletableFuture<CachedBlock> mine = null;
      shard.lock.lock();
      try {
        CachedBlock hit = shard.get(key, kind);
        if (hit != null) {
          counters.hit(kind);
          return cast(hit);
        }
        pending = shard.inFlight.get(key);
        if (pending == null) {
          mine = new CompletableFuture<>();
          shard.inFlight.put(key, mine);
        }
      } finally {
        shard.lock.unlock();
      }
      if (mine == null) {
        CachedBlock shared = pending.join();
        if (shared != null) {
          counters.hit(kind);
          return cast(shared);
        }
        continue; // that load failed: try our own
      }
      counters.miss(kind);
      T loaded = null;
      try {
        loaded = Objects.requireNonNull(loader.load(), "loader returned null");
      } finally {
        shard.lock.lock();
        try {
          shard.inFlight.remove(key);
          if (loaded != null) {
            shard.put(key, kind, loaded);
          }
        } finally {
          shard.lock.unlock();
        }
        mine.complete(loaded);
      }
      return loaded;
    }
  }

  @Override
  public CacheStats stats() {
    long bytes = 0;
    long blocks = 0;
    long metadata = 0;
    for (Shard s : shards) {
      s.lock.lock();
      try {
        bytes += s.dataBytes + s.protectedBytes;
        metadata += s.protectedBytes;
        blocks += s.data.size() + s.protectedBlocks.size();
      } finally {
        s.lock.unlock();
      }
    }
    return counters.snapshot(capacity, bytes, blocks, metadata);
  }

  @SuppressWarnings("unchecked") // a key always names blocks of one kind: its loaders return one type
  private static <T extends CachedBlock> T cast(CachedBlock b) {
    return (T) b;
  }

  /** A cached block and its weight. */
  private record Entry(CachedBlock block, BlockKind kind, int bytes) {}

  /** One lock's worth of the cache. */
  private final class Shard {
    final ReentrantLock lock = new ReentrantLock();
    final long capacity;
    final long protectedCapacity;

    @GuardedBy("lock")
    final LinkedHashMap<BlockCacheKey, Entry> data = new LinkedHashMap<>(16, 0.75f, true);

    @GuardedBy("lock")
    final LinkedHashMap<BlockCacheKey, Entry> protectedBlocks = new LinkedHashMap<>(16, 0.75f, true);

    @GuardedBy("lock")
    final Map<BlockCacheKey, CompletableFuture<CachedBlock>> inFlight = new HashMap<>();

    @GuardedBy("lock")
    long dataBytes;

    @GuardedBy("lock")
    long protectedBytes;

    Shard(long capacity) {
      this.capacity = capacity;
      this.protectedCapacity = (long) (capacity * PROTECTED_SHARE);
    }

    CachedBlock get(BlockCacheKey key, BlockKind kind) {
      assert lock.isHeldByCurrentThread();
      Entry e = (kind.isProtected() ? protectedBlocks : data).get(key);
      return e == null ? null : e.block;
    }

    void put(BlockCacheKey key, BlockKind kind, CachedBlock block) {
      assert lock.isHeldByCurrentThread();
      int bytes = block.sizeBytes();
      if (bytes > capacity) {
        return; // would have to evict itself
      }
      Entry old = (kind.isProtected() ? protectedBlocks : data).put(key, new Entry(block, kind, bytes));
      assert old == null : "loaded a cached block: " + key;
      if (kind.isProtected()) {
        protectedBytes += bytes;
      } else {
        dataBytes += bytes;
      }
      while (dataBytes + protectedBytes > capacity) {
        boolean fromProtected = protectedBytes > protectedCapacity || data.isEmpty();
        Iterator<Entry> it = (fromProtected ? protectedBlocks : data).values().iterator();
        Entry victim = it.next();
        it.remove();
        if (fromProtected) {
          protectedBytes -= victim.bytes;
        } else {
          dataBytes -= victim.bytes;
        }
        counters.evicted(victim.kind);
      }
    }
  }
}
