package dev.strata.engine.version;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FileNames;
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
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Obsolete tables leave the disk only after their readers are closed, never on a read's thread, and
 * never under the database's mutex.
 */
final class ObsoleteFilesTest {
  @TempDir Path dir;

  private final ReentrantLock mutex = new ReentrantLock();
  private TableCache tables;
  private ObsoleteFiles obsolete;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @BeforeEach
  void tables() throws IOException {
    for (long n = 1; n <= 3; n++) {
      InternalKey key = new InternalKey(b("r" + n), new byte[0], 1, ValueKind.PUT);
      Tables.write(
          FileNames.table(dir, n), TableOptions.defaults(), List.of(new Entry(key, b("v" + n))));
    }
    tables = new TableCache(dir, 2, new ClockBlockCache(1 << 20), new ReadCounters());
    obsolete = new ObsoleteFiles(dir, tables, mutex);
  }

  @AfterEach
  void close() {
    obsolete.close();
    tables.close();
  }

  private byte[] read(TableHandle h, long n) throws IOException {
    return h.reader().get(FilterProbe.of(b("r" + n), new byte[0]), InternalKey.MAX_SEQUENCE).value();
  }

  @Test
  void aTableRetiredUnderTheDatabaseMutexIsClosedAndDeletedOnlyAfterIt() throws IOException {
    tables.release(tables.acquire(1));
    tables.release(tables.acquire(2));
    Path file = FileNames.table(dir, 1);
    mutex.lock();
    try {
      obsolete.retire(1, file);
      obsolete.retire(2, null);
      assertEquals(2, tables.openReaders(), "closed under the mutex");
      assertTrue(Files.exists(file), "deleted under the mutex");
      assertEquals(2, obsolete.retiredCount());
    } finally {
      mutex.unlock();
    }
    obsolete.purge();
    assertEquals(0, tables.openReaders());
    assertFalse(Files.exists(file));
    assertTrue(Files.exists(FileNames.table(dir, 2)), "a retired table keeps a file not obsolete");
    assertEquals(0, obsolete.retiredCount());
  }

  @Test
  void aTableRetiredWithoutTheMutex_isPurgedOnTheDeletesThread_withWhatWasQueued()
      throws Exception {
    tables.release(tables.acquire(2));
    mutex.lock();
    try {
      obsolete.retire(1, FileNames.table(dir, 1));
    } finally {
      mutex.unlock();
    }
    CountDownLatch busy = new CountDownLatch(1);
    obsolete.deletes().run(() -> awaitQuietly(busy));
    try {
      obsolete.retire(2, FileNames.table(dir, 2)); // as a read releasing the table's last version
      assertTrue(Files.exists(FileNames.table(dir, 1)), "the caller does not purge");
      assertTrue(Files.exists(FileNames.table(dir, 2)), "the caller does not purge");
      assertEquals(1, tables.openReaders());
    } finally {
      busy.countDown();
    }
    obsolete.awaitDeletes();
    assertFalse(Files.exists(FileNames.table(dir, 1)));
    assertFalse(Files.exists(FileNames.table(dir, 2)));
    assertEquals(0, tables.openReaders());
    assertEquals(0, obsolete.retiredCount());
  }

  /**
   * A read holding a reader when its table is purged keeps the file (the file system frees an
   * unlinked file at its last close, which must not be the read's), and the read's release closes
   * the reader and leaves the deletion to the deletes thread.
   */
  @Test
  void aReaderHeldWhenItsTableIsPurged_keepsItsFileUntilClosed_thenTheDeletesThreadDeletesIt()
      throws Exception {
    Path file = FileNames.table(dir, 1);
    TableHandle in = tables.acquire(1);
    obsolete.retire(1, file);
    obsolete.awaitDeletes();
    assertTrue(Files.exists(file), "a read still holds it");
    assertArrayEquals(b("v1"), read(in, 1));
    CountDownLatch busy = new CountDownLatch(1);
    obsolete.deletes().run(() -> awaitQuietly(busy));
    try {
      tables.release(in);
      assertEquals(0, tables.openReaders(), "closed by the read's release");
      assertTrue(Files.exists(file), "but not deleted by it");
    } finally {
      busy.countDown();
    }
    obsolete.awaitDeletes();
    assertFalse(Files.exists(file));
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
