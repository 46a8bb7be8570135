package dev.strata.engine.read;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.ObsoleteFiles;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableMetadata;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.CorruptFiles;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.Seeded;
import dev.strata.sstable.testing.Tables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Overlapped table reads: a cold batched Get answers as the sequential one does, fails as it does,
 * and leaves no task or thread behind.
 */
final class OverlappedReadsTest {
  private static final byte[] EMPTY = new byte[0];
  private static final int ROWS = 600;

  @TempDir Path dir;

  private static byte[] row(int i) {
    return String.format("r%05d", i).getBytes(UTF_8);
  }

  /**
   * A tree of three levels: level 2 holds every row (old values) in three tables, level 1
   * overwrites or deletes a random third of them in two tables, a level-0 table overwrites a
   * random tenth; {@code model} gets the newest.
   */
  private List<List<FileMetadata>> writeTree(Random random, TreeMap<Integer, byte[]> model)
      throws IOException {
    List<List<FileMetadata>> levels = new ArrayList<>();
    for (int level = 0; level < Version.NUM_LEVELS; level++) {
      levels.add(new ArrayList<>());
    }
    long number = 1;
    for (int t = 0; t < 3; t++) {
      List<Entry> entries = new ArrayList<>();
      for (int i = t * ROWS / 3; i < (t + 1) * ROWS / 3; i++) {
        byte[] value = ("old" + i + "-" + random.nextInt()).getBytes(UTF_8);
        entries.add(new Entry(new InternalKey(row(i), EMPTY, 1 + i, ValueKind.PUT), value));
        model.put(i, value);
      }
      levels.get(2).add(write(number++, 2, entries));
    }
    for (int t = 0; t < 2; t++) {
      List<Entry> entries = new ArrayList<>();
      for (int i = t * ROWS / 2; i < (t + 1) * ROWS / 2; i++) {
        if (random.nextInt(3) != 0) {
          continue;
        }
        long sequence = 10_000 + i;
        if (random.nextBoolean()) {
          entries.add(new Entry(new InternalKey(row(i), EMPTY, sequence, ValueKind.DELETE), EMPTY));
          model.put(i, null);
        } else {
          byte[] value = ("new" + i).getBytes(UTF_8);
          entries.add(new Entry(new InternalKey(row(i), EMPTY, sequence, ValueKind.PUT), value));
          model.put(i, value);
        }
      }
      if (!entries.isEmpty()) {
        levels.get(1).add(write(number++, 1, entries));
      }
    }
    // Level 0: one table over every row's range overwriting a random tenth (newest of all).
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      if (random.nextInt(10) == 0) {
        byte[] value = ("l0-" + i).getBytes(UTF_8);
        entries.add(new Entry(new InternalKey(row(i), EMPTY, 30_000 + i, ValueKind.PUT), value));
        model.put(i, value);
      }
    }
    if (!entries.isEmpty()) {
      levels.get(0).add(write(number, 0, entries));
    }
    return levels;
  }

  private FileMetadata write(long number, int level, List<Entry> entries) throws IOException {
    TableMetadata t = Tables.write(FileNames.table(dir, number), TableOptions.defaults(), entries);
    return new FileMetadata(number, level, t.fileSize(), entries.size(), 1, 20_000,
        entries.get(0).key(), entries.get(entries.size() - 1).key(), 0);
  }

  /** A view of the tree's tables through a table cache and block cache of its own (empty). */
  private ReadView view(List<List<FileMetadata>> files, TableCache tables) throws IOException {
    List<List<TableRef>> levels = new ArrayList<>();
    for (List<FileMetadata> level : files) {
      List<TableRef> refs = new ArrayList<>();
      for (FileMetadata f : level) {
        refs.add(TableRef.open(dir, f, tables, new ObsoleteFiles(dir, tables, null)));
      }
      levels.add(refs);
    }
    Version version = Version.of(levels);
    ReadView view = new ReadView(new MemTable(), List.of(), version);
    version.release(); // the view's reference is the last
    return view;
  }

  /** The answers of one batch, read sequentially or overlapped, through empty caches. */
  private byte[][] batch(List<List<FileMetadata>> files, byte[][] rows, OverlappedReads reads)
      throws IOException {
    return batch(files, rows, reads, new ReadCounters());
  }

  /** {@link #batch}, counting its table reads in {@code counters}. */
  private byte[][] batch(List<List<FileMetadata>> files, byte[][] rows, OverlappedReads reads,
      ReadCounters counters) throws IOException {
    byte[][] columns = new byte[rows.length][];
    Arrays.fill(columns, EMPTY);
    ClockBlockCache blocks = new ClockBlockCache(1 << 20);
    try (TableCache tables = new TableCache(dir, TableCache.UNLIMITED, blocks, counters)) {
      ReadView view = view(files, tables);
      try {
        return BatchedGets.get(view, InternalKey.MAX_SEQUENCE, rows, columns, reads);
      } finally {
        view.release();
      }
    }
  }

  /**
   * Reads that share every warm batch of two parts or more on up to {@code cores - 1} helpers: a
   * threshold of 0 and a pace already recorded (else the first batch runs unshared to record one).
   */
  private static OverlappedReads alwaysSharing(int helpers, int cores) {
    OverlappedReads reads = new OverlappedReads("test", helpers, Long.MAX_VALUE, 0, cores);
    reads.recordPace(0, 1);
    return reads;
  }

  @Test
  void overlappedBatch_answersAsTheSequentialOne() {
    Seeded.run("overlapped batch", 15, random -> {
      TreeMap<Integer, byte[]> model = new TreeMap<>();
      List<List<FileMetadata>> files = writeTree(random, model);
      int helpers = 1 + random.nextInt(6);
      // Cold (every deeper level overlapped) or warm (the keys after the first 8 shared in parts).
      boolean cold = random.nextBoolean();
      try (OverlappedReads reads = cold
          ? new OverlappedReads("test", helpers, 0)
          : alwaysSharing(helpers, 2 + random.nextInt(4))) {
        for (int b = 0; b < 5; b++) {
          int n = 2 + random.nextInt(60);
          byte[][] rows = new byte[n][];
          for (int i = 0; i < n; i++) {
            rows[i] = row(random.nextInt(ROWS + 20)); // some absent, some twice
          }
          byte[][] sequential = batch(files, rows, null);
          byte[][] overlapped = batch(files, rows, reads);
          for (int i = 0; i < n; i++) {
            int r = Integer.parseInt(new String(rows[i], UTF_8).substring(1));
            assertArrayEquals(model.get(r), sequential[i], "sequential, row " + r);
            assertArrayEquals(sequential[i], overlapped[i], (cold ? "cold" : "warm") + ", row " + r);
          }
        }
      }
      // The next trial writes its tables under the same numbers.
      for (List<FileMetadata> level : files) {
        for (FileMetadata f : level) {
          Files.delete(FileNames.table(dir, f.fileNumber()));
        }
      }
    });
  }

  @Test
  void damagedBlockDuringOverlappedBatch_failsAsTheSequentialBatchDoes() throws Exception {
    List<List<FileMetadata>> files = writeTree(new Random(7), new TreeMap<>());
    // Damage the first data block of level 2's last table: rows r00400.. now read as corruption.
    // (Not the first table: a warm batch asks a level's first keys on its own thread.)
    CorruptFiles.flipBit(FileNames.table(dir, 3), 20, 3);
    byte[][] rows = new byte[40][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = row(i * ROWS / rows.length);
    }
    IOException sequential = assertThrows(IOException.class, () -> batch(files, rows, null));
    OverlappedReads cold = new OverlappedReads("test", 4, 0);
    OverlappedReads warm = alwaysSharing(4, 4);
    for (OverlappedReads reads : List.of(cold, warm)) {
      try (reads) {
        IOException overlapped = assertThrows(IOException.class, () -> batch(files, rows, reads));
        assertEquals(sequential.getClass(), overlapped.getClass());
        assertEquals(sequential.getMessage(), overlapped.getMessage());
        assertTrue(reads.threads() >= 1, "overlapped: " + reads.threads());
        reads.close();
        assertTrue(reads.awaitTermination(10_000), "pool threads end after close");
      }
    }
  }

  @Test
  void warmBatch_sharesItsKeys_onlyWhenWorthSharing_andACoreIsFree()
      throws IOException {
    List<List<FileMetadata>> files = writeTree(new Random(11), new TreeMap<>());
    byte[][] rows = new byte[60][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = row(i * ROWS / rows.length);
    }
    // Never worth sharing: the batch stays on its thread.
    try (OverlappedReads reads = new OverlappedReads("test", 4, Long.MAX_VALUE, Long.MAX_VALUE, 4)) {
      batch(files, rows, reads);
      assertEquals(0, reads.threads());
    }
    // Always worth sharing, but the batch itself takes the only core.
    try (OverlappedReads reads = alwaysSharing(4, 1)) {
      batch(files, rows, reads);
      assertEquals(0, reads.threads());
    }
    // Always worth sharing, cores to spare: parts of the keys go to a helper.
    try (OverlappedReads reads = alwaysSharing(4, 4)) {
      batch(files, rows, reads);
      assertTrue(reads.threads() >= 1, "threads: " + reads.threads());
    }
    // No pace recorded yet: the first batch runs on its thread, timed; the second shares.
    try (OverlappedReads reads = new OverlappedReads("test", 4, Long.MAX_VALUE, 0, 4)) {
      batch(files, rows, reads);
      assertEquals(0, reads.threads());
      batch(files, rows, reads);
      assertTrue(reads.threads() >= 1, "threads: " + reads.threads());
    }
  }

  @Test
  void worthSharing_followsTheLastPaceRecorded() {
    try (OverlappedReads reads = new OverlappedReads("test", 1, 0, 100, 2)) {
      assertFalse(reads.worthSharing(1_000), "no pace yet");
      reads.recordPace(500, 10); // 50 ns a key
      assertTrue(reads.worthSharing(2));
      assertFalse(reads.worthSharing(1));
      reads.recordPace(10, 10); // 1 ns a key: cached
      assertFalse(reads.worthSharing(64));
    }
    try (OverlappedReads never = new OverlappedReads("test", 1, 0, Long.MAX_VALUE, 2)) {
      never.recordPace(Long.MAX_VALUE, 1);
      assertFalse(never.worthSharing(64), "a database that never shares");
    }
  }

  @Test
  void sharedBatch_readsEachNeededBlockOnce_asTheSequentialOneDoes() throws IOException {
    List<List<FileMetadata>> files = writeTree(new Random(13), new TreeMap<>());
    byte[][] rows = new byte[64][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = row(200 + i); // neighbours: parts of 8 keys share their blocks with the next
    }
    ReadCounters sequential = new ReadCounters();
    batch(files, rows, null, sequential);
    for (int trial = 0; trial < 20; trial++) {
      try (OverlappedReads reads = alwaysSharing(4, 4)) {
        ReadCounters shared = new ReadCounters();
        batch(files, rows, reads, shared);
        assertTrue(reads.threads() >= 1, "shared: " + reads.threads());
        assertEquals(sequential.snapshot().dataBlocksRead(), shared.snapshot().dataBlocksRead(),
            "trial " + trial);
      }
    }
  }

  @Test
  void freeHelpers_areTheCoresBeyondTheBatchesRunning_atMostMaxHelpers() {
    try (OverlappedReads reads = new OverlappedReads("test", 2, 0, 0, 4)) {
      assertEquals(2, reads.freeHelpers(), "capped by maxHelpers");
      reads.enter();
      reads.enter();
      reads.enter();
      assertEquals(1, reads.freeHelpers());
      reads.enter();
      reads.enter();
      assertEquals(0, reads.freeHelpers(), "never negative");
      for (int i = 0; i < 5; i++) {
        reads.exit();
      }
      assertEquals(2, reads.freeHelpers());
    }
  }

  @Test
  void helperOutOfTasks_spinsForTheNextRun_andTakesIt() throws IOException {
    try (OverlappedReads reads = new OverlappedReads("test", 1, 0, 0, 2)) {
      // Runs back to back: a helper that finished one spins for the next, so some are taken
      // that way (all of them on an idle machine; at least one however loaded it is).
      for (int round = 0; round < 2_000 && reads.runsTakenLingering() == 0; round++) {
        reads.runAll(2, i -> {
          long end = System.nanoTime() + 50_000;
          while (System.nanoTime() < end) {
            Thread.onSpinWait();
          }
        });
      }
      assertTrue(reads.runsTakenLingering() > 0, "no run taken by a lingering helper");
    }
  }

  /**
   * A process at its thread limit: starting a pool thread throws the JVM's "unable to create native
   * thread". Whether the caller's first helper fails to start or a helper's next one does, every
   * task runs once, the batch returns normally, and no helper dies of an uncaught error. The first
   * round's tasks wait until a thread has failed to start: a helper starts the next only while
   * tasks are left, and quick tasks could all be taken before the last startable helper asks
   * (the test then failed on a loaded machine, having tested nothing).
   */
  @Test
  void threadsThatCannotStart_meanFewerHelpers_notAFailedBatch() throws Exception {
    for (int startable : new int[] {0, 1, 2}) {
      AtomicInteger made = new AtomicInteger();
      AtomicReference<Throwable> uncaught = new AtomicReference<>();
      CountDownLatch refused = new CountDownLatch(1);
      ThreadFactory atTheLimit = r -> {
        if (made.get() >= startable) {
          refused.countDown(); // this thread's start throws
        }
        Thread t = made.incrementAndGet() <= startable
            ? new Thread(r)
            : new Thread(r) {
                @Override
                public synchronized void start() {
                  throw new OutOfMemoryError("unable to create native thread: possibly out of "
                      + "memory or process/resource limits reached");
                }
              };
        t.setDaemon(true);
        t.setUncaughtExceptionHandler((thread, e) -> uncaught.compareAndSet(null, e));
        return t;
      };
      OverlappedReads reads = new OverlappedReads(4, 0, Long.MAX_VALUE, 4, atTheLimit);
      try {
        for (int round = 0; round < 20; round++) {
          ConcurrentHashMap<Integer, Integer> runs = new ConcurrentHashMap<>();
          reads.runAll(12, i -> {
            runs.merge(i, 1, Integer::sum);
            awaitUninterruptibly(refused);
          });
          assertEquals(12, runs.size(), startable + " threads startable");
          runs.values().forEach(v -> assertEquals(1, v));
        }
        assertTrue(made.get() > startable, "no thread failed to start: " + made.get());
      } finally {
        reads.close();
        assertTrue(reads.awaitTermination(10_000));
      }
      assertNull(uncaught.get(), "a helper died of " + uncaught.get());
    }
  }

  /** Waits for {@code latch}, ten seconds at most (a caller's assertion then fails), however interrupted. */
  private static void awaitUninterruptibly(CountDownLatch latch) {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    boolean interrupted = false;
    try {
      while (latch.getCount() > 0 && System.nanoTime() < until) {
        try {
          latch.await(until - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Test
  void runAll_runsEachTaskOnce_andReturnsAfterAllEnded() throws IOException {
    try (OverlappedReads reads = new OverlappedReads("test", 3, 0)) {
      for (int round = 0; round < 50; round++) {
        int count = 1 + round % 17;
        AtomicInteger running = new AtomicInteger();
        ConcurrentHashMap<Integer, Integer> runs = new ConcurrentHashMap<>();
        reads.runAll(count, i -> {
          running.incrementAndGet();
          runs.merge(i, 1, Integer::sum);
          Thread.yield();
          running.decrementAndGet();
        });
        assertEquals(0, running.get(), "a task still running after runAll returned");
        assertEquals(count, runs.size());
        runs.values().forEach(v -> assertEquals(1, v));
      }
      assertTrue(reads.threads() <= 3, "threads: " + reads.threads());
    }
  }

  @Test
  void failedTask_isThrownAsThrown_afterTheRunningTasksEnded() throws InterruptedException {
    try (OverlappedReads reads = new OverlappedReads("test", 2, 0)) {
      IOException boom = new IOException("boom");
      AtomicInteger running = new AtomicInteger();
      CountDownLatch failed = new CountDownLatch(1);
      IOException thrown = assertThrows(IOException.class, () -> reads.runAll(3, i -> {
        running.incrementAndGet();
        try {
          if (i == 1) {
            failed.countDown();
            throw boom;
          }
          failed.await(10, TimeUnit.SECONDS); // still running when the failure happens
          Thread.sleep(20);
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        } finally {
          running.decrementAndGet();
        }
      }));
      assertSame(boom, thrown);
      assertEquals(0, running.get(), "runAll returned while a task ran");
      RuntimeException unchecked = new IllegalStateException("closed");
      assertSame(unchecked, assertThrows(IllegalStateException.class,
          () -> reads.runAll(4, i -> {
            throw unchecked;
          })));
    }
  }

  @Test
  void closeDuringABatch_letsItFinish_thenEndsThePool_andLaterBatchesRunOnTheCaller()
      throws Exception {
    OverlappedReads reads = new OverlappedReads("test", 3, 0);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch go = new CountDownLatch(1);
    AtomicInteger done = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread batch = new Thread(() -> {
      try {
        reads.runAll(8, i -> {
          started.countDown();
          try {
            go.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
          done.incrementAndGet();
        });
      } catch (Throwable t) {
        failure.set(t);
      }
    });
    batch.start();
    assertTrue(started.await(10, TimeUnit.SECONDS));
    reads.close();
    go.countDown();
    batch.join(10_000);
    assertEquals(null, failure.get());
    assertEquals(8, done.get(), "every task of the batch ran");
    assertTrue(reads.awaitTermination(10_000), "pool threads end after close");
    List<String> threads = new ArrayList<>();
    reads.runAll(5, i -> threads.add(Thread.currentThread().getName()));
    assertEquals(List.of(Thread.currentThread().getName()), threads.stream().distinct().toList());
    assertEquals(0, reads.threads());
  }

  @Test
  void interruptedCaller_stillWaitsForItsTasks_andKeepsTheInterrupt() throws Exception {
    try (OverlappedReads reads = new OverlappedReads("test", 2, 0)) {
      AtomicInteger running = new AtomicInteger();
      AtomicInteger runningAtReturn = new AtomicInteger(-1);
      AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
      Thread caller = new Thread(() -> {
        Thread.currentThread().interrupt(); // set while it waits for its helpers
        try {
          reads.runAll(3, i -> {
            running.incrementAndGet();
            long end = System.nanoTime() + 30_000_000L;
            while (System.nanoTime() < end) {
              Thread.onSpinWait(); // deaf to interrupts, as a read through TableFile is
            }
            running.decrementAndGet();
          });
        } catch (IOException e) {
          throw new AssertionError(e);
        }
        runningAtReturn.set(running.get());
        interruptedAfter.set(Thread.currentThread().isInterrupted());
      });
      caller.start();
      caller.join(10_000);
      assertEquals(0, runningAtReturn.get(), "runAll returned while a task ran");
      assertEquals(Boolean.TRUE, interruptedAfter.get(), "the interrupt stays set");
    }
  }
}
