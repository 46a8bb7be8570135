package dev.strata.sstable.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link BlockCache} promises, whatever its policy: a key holds its first block; a miss
 * runs its loader once, also when many callers miss together, and a failed load caches nothing and
 * reaches its callers; the counters count each call once as a hit or a miss, per kind; the bytes
 * held never exceed the capacity, a block larger than the whole cache is returned but not held, and
 * a cache of capacity 0 holds nothing. One subclass per implementation (in this module and in
 * {@code bench}) says how to build one; implementation-specific behaviour (priorities, pins,
 * entries, off-heap data) is tested next to each.
 */
public abstract class AbstractBlockCacheContractTest {
  private final List<BlockCache> made = new ArrayList<>();

  /** A new, empty cache of {@code capacityBytes}, as the implementation's users would make it. */
  protected abstract BlockCache newCache(long capacityBytes);

  private BlockCache cache(long capacityBytes) {
    BlockCache c = newCache(capacityBytes);
    made.add(c);
    return c;
  }

  @AfterEach
  void closeCaches() {
    made.forEach(BlockCache::close);
  }

  /** A block of a given heap cost. */
  private record Sized(int sizeBytes) implements CachedBlock {}

  private static BlockCacheKey key(long offset) {
    return new BlockCacheKey(3, offset);
  }

  private static Sized get(BlockCache cache, long offset, BlockKind kind, int bytes) throws IOException {
    return cache.getOrLoad(key(offset), kind, () -> new Sized(bytes));
  }

  @Test
  public void getOrLoad_missLoads_thenHitsWithTheSameBlock_countedForItsKindOnly() throws IOException {
    BlockCache cache = cache(1 << 20);
    Sized a = get(cache, 0, BlockKind.INDEX, 100);
    assertSame(a, cache.getOrLoad(key(0), BlockKind.INDEX, () -> new Sized(100)), "a key holds its first block");
    assertSame(a, get(cache, 0, BlockKind.INDEX, 100));
    CacheStats s = cache.stats();
    assertEquals(new CacheStats.Counts(2, 1, 0), s.index());
    assertEquals(new CacheStats.Counts(0, 0, 0), s.data());
    assertEquals(new CacheStats.Counts(0, 0, 0), s.filter());
    assertEquals(1 << 20, s.capacityBytes());
    assertEquals(1, s.blocksHeld());
    assertTrue(s.bytesHeld() >= 100, "charged at least the block's heap cost: " + s);
  }

  @Test
  public void eachKind_countsItsOwnHitsAndMisses() throws IOException {
    BlockCache cache = cache(1 << 20);
    get(cache, 1, BlockKind.DATA, 10);
    get(cache, 2, BlockKind.FILTER, 10);
    get(cache, 2, BlockKind.FILTER, 10);
    get(cache, 3, BlockKind.INDEX, 10);
    get(cache, 3, BlockKind.INDEX, 10);
    get(cache, 3, BlockKind.INDEX, 10);
    CacheStats s = cache.stats();
    assertEquals(new CacheStats.Counts(0, 1, 0), s.data());
    assertEquals(new CacheStats.Counts(1, 1, 0), s.filter());
    assertEquals(new CacheStats.Counts(2, 1, 0), s.index());
  }

  @Test
  public void bytesHeld_neverExceedTheCapacity_andEachEvictionIsCounted() throws IOException {
    long capacity = 64 << 10;
    BlockCache cache = cache(capacity);
    for (long off = 0; off < 1_000; off++) {
      get(cache, off, off % 3 == 0 ? BlockKind.FILTER : BlockKind.DATA, 500);
      CacheStats s = cache.stats();
      assertTrue(s.bytesHeld() <= capacity, "after " + off + ": " + s);
    }
    CacheStats s = cache.stats();
    long evicted = s.data().evictions() + s.filter().evictions() + s.index().evictions();
    long loaded = s.data().misses() + s.filter().misses() + s.index().misses();
    assertEquals(1_000, loaded);
    assertEquals(loaded - s.blocksHeld(), evicted, "every block loaded is held or was evicted: " + s);
    assertTrue(s.blocksHeld() > 0, "a cache of 64 KiB holds some 500-byte blocks: " + s);
  }

  @Test
  public void blockLargerThanTheCache_isReturnedButNotHeld() throws IOException {
    BlockCache cache = cache(4_000);
    get(cache, 0, BlockKind.DATA, 100);
    Sized big = get(cache, 1, BlockKind.DATA, 10_000);
    assertEquals(10_000, big.sizeBytes());
    assertTrue(cache.stats().bytesHeld() <= 4_000, cache.stats().toString());
    AtomicInteger loads = new AtomicInteger();
    cache.getOrLoad(key(1), BlockKind.DATA, () -> {
      loads.incrementAndGet();
      return new Sized(10_000);
    });
    assertEquals(1, loads.get(), "not held, so loaded again");
  }

  @Test
  public void capacityZero_runsTheLoaderEveryTime_andHoldsNothing() throws IOException {
    BlockCache cache = cache(0);
    AtomicInteger loads = new AtomicInteger();
    for (int i = 0; i < 5; i++) {
      cache.getOrLoad(key(7), BlockKind.INDEX, () -> {
        loads.incrementAndGet();
        return new Sized(10);
      });
    }
    assertEquals(5, loads.get());
    assertEquals(new CacheStats.Counts(0, 5, 0), cache.stats().index());
    assertEquals(0, cache.stats().bytesHeld());
    assertEquals(0, cache.capacityBytes());
  }

  @Test
  public void getIfPresent_neverLoads_andAnswersNullOrTheHeldBlockAsAHit() throws IOException {
    BlockCache cache = cache(1 << 20);
    assertNull(cache.getIfPresent(key(0), BlockKind.FILTER));
    assertEquals(new CacheStats.Counts(0, 0, 0), cache.stats().filter(), "an absent block is no miss");
    Sized a = get(cache, 0, BlockKind.FILTER, 100);
    CachedBlock present = cache.getIfPresent(key(0), BlockKind.FILTER);
    CachedBlock byNumbers = cache.getIfPresent(3, 0, BlockKind.FILTER);
    long answered = (present == null ? 0 : 1) + (byNumbers == null ? 0 : 1);
    assertTrue(present == null || present == a, "the held block or nothing");
    assertTrue(byNumbers == null || byNumbers == a, "the held block or nothing");
    assertEquals(new CacheStats.Counts(answered, 1, 0), cache.stats().filter(), "each answer a hit");
  }

  @Test
  public void pinnedLoad_servesAsGetOrLoad_andUnpinOfAnUnpinnedKeyDoesNothing() throws IOException {
    BlockCache cache = cache(1 << 20);
    cache.unpin(key(9)); // never pinned
    Sized a = cache.getOrLoadPinned(key(9), BlockKind.INDEX, () -> new Sized(50));
    assertSame(a, get(cache, 9, BlockKind.INDEX, 50));
    cache.unpin(key(9));
    cache.unpin(key(9)); // one pin more than taken
    assertSame(a, get(cache, 9, BlockKind.INDEX, 50));
    assertEquals(new CacheStats.Counts(2, 1, 0), cache.stats().index());
  }

  @Test
  public void failedLoad_propagates_cachesNothing_andALaterCallLoadsAgain() throws IOException {
    BlockCache cache = cache(1 << 20);
    IOException e = assertThrows(IOException.class, () -> cache.getOrLoad(key(1), BlockKind.DATA, () -> {
      throw new IOException("disk");
    }));
    assertEquals("disk", e.getMessage());
    assertEquals(0, cache.stats().blocksHeld());
    Sized b = get(cache, 1, BlockKind.DATA, 20);
    assertSame(b, get(cache, 1, BlockKind.DATA, 20));
    assertEquals(new CacheStats.Counts(1, 2, 0), cache.stats().data());
  }

  @Test
  public void concurrentMisses_onOneBlock_loadOnce_andTheOthersCountHits() throws Exception {
    int threads = 16;
    BlockCache cache = cache(1 << 20);
    AtomicInteger loads = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "cache-contract"));
    try {
      List<Future<CachedBlock>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        results.add(pool.submit(() -> {
          start.await();
          return cache.getOrLoad(key(42), BlockKind.FILTER, () -> {
            loads.incrementAndGet();
            sleep(200); // keep the load in flight while the others arrive
            return new Sized(64);
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

  /**
   * A load that fails while others wait on it reaches its own caller; each waiter either sees that
   * failure or, arriving after it, loads the block itself, and once one has, the rest share it.
   */
  @Test
  public void failedLoad_reachesItsCaller_andTheWaitersFailOrLoadOnceMore() throws Exception {
    BlockCache cache = cache(1 << 20);
    CountDownLatch inLoad = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    IOException failure = new IOException("bad block");
    ExecutorService pool = Executors.newFixedThreadPool(4, r -> new Thread(r, "cache-contract"));
    try {
      Future<CachedBlock> failing = pool.submit(() -> cache.getOrLoad(key(5), BlockKind.DATA, () -> {
        inLoad.countDown();
        await(release);
        throw failure;
      }));
      inLoad.await();
      AtomicInteger waiterLoads = new AtomicInteger();
      List<Future<CachedBlock>> waiting = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        waiting.add(pool.submit(() -> cache.getOrLoad(key(5), BlockKind.DATA, () -> {
          waiterLoads.incrementAndGet();
          return new Sized(8);
        })));
      }
      Thread.sleep(100); // let the waiters reach the load in flight
      release.countDown();
      ExecutionException e = assertThrows(ExecutionException.class, () -> failing.get(10, TimeUnit.SECONDS));
      assertSame(failure, e.getCause());
      for (Future<CachedBlock> w : waiting) {
        try {
          w.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException we) {
          assertSame(failure, we.getCause());
        }
      }
      assertTrue(waiterLoads.get() <= 1, "one retry at most caches the block for the rest");
      assertEquals(1 + waiterLoads.get(), cache.stats().data().misses());
    } finally {
      pool.shutdownNow();
    }
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException();
    }
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException();
    }
  }
}
