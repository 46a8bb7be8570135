package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.testing.Seeded;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class LruBlockCacheTest {

  /** A block of a given weight. */
  private record Blob(int sizeBytes) implements CachedBlock {}

  private static BlockCacheKey key(long offset) {
    return new BlockCacheKey(1, offset);
  }

  private static Blob get(BlockCache cache, long offset, BlockKind kind, int bytes) throws IOException {
    return cache.getOrLoad(key(offset), kind, () -> new Blob(bytes));
  }

  private static boolean cached(BlockCache cache, long offset, BlockKind kind) throws IOException {
    boolean[] loaded = {false};
    cache.getOrLoad(key(offset), kind, () -> {
      loaded[0] = true;
      return new Blob(1);
    });
    return !loaded[0];
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      throw new java.io.InterruptedIOException();
    }
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      latch.await();
    } catch (InterruptedException e) {
      throw new java.io.InterruptedIOException();
    }
  }

  @Test
  void getOrLoad_secondCallHitsWithSameBlock() throws IOException {
    LruBlockCache cache = new LruBlockCache(1000, 1);
    Blob a = get(cache, 0, BlockKind.DATA, 100);
    assertSame(a, get(cache, 0, BlockKind.DATA, 100));
    CacheStats s = cache.stats();
    assertEquals(new CacheStats.Counts(1, 1, 0), s.data());
    assertEquals(new CacheStats.Counts(0, 0, 0), s.index());
    assertEquals(100, s.bytesHeld());
    assertEquals(1, s.blocksHeld());
  }

  @Test
  void eviction_leastRecentlyUsedGoesFirst() throws IOException {
    LruBlockCache cache = new LruBlockCache(300, 1);
    get(cache, 0, BlockKind.DATA, 100);
    get(cache, 1, BlockKind.DATA, 100);
    get(cache, 2, BlockKind.DATA, 100);
    get(cache, 0, BlockKind.DATA, 100); // touch 0: 1 is now the eldest
    get(cache, 3, BlockKind.DATA, 100);
    assertTrue(cached(cache, 0, BlockKind.DATA));
    assertTrue(cached(cache, 2, BlockKind.DATA));
    assertTrue(cached(cache, 3, BlockKind.DATA));
    assertEquals(1, cache.stats().data().evictions());
    assertTrue(!cached(cache, 1, BlockKind.DATA));
  }

  @Test
  void protectedShare_dataStreamCannotFlushIndexAndFilterBelowTheirShare() throws IOException {
    LruBlockCache cache = new LruBlockCache(1000, 1);
    for (int i = 0; i < 4; i++) {
      get(cache, 100 + i, BlockKind.FILTER, 100);
      get(cache, 200 + i, BlockKind.INDEX, 100);
    }
    for (int i = 0; i < 1000; i++) {
      get(cache, 10_000 + i, BlockKind.DATA, 100);
    }
    // 800 protected bytes, share 500: data evicted protected blocks down to the share, then only data.
    CacheStats s = cache.stats();
    assertTrue(s.bytesHeld() <= 1000);
    long protectedHeld = 0;
    for (int i = 0; i < 4; i++) {
      protectedHeld += cached(cache, 100 + i, BlockKind.FILTER) ? 100 : 0;
      protectedHeld += cached(cache, 200 + i, BlockKind.INDEX) ? 100 : 0;
    }
    assertTrue(protectedHeld >= 400 && protectedHeld <= 500, "protected bytes held: " + protectedHeld);
    assertTrue(cache.checkInvariants());
  }

  @Test
  void protectedBlocks_mayUseTheWholeCacheWithoutData() throws IOException {
    LruBlockCache cache = new LruBlockCache(1000, 1);
    for (int i = 0; i < 10; i++) {
      get(cache, i, BlockKind.FILTER, 100);
    }
    assertEquals(1000, cache.stats().bytesHeld());
    assertEquals(0, cache.stats().filter().evictions());
  }

  @Test
  void capacityZero_runsTheLoaderEveryTime() throws IOException {
    LruBlockCache cache = new LruBlockCache(0, 4);
    AtomicInteger loads = new AtomicInteger();
    for (int i = 0; i < 5; i++) {
      cache.getOrLoad(key(7), BlockKind.INDEX, () -> {
        loads.incrementAndGet();
        return new Blob(10);
      });
    }
    assertEquals(5, loads.get());
    assertEquals(new CacheStats.Counts(0, 5, 0), cache.stats().index());
    assertEquals(0, cache.stats().bytesHeld());
  }

  @Test
  void blockLargerThanItsShard_isReturnedButNotCached() throws IOException {
    LruBlockCache cache = new LruBlockCache(1000, 2);
    get(cache, 0, BlockKind.DATA, 600);
    assertEquals(0, cache.stats().bytesHeld());
    assertTrue(!cached(cache, 0, BlockKind.DATA));
  }

  @Test
  void failedLoad_propagatesAndCachesNothing() throws IOException {
    LruBlockCache cache = new LruBlockCache(1000, 1);
    assertThrows(IOException.class, () -> cache.getOrLoad(key(1), BlockKind.DATA, () -> {
      throw new IOException("disk");
    }));
    assertEquals(0, cache.stats().blocksHeld());
    assertTrue(!cached(cache, 1, BlockKind.DATA));
  }

  @Test
  void constructor_rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> new LruBlockCache(-1, 1));
    assertThrows(IllegalArgumentException.class, () -> new LruBlockCache(10, 0));
    assertThrows(IllegalArgumentException.class, () -> new LruBlockCache(10, LruBlockCache.MAX_SHARDS + 1));
  }

  @Test
  void randomLoads_neverExceedCapacity_andCountersAddUp() {
    Seeded.run("cache byte bound", 20, random -> {
      long capacity = 1 + random.nextInt(50_000);
      int shards = 1 + random.nextInt(8);
      LruBlockCache cache = new LruBlockCache(capacity, shards);
      long calls = 0;
      for (int i = 0; i < 5000; i++) {
        BlockKind kind = BlockKind.values()[random.nextInt(3)];
        long offset = random.nextInt(300) * 3L + kind.ordinal(); // one kind per key
        get(cache, offset, kind, 1 + random.nextInt(3000));
        calls++;
        assertTrue(cache.stats().bytesHeld() <= capacity);
      }
      assertTrue(cache.checkInvariants());
      CacheStats s = cache.stats();
      long hits = 0;
      long misses = 0;
      long evictions = 0;
      for (BlockKind k : BlockKind.values()) {
        hits += s.of(k).hits();
        misses += s.of(k).misses();
        evictions += s.of(k).evictions();
      }
      assertEquals(calls, hits + misses);
      // Every miss either is held now, was evicted, or was too large for its shard.
      assertTrue(misses >= s.blocksHeld() + evictions);
    });
  }

  @Test
  void concurrentMisses_onOneBlock_loadOnce() throws Exception {
    int threads = 32;
    LruBlockCache cache = new LruBlockCache(1 << 20, 4);
    AtomicInteger loads = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch loading = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "cache-test"));
    try {
      List<Future<CachedBlock>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        results.add(pool.submit(() -> {
          start.await();
          return cache.getOrLoad(key(42), BlockKind.FILTER, () -> {
            loads.incrementAndGet();
            loading.countDown();
            sleep(200); // keep the load in flight while the others arrive
            return new Blob(64);
          });
        }));
      }
      start.countDown();
      CachedBlock first = results.get(0).get(10, TimeUnit.SECONDS);
      for (Future<CachedBlock> f : results) {
        assertSame(first, f.get(10, TimeUnit.SECONDS));
      }
      assertEquals(1, loads.get());
      assertEquals(new CacheStats.Counts(threads - 1, 1, 0), cache.stats().filter());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void concurrentMisses_afterAFailedLoad_retryWithTheirOwnLoader() throws Exception {
    LruBlockCache cache = new LruBlockCache(1 << 20, 1);
    CountDownLatch inLoad = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "cache-test"));
    try {
      Future<CachedBlock> failing = pool.submit(() -> cache.getOrLoad(key(5), BlockKind.DATA, () -> {
        inLoad.countDown();
        await(release);
        throw new IOException("bad block");
      }));
      inLoad.await();
      Future<CachedBlock> waiting = pool.submit(() -> cache.getOrLoad(key(5), BlockKind.DATA, () -> new Blob(8)));
      Thread.sleep(50);
      release.countDown();
      assertThrows(java.util.concurrent.ExecutionException.class, () -> failing.get(10, TimeUnit.SECONDS));
      assertEquals(8, waiting.get(10, TimeUnit.SECONDS).sizeBytes());
      assertEquals(2, cache.stats().data().misses());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void manyThreads_randomKeys_stayWithinCapacity() throws Exception {
    LruBlockCache cache = new LruBlockCache(20_000, 4);
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "cache-test"));
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = t;
        fs.add(pool.submit(() -> {
          java.util.Random r = new java.util.Random(seed);
          for (int i = 0; i < 20_000; i++) {
            BlockKind kind = BlockKind.values()[r.nextInt(3)];
            get(cache, r.nextInt(500) * 3L + kind.ordinal(), kind, 1 + r.nextInt(2000));
            assertTrue(cache.stats().bytesHeld() <= 20_000);
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get(60, TimeUnit.SECONDS);
      }
      assertTrue(cache.checkInvariants());
      CacheStats s = cache.stats();
      long calls = 0;
      for (BlockKind k : BlockKind.values()) {
        calls += s.of(k).hits() + s.of(k).misses();
      }
      assertEquals(threads * 20_000L, calls);
    } finally {
      pool.shutdownNow();
    }
  }
}
