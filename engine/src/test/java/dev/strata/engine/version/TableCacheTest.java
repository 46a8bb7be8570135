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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The table cache: bounded by its capacity, LRU, never closing a leased reader. */
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

  private GetResult get(TableCache.Handle h, long number) throws IOException {
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
      TableCache.Handle h = cache.acquire(n);
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
  void neverClosesALeasedReader() throws IOException {
    TableCache.Handle one = cache.acquire(1);
    TableCache.Handle two = cache.acquire(2);
    TableCache.Handle three = cache.acquire(3); // all leased: the cache goes over its capacity
    assertEquals(3, cache.openReaders());
    assertArrayEquals(b("v1"), get(one, 1).value(), "still open under its lease");
    cache.release(one);
    assertEquals(2, cache.openReaders(), "back within capacity once a lease is returned");
    assertArrayEquals(b("v2"), get(two, 2).value());
    cache.release(two);
    cache.release(three);
    assertThrows(IllegalStateException.class, () -> cache.release(three));
  }

  @Test
  void aGetEntersAnOpenReaderOnly_andKeepsADroppedOneOpenUntilItLeaves() throws IOException {
    assertEquals(null, cache.enterGet(1L), "not open: the Get takes a lease instead");
    cache.release(cache.acquire(1));
    TableCache.Handle h = cache.enterGet(1L);
    assertArrayEquals(b("v1"), get(h, 1).value());
    cache.drop(1);
    assertEquals(1, cache.openReaders(), "a Get inside keeps the dropped reader open");
    assertArrayEquals(b("v1"), get(h, 1).value());
    assertEquals(null, cache.enterGet(1L), "dropped: no Get finds it");
    cache.exitGet(h);
    assertEquals(0, cache.openReaders(), "closed when the Get left");
  }

  @Test
  void neverEvictsAReaderAGetIsIn() throws IOException {
    cache.release(cache.acquire(1));
    TableCache.Handle in = cache.enterGet(1L);
    cache.release(cache.acquire(2));
    cache.release(cache.acquire(3)); // over capacity: 2 is older but 1 is held by the Get
    assertEquals(2, cache.openReaders());
    assertArrayEquals(b("v1"), get(in, 1).value(), "still open under the Get");
    cache.exitGet(in);
    cache.release(cache.acquire(4));
    assertEquals(2, cache.openReaders());
  }

  @Test
  void sharesOneReaderBetweenLeases() throws IOException {
    TableCache.Handle a = cache.acquire(1);
    TableCache.Handle b = cache.acquire(1);
    assertSame(a, b);
    assertEquals(1, cache.opens());
    cache.release(a);
    cache.release(b);
  }

  @Test
  void aDroppedReaderClosesAtItsLastRelease() throws IOException {
    TableCache.Handle h = cache.acquire(1);
    cache.drop(1);
    assertEquals(1, cache.openReaders(), "leased: still open");
    assertArrayEquals(b("v1"), get(h, 1).value());
    cache.release(h);
    assertEquals(0, cache.openReaders());
    TableCache.Handle again = cache.acquire(1);
    assertNotSame(h, again, "reopened");
    cache.release(again);
  }

  @Test
  void aDamagedTableFailsWithCorruptionAndHoldsNothing() throws IOException {
    Files.write(FileNames.table(dir, 9), new byte[] {1, 2, 3});
    CorruptionException e = assertThrows(CorruptionException.class, () -> cache.acquire(9));
    assertTrue(e.getMessage().contains(".sst"), e.getMessage());
    assertEquals(0, cache.openReaders());
  }

  @Test
  void aTableRetiredUnderTheDatabaseMutexIsClosedAndDeletedOnlyAfterIt() throws IOException {
    ReentrantLock mutex = new ReentrantLock();
    try (TableCache deferring =
        new TableCache(dir, 2, new ClockBlockCache(1 << 20), new ReadCounters(), mutex)) {
      deferring.release(deferring.acquire(1));
      deferring.release(deferring.acquire(2));
      Path file = FileNames.table(dir, 1);
      mutex.lock();
      try {
        deferring.retire(1, file);
        deferring.retire(2, null);
        assertEquals(2, deferring.openReaders(), "closed under the mutex");
        assertTrue(Files.exists(file), "deleted under the mutex");
        assertEquals(2, deferring.retiredCount());
      } finally {
        mutex.unlock();
      }
      deferring.reclaimRetired();
      assertEquals(0, deferring.openReaders());
      assertFalse(Files.exists(file));
      assertTrue(Files.exists(FileNames.table(dir, 2)), "a retired table keeps a file not obsolete");
      assertEquals(0, deferring.retiredCount());
    }
  }

  @Test
  void aTableRetiredWithoutTheMutex_isReclaimedOnTheDeletesThread_withWhatWasQueued()
      throws Exception {
    ReentrantLock mutex = new ReentrantLock();
    try (TableCache deferring =
        new TableCache(dir, 2, new ClockBlockCache(1 << 20), new ReadCounters(), mutex)) {
      deferring.release(deferring.acquire(2));
      mutex.lock();
      try {
        deferring.retire(1, FileNames.table(dir, 1));
      } finally {
        mutex.unlock();
      }
      CountDownLatch busy = new CountDownLatch(1);
      deferring.deletes().run(() -> awaitQuietly(busy));
      try {
        deferring.retire(2, FileNames.table(dir, 2)); // as a read releasing the table's last version
        assertTrue(Files.exists(FileNames.table(dir, 1)), "the caller does not reclaim");
        assertTrue(Files.exists(FileNames.table(dir, 2)), "the caller does not reclaim");
        assertEquals(1, deferring.openReaders());
      } finally {
        busy.countDown();
      }
      deferring.awaitDeletes();
      assertFalse(Files.exists(FileNames.table(dir, 1)));
      assertFalse(Files.exists(FileNames.table(dir, 2)));
      assertEquals(0, deferring.openReaders());
      assertEquals(0, deferring.retiredCount());
    }
  }

  /**
   * A Get inside a reader when its table is reclaimed keeps the file (the file system frees an
   * unlinked file at its last close, which must not be the Get's), and the Get's exit closes the
   * reader and leaves the deletion to the deletes thread.
   */
  @Test
  void aReaderHeldWhenItsTableIsReclaimed_keepsItsFileUntilClosed_thenTheDeletesThreadDeletesIt()
      throws Exception {
    Path file = FileNames.table(dir, 1);
    cache.release(cache.acquire(1));
    TableCache.Handle in = cache.enterGet(1L);
    cache.retire(1, file);
    cache.awaitDeletes();
    assertTrue(Files.exists(file), "a Get still reads it");
    assertArrayEquals(b("v1"), get(in, 1).value());
    CountDownLatch busy = new CountDownLatch(1);
    cache.deletes().run(() -> awaitQuietly(busy));
    try {
      cache.exitGet(in);
      assertEquals(0, cache.openReaders(), "closed by the Get's exit");
      assertTrue(Files.exists(file), "but not deleted by it");
    } finally {
      busy.countDown();
    }
    cache.awaitDeletes();
    assertFalse(Files.exists(file));
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }


  /**
   * Leases taken and returned without the lock race with evictions (capacity 2, five tables) and
   * drops: every leased reader still reads its table, no lease is lost, and once all are returned
   * the cache is back within its capacity.
   */
  @Test
  void concurrentLeasesEvictionsAndDropsNeverCloseALeasedReader() throws Exception {
    long seed = System.nanoTime();
    System.out.println("concurrentLeasesEvictionsAndDropsNeverCloseALeasedReader seed=" + seed);
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
                  cache.drop(n);
                  continue;
                }
                TableCache.Handle h = cache.acquire(n);
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
