package dev.strata.engine.version;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.fs.FileNames;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.Tables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The table cache: bounded by its capacity, LRU, never closing a held reader. */
final class TableCacheTest {
  @TempDir Path dir;

  private TableCache cache;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Writes table {@code number} holding one cell: row "r{number}", value "v{number}". */
  private void writeTable(long number) throws IOException {
    InternalKey key = new InternalKey(b("r" + number), new byte[0], 1, ValueKind.PUT);
    Tables.write(
        FileNames.table(dir, number),
        TableOptions.defaults(),
        List.of(new Entry(key, b("v" + number))));
  }

  private GetResult get(TableHandle h, long number) throws IOException {
    return h.reader().get(FilterProbe.of(b("r" + number), new byte[0]), InternalKey.MAX_SEQUENCE);
  }

  @BeforeEach
  void tables() throws IOException {
    for (long n = 1; n <= 5; n++) {
      writeTable(n);
    }
    cache = new TableCache(dir, 2, new ClockBlockCache(1 << 20), new ReadCounters());
  }

  @AfterEach
  void close() {
    cache.close();
  }

  @Test
  void staysWithinCapacityClosingTheLeastRecentlyUsed() throws IOException {
    for (long n = 1; n <= 5; n++) {
      TableHandle h = cache.acquire(n);
      assertArrayEquals(b("v" + n), get(h, n).value());
      cache.release(h);
      assertTrue(cache.openReaders() <= 2, "open: " + cache.openReaders());
    }
    assertEquals(5, cache.opens());
    // 4 and 5 are open; using 4 makes 5 the least recently used, so opening 1 closes 5, not 4.
    cache.release(cache.acquire(4));
    cache.release(cache.acquire(1));
    cache.release(cache.acquire(4));
    assertEquals(6, cache.opens(), "4 stayed open");
    cache.release(cache.acquire(5));
    assertEquals(7, cache.opens(), "5 was reopened");
  }

  @Test
  void neverClosesAHeldReader() throws IOException {
    TableHandle one = cache.acquire(1);
    TableHandle two = cache.acquire(2);
    TableHandle three = cache.acquire(3); // all held: the cache goes over its capacity
    assertEquals(3, cache.openReaders());
    assertArrayEquals(b("v1"), get(one, 1).value(), "still open while held");
    cache.release(one);
    assertEquals(2, cache.openReaders(), "back within capacity once a holder lets go");
    assertArrayEquals(b("v2"), get(two, 2).value());
    cache.release(two);
    cache.release(three);
  }

  @Test
  void sharesOneReaderBetweenHolders() throws IOException {
    TableHandle a = cache.acquire(1);
    TableHandle b = cache.acquire(1);
    assertSame(a, b);
    assertEquals(1, cache.opens());
    cache.release(a);
    cache.release(b);
  }

  @Test
  void anEvictedReaderClosesAtItsLastRelease_thenRunsTheEvictionsAction() throws IOException {
    TableHandle h = cache.acquire(1);
    TableHandle other = cache.acquire(1);
    AtomicInteger actions = new AtomicInteger();
    assertEquals(TableCache.Eviction.CLOSES_WHEN_RELEASED, cache.evict(1, actions::incrementAndGet));
    assertEquals(1, cache.openReaders(), "held: still open");
    assertArrayEquals(b("v1"), get(h, 1).value());
    cache.release(h);
    assertEquals(1, cache.openReaders(), "one holder left");
    assertEquals(0, actions.get());
    cache.release(other);
    assertEquals(0, cache.openReaders());
    assertEquals(1, actions.get(), "run once, after the close");
    TableHandle again = cache.acquire(1);
    assertNotSame(h, again, "reopened");
    cache.release(again);
  }

  @Test
  void anUnheldReaderIsClosedByTheEviction_andAnUnopenedOneIsNotOpen() throws IOException {
    cache.release(cache.acquire(1));
    AtomicInteger actions = new AtomicInteger();
    assertEquals(TableCache.Eviction.CLOSED, cache.evict(1, actions::incrementAndGet));
    assertEquals(0, cache.openReaders());
    assertEquals(0, actions.get(), "closed here: the caller acts");
    assertEquals(TableCache.Eviction.NOT_OPEN, cache.evict(2, actions::incrementAndGet));
  }

  /** A holder may give the reader back on another thread (a scan closed elsewhere). */
  @Test
  void aReaderReleasedOnAnotherThread_closesWhenEvicted() throws Exception {
    TableHandle h = cache.acquire(1);
    assertEquals(TableCache.Eviction.CLOSES_WHEN_RELEASED, cache.evict(1, () -> {}));
    Thread other = new Thread(() -> cache.release(h));
    other.start();
    other.join();
    assertEquals(0, cache.openReaders());
  }

  @Test
  void aDamagedTableFailsWithCorruptionAndHoldsNothing() throws IOException {
    Files.write(FileNames.table(dir, 9), new byte[] {1, 2, 3});
    CorruptionException e = assertThrows(CorruptionException.class, () -> cache.acquire(9));
    assertTrue(e.getMessage().contains(".sst"), e.getMessage());
    assertEquals(0, cache.openReaders());
  }

  /**
   * Readers held and given back without the lock race with evictions for capacity (capacity 2, five
   * tables) and evictions of tables: every held reader still reads its table, none is lost, and once
   * all are given back the cache is back within its capacity.
   */
  @Test
  void concurrentHoldersAndEvictionsNeverCloseAHeldReader() throws Exception {
    long seed = System.nanoTime();
    System.out.println("concurrentHoldersAndEvictionsNeverCloseAHeldReader seed=" + seed);
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        SplittableRandom random = new SplittableRandom(seed + t);
        boolean dropper = t == 0;
        Callable<Void> work =
            () -> {
              for (int i = 0; i < 2_000; i++) {
                long n = 1 + random.nextInt(5);
                if (dropper && random.nextInt(8) == 0) {
                  cache.evict(n, () -> {});
                  continue;
                }
                TableHandle h = cache.acquire(n);
                try {
                  assertArrayEquals(b("v" + n), get(h, n).value(), "seed=" + seed);
                } finally {
                  cache.release(h);
                }
              }
              return null;
            };
        done.add(pool.submit(work));
      }
      for (Future<Void> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertTrue(cache.openReaders() <= 2, "open: " + cache.openReaders() + ", seed=" + seed);
  }
}
