package dev.strata.sstable.cache;

import static dev.strata.sstable.cache.Blob.cached;
import static dev.strata.sstable.cache.Blob.charge;
import static dev.strata.sstable.cache.Blob.get;
import static dev.strata.sstable.cache.Blob.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.testing.Seeded;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The cache's promises over random workloads: the byte bound with each entry's overhead, the
 * metadata floor, no self-eviction, scan resistance and single-flight loads.
 */
final class BlockCacheProperties {

  private static BlockKind randomKind(Random random) {
    return BlockKind.values()[random.nextInt(BlockKind.values().length)];
  }

  @Test
  void randomLoadsAndHits_stayWithinCapacityIncludingOverhead_andNeverEvictTheNewBlock() {
    Seeded.run("cache byte bound", 20, random -> {
      long capacity = random.nextInt(60_000);
      int shards = 1 + random.nextInt(8);
      double share = random.nextDouble();
      ClockBlockCache cache = new ClockBlockCache(capacity, shards, share);
      long shard = capacity / shards; // the smallest shard
      long entries = shard - shard / 256 - 64; // less the most its ghost can cost
      int keys = 50 + random.nextInt(500);
      long calls = 0;
      for (int i = 0; i < 4000; i++) {
        int k = random.nextInt(keys);
        BlockKind kind = BlockKind.values()[k % 3]; // one kind per key
        int bytes = 1 + random.nextInt(3000);
        get(cache, k, kind, bytes);
        calls++;
        CacheStats s = cache.stats();
        assertTrue(s.bytesHeld() <= capacity, s.bytesHeld() + " > " + capacity);
        assertTrue(s.bytesHeld() >= s.blocksHeld() * (long) ClockBlockCache.ENTRY_BYTES);
        // Metadata fits in what the ghost leaves; data beside a full metadata floor.
        long room = kind.isProtected() ? entries : (long) (entries * (1 - share)) - 1;
        if (charge(bytes) <= room) {
          assertTrue(cached(cache, k, kind), "block " + k + " of " + charge(bytes) + " evicted on insertion");
          calls++;
        }
      }
      cache.checkInvariants();
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
      assertTrue(misses >= s.blocksHeld() + evictions);
    });
  }

  @Test
  void metadataWithinItsShare_survivesAnyDataWorkload() {
    Seeded.run("metadata floor", 20, random -> {
      int block = 50 + random.nextInt(500);
      long capacity = charge(block) * (20 + random.nextInt(100));
      double share = 0.2 + 0.6 * random.nextDouble();
      ClockBlockCache cache = new ClockBlockCache(capacity, 1, share);
      // The share of what entries may use: the ghost takes at most capacity / 512 plus headers.
      int metadata = (int) (((long) (capacity * share) - capacity / 256 - 64) / charge(block));
      for (int i = 0; i < metadata; i++) {
        get(cache, i, i % 2 == 0 ? BlockKind.FILTER : BlockKind.INDEX, block);
      }
      // Data blocks of any size up to the whole cache, hot and cold, hit and missed.
      for (int i = 0; i < 3000; i++) {
        long offset = 1_000_000 + (random.nextBoolean() ? random.nextInt(50) : i);
        get(cache, offset, BlockKind.DATA, 1 + random.nextInt((int) capacity));
      }
      for (int i = 0; i < metadata; i++) {
        assertTrue(cached(cache, i, i % 2 == 0 ? BlockKind.FILTER : BlockKind.INDEX), "metadata " + i);
      }
      cache.checkInvariants();
    });
  }

  @Test
  void aScanOfOneShotBlocks_leavesAWorkingSetThatWasUsedTwice() {
    Seeded.run("scan resistance", 20, random -> {
      int block = 50 + random.nextInt(500);
      int fits = 20 + random.nextInt(100);
      ClockBlockCache cache = new ClockBlockCache(charge(block) * fits, 1);
      // A working set of data and metadata that leaves room for probation and one more block.
      int hot = (int) (fits * (1 - ClockBlockCache.PROBATION_SHARE)) - 2;
      for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < hot; i++) {
          get(cache, i, i % 3 == 0 ? BlockKind.FILTER : BlockKind.DATA, block);
        }
      }
      int scan = fits * (2 + random.nextInt(10));
      for (int i = 0; i < scan; i++) {
        get(cache, 1_000_000 + i, BlockKind.DATA, 1 + random.nextInt(block));
      }
      for (int i = 0; i < hot; i++) {
        assertTrue(cached(cache, i, i % 3 == 0 ? BlockKind.FILTER : BlockKind.DATA), "hot block " + i);
      }
      cache.checkInvariants();
    });
  }

  @Test
  void randomPinsAndUnpins_neverEvictAPinnedBlock_andChargeEveryOne() {
    Seeded.run("pins", 20, random -> {
      long capacity = 1 + random.nextInt(60_000);
      ClockBlockCache cache = new ClockBlockCache(capacity, 1 + random.nextInt(4), random.nextDouble());
      int keys = 20 + random.nextInt(200);
      int[] pins = new int[keys];
      long[] charges = new long[keys]; // a key's charge once it is first pinned
      for (int i = 0; i < 3000; i++) {
        int k = random.nextInt(keys);
        BlockKind kind = BlockKind.values()[k % 3];
        int bytes = 1 + random.nextInt(3000);
        int op = random.nextInt(10);
        if (op < 2) {
          CachedBlock b = cache.getOrLoadPinned(key(k), kind, () -> new Blob(bytes));
          if (pins[k]++ == 0) {
            charges[k] = charge(b.sizeBytes());
          }
        } else if (op < 4 && pins[k] > 0) {
          cache.unpin(key(k));
          pins[k]--;
        } else {
          get(cache, k, kind, bytes);
        }
        long pinnedBytes = 0;
        for (int p = 0; p < keys; p++) {
          if (pins[p] > 0) {
            int key = p;
            cache.getOrLoad(key(p), BlockKind.values()[p % 3], () -> {
              throw new AssertionError("pinned block " + key + " was evicted");
            });
            pinnedBytes += charges[p];
          }
        }
        CacheStats s = cache.stats();
        assertEquals(pinnedBytes, s.pinnedBytesHeld());
        assertTrue(s.bytesHeld() - s.pinnedBytesHeld() <= capacity, s.toString());
      }
      cache.checkInvariants();
      for (int p = 0; p < keys; p++) {
        for (; pins[p] > 0; pins[p]--) {
          cache.unpin(key(p));
        }
      }
      cache.checkInvariants();
      assertEquals(0, cache.stats().pinnedBytesHeld());
      assertTrue(cache.stats().bytesHeld() <= capacity);
    });
  }

  @Test
  void concurrentPinsAndLoads_keepThePinnedBlocks() throws Exception {
    ClockBlockCache cache = new ClockBlockCache(20_000, 2);
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "cache-test"));
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = new Random().nextLong();
        int thread = t;
        fs.add(pool.submit(() -> {
          Random r = new Random(seed);
          for (int i = 0; i < 5000; i++) {
            // Each thread pins and unpins keys of its own, and reads everyone's.
            long mine = 10_000L * (thread + 1) + r.nextInt(20);
            cache.getOrLoadPinned(key(mine), BlockKind.FILTER, () -> new Blob(50 + r.nextInt(200)));
            long any = r.nextInt(400);
            cache.getOrLoad(key(any), BlockKind.values()[(int) (any % 3)], () -> new Blob(1 + r.nextInt(2000)));
            cache.unpin(key(mine));
          }
          cache.getOrLoadPinned(key(-1 - thread), BlockKind.INDEX, () -> new Blob(100));
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get(60, TimeUnit.SECONDS);
      }
      cache.checkInvariants();
      assertEquals(threads * charge(100), cache.stats().pinnedBytesHeld());
      for (int t = 0; t < threads; t++) {
        int thread = t;
        cache.getOrLoad(key(-1 - t), BlockKind.INDEX, () -> {
          throw new AssertionError("pinned block of thread " + thread + " evicted");
        });
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void concurrentMisses_loadEachBlockOnce_andShareTheLoadersFailure() {
    Seeded.run("single flight", 5, random -> {
      int threads = 2 + random.nextInt(8);
      int keys = 1 + random.nextInt(20);
      ClockBlockCache cache = new ClockBlockCache(1 << 24, 1 + random.nextInt(4));
      ConcurrentHashMap<Long, AtomicInteger> loads = new ConcurrentHashMap<>();
      // Keys below failing throw on their first load: the callers waiting on it see that failure.
      int failing = random.nextInt(keys + 1);
      IOException failure = new IOException("first load fails");
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "cache-test"));
      try {
        List<Future<List<CachedBlock>>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          long seed = random.nextLong();
          results.add(pool.submit(() -> {
            Random r = new Random(seed);
            start.await();
            List<CachedBlock> got = new ArrayList<>();
            for (int i = 0; i < keys * 3; i++) {
              long k = r.nextInt(keys);
              try {
                got.add(cache.getOrLoad(key(k), BlockKind.DATA, () -> {
                  int n = loads.computeIfAbsent(k, x -> new AtomicInteger()).incrementAndGet();
                  Blob.sleep(1 + r.nextInt(5));
                  if (k < failing && n == 1) {
                    throw failure;
                  }
                  return new Blob(64);
                }));
              } catch (IOException e) {
                assertSame(failure, e);
              }
            }
            return got;
          }));
        }
        start.countDown();
        for (Future<List<CachedBlock>> f : results) {
          f.get(30, TimeUnit.SECONDS);
        }
        // Nothing is evicted: once more for every key, and then a key has loaded once, or twice when
        // a thread's first load of it failed.
        for (long k = 0; k < keys; k++) {
          long key = k;
          boolean failedBefore = k < failing && loads.containsKey(k);
          Blob b = cache.getOrLoad(key(k), BlockKind.DATA, () -> {
            loads.computeIfAbsent(key, x -> new AtomicInteger()).incrementAndGet();
            return new Blob(64);
          });
          assertEquals(64, b.sizeBytes());
          assertEquals(failedBefore ? 2 : 1, loads.get(k).get(), "loads of key " + k);
        }
        cache.checkInvariants();
      } catch (ExecutionException e) {
        throw new AssertionError(e.getCause());
      } finally {
        pool.shutdownNow();
      }
    });
  }

  @Test
  void manyThreads_randomBlocks_stayWithinCapacity() throws Exception {
    ClockBlockCache cache = new ClockBlockCache(40_000, 4);
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> new Thread(r, "cache-test"));
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = new Random().nextLong();
        fs.add(pool.submit(() -> {
          Random r = new Random(seed);
          for (int i = 0; i < 20_000; i++) {
            BlockKind kind = randomKind(r);
            get(cache, r.nextInt(500) * 3L + kind.ordinal(), kind, 1 + r.nextInt(2000));
            long held = cache.stats().bytesHeld();
            assertTrue(held <= 40_000, "seed " + seed + ": " + held);
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get(60, TimeUnit.SECONDS);
      }
      cache.checkInvariants();
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
