package dev.strata.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.DataBlockOptions;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.EvenRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interrupts landing on readers in the middle of Gets, batched Gets and cursor steps, whose blocks
 * come from the table files (a cache far smaller than the data) and whose table readers are opened
 * again and again (more tables than open files allowed). A {@code FileChannel} closes itself for
 * every thread when a thread in a call on it is interrupted; an interrupted read must still answer
 * rightly, keep the reader's interrupt status set, and leave the tables readable for everyone.
 */
final class ReadInterruptStormTest {
  private static final int ROWS = 3000;

  @TempDir Path dir;

  @Test
  void readersInterruptedMidRead_answerRightly_keepTheirInterrupt_tablesStayReadable()
      throws Exception {
    long seed = System.nanoTime();
    System.out.println("ReadInterruptStormTest seed=" + seed);
    // Thirty tables kept apart, and readers of at most 16 files open: Gets open and close table
    // readers all the time, so interrupts land on opens (a file's size asked) as well as reads.
    DbOptions options = DbOptions.builder()
        .memtableBytes(16 << 10)
        .blockSizeBytes(DataBlockOptions.MIN_BLOCK_SIZE_BYTES)
        .blockCacheBytes(32 << 10)
        .autoCompaction(false)
        .maxOpenFiles(16)
        .build();
    try (Db db = Db.open(dir, options)) {
      EvenRows rows = new EvenRows(ROWS);
      rows.write(db, 50);
      db.flush();
      int tables = db.tablesPerLevel().get(0);
      assertTrue(tables > 16, "more tables than open files allowed: " + tables);
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicLong interruptedCalls = new AtomicLong();
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        Random r = new Random(seed + t);
        int kind = t;
        readers.add(new Thread(() -> {
          try {
            while (running.get()) {
              rows.read(db, kind, r);
              if (Thread.interrupted()) { // kept through the read, cleared for the next one
                interruptedCalls.incrementAndGet();
              }
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }, "reader-" + t));
      }
      readers.forEach(Thread::start);
      Random r = new Random(seed);
      long end = System.nanoTime() + 1_500_000_000L;
      while (System.nanoTime() < end && failure.get() == null) {
        readers.get(r.nextInt(readers.size())).interrupt();
        LockSupport.parkNanos(20_000 + r.nextInt(200_000));
      }
      running.set(false);
      for (Thread t : readers) {
        t.join(30_000);
        assertFalse(t.isAlive(), t.getName() + " never finished");
      }
      if (failure.get() != null) {
        throw new AssertionError("seed " + seed + ": " + failure.get(), failure.get());
      }
      assertTrue(interruptedCalls.get() > 0, "no read ran with its interrupt set");
      for (int i = 0; i < ROWS; i++) {
        assertArrayEquals(EvenRows.expected(i), db.get(EvenRows.row(i)), "after the storm, row " + i);
      }
    }
  }
}
