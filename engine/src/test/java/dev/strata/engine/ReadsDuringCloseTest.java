package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers in the middle of their calls while another thread closes the database: each call either
 * answers as if the database were open, or fails with {@link IllegalStateException} (closed before
 * it began) or an {@link IOException} (unchecked from a cursor: its table files closed under it);
 * never a wrong answer,
 * another exception or a hang. The data blocks live off the heap in a cache too small for them, so
 * readers copy blocks while the close frees the cache's memory and closes the table files.
 */
final class ReadsDuringCloseTest {
  private static final int ROWS = 3000;
  private static final EvenRows EVEN_ROWS = new EvenRows(ROWS);

  @TempDir Path dir;

  private static DbOptions options() {
    return DbOptions.builder()
        .memtableBytes(16 << 10)
        .blockSizeBytes(DataBlockOptions.MIN_BLOCK_SIZE_BYTES)
        .blockCacheBytes(64 << 10)
        .blockCacheOffHeapMinBytes(0)
        .build();
  }

  @Test
  void getsBatchesAndCursors_whileTheDatabaseCloses_answerRightlyOrFailClearly() throws Exception {
    long seed = System.nanoTime();
    for (int round = 0; round < 10; round++) {
      String what = "seed " + seed + " round " + round;
      closeUnderReaders(dir.resolve("round-" + round), new Random(seed + round), what);
    }
  }

  private void closeUnderReaders(Path dbDir, Random random, String what) throws Exception {
    Db db = Db.open(dbDir, options());
    EVEN_ROWS.write(db, 300);
    db.compact();
    for (int i = 0; i < ROWS; i += 10) { // some in the memtable, over the tables
      db.put(EvenRows.row(i), EvenRows.value(i));
    }
    int readers = 3;
    CountDownLatch started = new CountDownLatch(readers);
    AtomicReference<Throwable> wrong = new AtomicReference<>();
    AtomicInteger answered = new AtomicInteger();
    AtomicInteger closedSeen = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < readers; t++) {
      Random r = new Random(random.nextLong());
      int kind = t;
      threads.add(new Thread(() -> {
        started.countDown();
        while (true) {
          try {
            EVEN_ROWS.read(db, kind, r);
            answered.incrementAndGet();
          } catch (IllegalStateException e) {
            closedSeen.incrementAndGet();
            return; // closed before the call began: every later call fails the same way
          } catch (IOException | UncheckedIOException e) {
            // its files closed under it: the next call finds the database closed
          } catch (Throwable e) {
            wrong.compareAndSet(null, e);
            return;
          }
        }
      }, "reader-" + t));
    }
    threads.forEach(Thread::start);
    assertTrue(started.await(30, TimeUnit.SECONDS));
    Thread.sleep(20 + random.nextInt(30));
    db.close();
    for (Thread t : threads) {
      t.join(30_000);
      assertFalse(t.isAlive(), what + ": " + t.getName() + " still reading after the close");
    }
    if (wrong.get() != null) {
      throw new AssertionError(what + ": " + wrong.get(), wrong.get());
    }
    assertTrue(answered.get() > 0, what + ": no call answered before the close");
    assertEquals(readers, closedSeen.get(), what + ": readers that saw the database closed");
    try (Db again = Db.open(dbDir, options())) { // nothing the close left behind stops a reopen
      assertArrayEquals(EvenRows.value(42), again.get(EvenRows.row(42)));
    }
  }
}
