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
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batched Gets in parts on {@link ReadThreads}: a batch answers as the sequential one does, fails as
 * it does, takes the same path every time, and leaves no task behind and no thread running.
 */
final class ReadThreadsTest {
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

  /**
   * A view of the tree's tables through a table cache and block cache of its own (empty); closing
   * it retires the tables to {@code released}.
   */
  private ReadView view(List<List<FileMetadata>> files, TableCache tables, ObsoleteFiles released)
      throws IOException {
    List<List<TableRef>> levels = new ArrayList<>();
    for (List<FileMetadata> level : files) {
      List<TableRef> refs = new ArrayList<>();
      for (FileMetadata f : level) {
        refs.add(TableRef.open(dir, f, tables, released));
      }
      levels.add(refs);
    }
    Version version = Version.of(levels);
    ReadView view = new ReadView(new MemTable(), List.of(), version);
    version.release(); // the view's reference is the last
    return view;
  }

  /** The answers of one batch, read on its thread or in parts, through empty caches. */
  private byte[][] batch(List<List<FileMetadata>> files, byte[][] rows, ReadThreads reads)
      throws IOException {
    return batch(files, rows, reads, new ReadCounters());
  }

  /** {@link #batch}, counting its table reads in {@code counters}. */
  private byte[][] batch(List<List<FileMetadata>> files, byte[][] rows, ReadThreads reads,
      ReadCounters counters) throws IOException {
    byte[][] columns = new byte[rows.length][];
    Arrays.fill(columns, EMPTY);
    ClockBlockCache blocks = new ClockBlockCache(1 << 20);
    // Closed in reverse order: the view's release hands the tables' purge to a background thread
    // (as a read's does), and closing the obsolete files waits for it before the cache closes
    // what is left, so the batch returns with no reader open.
    try (TableCache tables = new TableCache(dir, TableCache.UNLIMITED, blocks, counters);
        ObsoleteFiles released = new ObsoleteFiles(dir, tables, null)) {
      ReadView view = view(files, tables, released);
      try {
        return BatchedGets.get(view, InternalKey.MAX_SEQUENCE, rows, columns, reads);
      } finally {
        view.close();
      }
    }
  }

  @Test
  void batchInParts_answersAsTheSequentialOne() {
    Seeded.run("batch in parts", 15, random -> {
      TreeMap<Integer, byte[]> model = new TreeMap<>();
      List<List<FileMetadata>> files = writeTree(random, model);
      try (ReadThreads reads = new ReadThreads("test", 1 + random.nextInt(6))) {
        for (int b = 0; b < 5; b++) {
          int n = 2 + random.nextInt(60);
          byte[][] rows = new byte[n][];
          for (int i = 0; i < n; i++) {
            rows[i] = row(random.nextInt(ROWS + 20)); // some absent, some twice
          }
          byte[][] sequential = batch(files, rows, null);
          byte[][] inParts = batch(files, rows, reads);
          for (int i = 0; i < n; i++) {
            int r = Integer.parseInt(new String(rows[i], UTF_8).substring(1));
            assertArrayEquals(model.get(r), sequential[i], "sequential, row " + r);
            assertArrayEquals(sequential[i], inParts[i], "in parts, row " + r);
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
  void damagedBlockDuringABatchInParts_failsAsTheSequentialBatchDoes() throws Exception {
    List<List<FileMetadata>> files = writeTree(new Random(7), new TreeMap<>());
    // Damage the first data block of level 2's last table: rows r00400.. now read as corruption.
    CorruptFiles.flipBit(FileNames.table(dir, 3), 20, 3);
    byte[][] rows = new byte[40][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = row(i * ROWS / rows.length);
    }
    IOException sequential = assertThrows(IOException.class, () -> batch(files, rows, null));
    ReadThreads reads = new ReadThreads("test", 4);
    try (reads) {
      IOException inParts = assertThrows(IOException.class, () -> batch(files, rows, reads));
      assertEquals(sequential.getClass(), inParts.getClass());
      assertEquals(sequential.getMessage(), inParts.getMessage());
      assertTrue(reads.threads() >= 1, "parts ran on helpers: " + reads.threads());
    }
    assertTrue(reads.awaitTermination(10_000), "pool threads end after close");
  }

  /**
   * Whether a batch runs in parts depends on its keys alone, never on a clock: below {@link
   * BatchedGets#MIN_SHARED_KEYS} undecided keys it runs on its caller, at or above it in parts,
   * every time.
   */
  @Test
  void theSameBatchTakesTheSamePath_everyTime() throws Exception {
    List<List<FileMetadata>> files = writeTree(new Random(11), new TreeMap<>());
    Set<String> smallThreads = ConcurrentHashMap.newKeySet();
    try (ReadThreads reads = new ReadThreads("test", 2)) {
      byte[][] small = new byte[BatchedGets.MIN_SHARED_KEYS - 1][];
      for (int i = 0; i < small.length; i++) {
        small[i] = row(i * 7);
      }
      for (int round = 0; round < 20; round++) {
        batch(files, small, reads);
      }
      assertEquals(0, reads.threads(), "a batch below the threshold never used a helper");
      byte[][] large = new byte[4 * BatchedGets.PART_KEYS][];
      for (int i = 0; i < large.length; i++) {
        large[i] = row(i * 13);
      }
      batch(files, large, reads);
      assertTrue(reads.threads() >= 1, "a batch at the threshold runs in parts");
    }
  }

  /** A pool thread out of work parks, it does not spin: a quiet database uses no CPU. */
  @Test
  void idleHelpers_park() throws Exception {
    try (ReadThreads reads = new ReadThreads("test", 3)) {
      reads.runAll(12, i -> Thread.yield());
      long deadline = System.nanoTime() + 5_000_000_000L;
      boolean allParked;
      do {
        Thread.sleep(10);
        allParked = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("strata-multiget-"))
            .allMatch(t -> t.getState() == Thread.State.WAITING
                || t.getState() == Thread.State.TIMED_WAITING
                || t.getState() == Thread.State.TERMINATED);
      } while (!allParked && System.nanoTime() < deadline);
      assertTrue(allParked, "a helper kept running with no task");
    }
  }

  @Test
  void runAll_runsEachTaskOnce_andReturnsAfterAllEnded() throws IOException {
    try (ReadThreads reads = new ReadThreads("test", 3)) {
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
    try (ReadThreads reads = new ReadThreads("test", 2)) {
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
    ReadThreads reads = new ReadThreads("test", 3);
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
    try (ReadThreads reads = new ReadThreads("test", 2)) {
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

  /**
   * A pool thread scheduled only after the caller took the last task neither runs a task nor holds
   * the caller: the caller returns once its tasks are done, without waiting for the thread to start.
   */
  @Test
  void aHelperThatStartsLate_doesNothing_andIsNotWaitedFor() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger made = new AtomicInteger();
    ReadThreads reads = new ReadThreads(1, r -> {
      made.incrementAndGet(); // the pool took the helper: its thread exists, held at the gate
      Thread t = new Thread(() -> {
        try {
          gate.await();
        } catch (InterruptedException e) {
          return;
        }
        r.run();
      }, "strata-multiget-late");
      t.setDaemon(true);
      return t;
    });
    AtomicInteger ran = new AtomicInteger();
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<?> call = caller.submit(() -> {
        reads.runAll(8, i -> ran.incrementAndGet());
        return null;
      });
      // Deadlock detection only: the call needs no helper, so it must end with the gate shut.
      call.get(60, TimeUnit.SECONDS);
      assertEquals(8, ran.get(), "the caller ran every task");
      assertEquals(1, made.get(), "a helper was asked for");
      gate.countDown();
      reads.close();
      assertTrue(reads.awaitTermination(60_000), "the late helper ended");
      assertEquals(8, ran.get(), "the late helper ran no task");
    } finally {
      gate.countDown();
      reads.close();
      caller.shutdownNow();
    }
  }
}
