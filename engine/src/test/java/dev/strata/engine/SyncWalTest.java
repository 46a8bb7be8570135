package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strata.engine.fs.FaultyFileLayer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Db#syncWal}: writes acknowledged before it survive a power loss that takes every byte not
 * forced (through {@link FaultyFileLayer}), those of a frozen memtable whose flush has not forced
 * its log included, also after writers, flushes and syncs ran at once; it fails like every other
 * call once the database is closed, and a failed fsync stops writes.
 *
 * <p>Seeded: the seed is printed, and {@code -Dstrata.seed=N} replays a run.
 */
@Timeout(120)
final class SyncWalTest {
  @TempDir Path dir;

  private static final long SEED = Long.getLong("strata.seed", System.nanoTime());

  static {
    System.out.println("SyncWalTest seed=" + SEED);
  }

  @Test
  void syncWal_thenPowerLoss_keepsEveryWriteBeforeIt_theFrozenMemtablesLogsToo() throws Exception {
    Random random = new Random(SEED);
    for (int round = 0; round < 8; round++) {
      Path db = dir.resolve("round-" + round);
      FaultyFileLayer files = new FaultyFileLayer();
      // The flush thread can neither force a frozen memtable's log nor write its table: its
      // writes are in the log alone, and only syncWal forces them.
      files.failForces(f -> FaultyFileLayer.isLog(f) && flushThread());
      CountDownLatch flushes = new CountDownLatch(1);
      DbOptions options =
          DbOptions.builder().syncWrites(false).memtableBytes(128 << 10).autoCompaction(false).build();
      // A put takes about 150 bytes of memtable: one switch after about 850 puts, the next after
      // about 1,700 (a third would wait for the held flush).
      int synced = 1000 + random.nextInt(300);
      int written = synced + 1 + random.nextInt(200);
      String context = "seed=" + SEED + " round=" + round + " synced=" + synced;
      Db d = Db.open(db, options, EngineHooks.NONE.withFileLayer(files));
      try {
        d.seams().beforeEachFlush(() -> await(flushes));
        for (int i = 0; i < written; i++) {
          d.put(key(i), value(i));
          if (i + 1 == synced) {
            assertEquals(2, logs(db), context + ": a frozen memtable's log and the current one");
            d.syncWal();
          }
        }
        context += " damage=" + files.powerLoss(random);
      } finally {
        flushes.countDown();
        closeAfterPowerLoss(d);
      }
      try (Db reopened = Db.open(db, options)) {
        int kept = keptPrefix(reopened, written, context);
        assertTrue(kept >= synced, context + ": kept " + kept + " writes, " + synced + " synced");
      }
    }
  }

  @Test
  void syncWal_withWritersAndFlushesRunning_vouchesForWhatWasAcknowledgedBeforeIt()
      throws Exception {
    Random random = new Random(SEED);
    for (int round = 0; round < 4; round++) { // each round's loss may spare what it vouched for
      concurrentRound(dir.resolve("round-" + round), random);
    }
  }

  private static void concurrentRound(Path dir, Random random) throws Exception {
    FaultyFileLayer files = new FaultyFileLayer();
    DbOptions options =
        DbOptions.builder()
            .syncWrites(false)
            .memtableBytes(128 << 10) // a few switches; the last memtable's writes in its log
            .level0CompactionTrigger(2)
            .targetFileSizeBytes(64 << 10)
            .build();
    int writers = 3;
    AtomicLongArray acked = new AtomicLongArray(writers); // puts each writer saw return
    AtomicReference<long[]> durable = new AtomicReference<>(new long[writers]);
    AtomicBoolean stop = new AtomicBoolean();
    List<Throwable> unexpected = new ArrayList<>();
    Db db = Db.open(dir, options, EngineHooks.NONE.withFileLayer(files));
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int writer = w;
      threads.add(
          new Thread(
              () -> {
                try {
                  for (long i = 0; !stop.get(); i++) {
                    db.put(key(writer, i), value(writer, i));
                    acked.set(writer, i + 1);
                  }
                } catch (IOException | IllegalStateException e) {
                  expectPowerLoss(files, e, unexpected);
                }
              },
              "writer-" + w));
    }
    int syncers = 2;
    CountDownLatch syncs = new CountDownLatch(syncers * 150);
    for (int s = 0; s < syncers; s++) {
      threads.add(
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    long[] before = new long[writers];
                    for (int w = 0; w < writers; w++) {
                      before[w] = acked.get(w);
                    }
                    db.syncWal();
                    durable.accumulateAndGet(before, SyncWalTest::max);
                    if (Arrays.stream(before).allMatch(n -> n > 0)) {
                      syncs.countDown(); // counts the syncs that vouch for every writer
                    }
                  }
                } catch (IOException | IllegalStateException e) {
                  expectPowerLoss(files, e, unexpected);
                }
              },
              "syncer-" + s));
    }
    threads.forEach(Thread::start);
    syncs.await();
    for (int w = 0; w < writers; w++) {
      while (acked.get(w) < 3000 && threads.get(w).isAlive()) {
        Thread.sleep(5); // enough writes that the logs switch and flush underneath
      }
    }
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    // The power goes once the flushes and compactions are done: one caught between a manifest
    // record's write and its fsync could leave that record damaged (a hole in an unforced write),
    // which the manifest's rules rightly take for corruption, not for a torn tail. The logs still
    // hold what the writers appended after the last syncWal, unforced.
    while (db.backgroundWorkPending()) {
      Thread.sleep(5);
    }
    String damage = files.powerLoss(random).toString();
    closeAfterPowerLoss(db);
    synchronized (unexpected) {
      if (!unexpected.isEmpty()) {
        throw new AssertionError("seed=" + SEED, unexpected.get(0));
      }
    }
    long[] vouched = durable.get();
    String context = "seed=" + SEED + " damage=" + damage;
    try (Db reopened = Db.open(dir, options)) {
      for (int w = 0; w < writers; w++) {
        assertTrue(vouched[w] > 0, context + ": writer " + w + " had nothing synced");
        for (long i = 0; i < vouched[w]; i++) {
          byte[] v = reopened.get(key(w, i));
          if (v == null) {
            fail(context + ": writer " + w + " lost put " + i + " of " + vouched[w] + " synced");
          }
          assertArrayEquals(value(w, i), v, context);
        }
      }
    }
  }

  @Test
  void syncWal_closedOrReadOnly_throwsIllegalState() throws Exception {
    Db db = Db.open(dir);
    db.put(b("k"), b("v"));
    db.syncWal();
    db.close();
    assertThrows(IllegalStateException.class, db::syncWal);
    try (Db readOnly = Db.open(dir, DbOptions.builder().readOnly(true).build())) {
      assertThrows(IllegalStateException.class, readOnly::syncWal);
    }
  }

  @Test
  void syncWal_withAnInterruptPending_forcesTheLogAndLeavesTheFlagSet() throws Exception {
    FaultyFileLayer files = new FaultyFileLayer();
    try (Db db = Db.open(dir, DbOptions.defaults(), EngineHooks.NONE.withFileLayer(files))) {
      db.put(b("k"), b("v"));
      Thread.currentThread().interrupt();
      try {
        db.syncWal();
        assertTrue(Thread.currentThread().isInterrupted(), "the interrupt flag was cleared");
      } finally {
        Thread.interrupted();
      }
      files.powerLoss(new Random(SEED));
    } catch (IOException | IllegalStateException e) {
      assertTrue(files.crashed(), "failed without a power loss: " + e);
    }
    try (Db db = Db.open(dir)) {
      assertArrayEquals(b("v"), db.get(b("k")));
    }
  }

  @Test
  void syncWal_whoseFsyncFails_stopsWritesUntilReopen() throws Exception {
    FaultyFileLayer files = new FaultyFileLayer();
    try (Db db = Db.open(dir, DbOptions.defaults(), EngineHooks.NONE.withFileLayer(files))) {
      db.put(b("k"), b("v"));
      files.failForces(FaultyFileLayer::isLog);
      IOException e = assertThrows(IOException.class, db::syncWal);
      assertTrue(e.getMessage().contains("injected fsync failure"), e.getMessage());
      assertThrows(IOException.class, () -> db.put(b("k2"), b("v2")));
      assertThrows(IOException.class, db::syncWal);
      assertArrayEquals(b("v"), db.get(b("k")), "reads go on");
      files.failForces(f -> false);
    }
    try (Db db = Db.open(dir)) {
      assertArrayEquals(b("v"), db.get(b("k")));
      db.put(b("k2"), b("v2"));
      db.syncWal();
    }
  }

  @Test
  void syncWal_underSyncWrites_forcesNothingMore() throws Exception {
    FaultyFileLayer files = new FaultyFileLayer();
    List<String> forced = new ArrayList<>();
    files.failForces(
        f -> {
          synchronized (forced) {
            forced.add(f.getFileName().toString());
          }
          return false;
        });
    DbOptions options = DbOptions.builder().syncWrites(true).build();
    try (Db db = Db.open(dir, options, EngineHooks.NONE.withFileLayer(files))) {
      db.put(b("k"), b("v"));
      int before;
      synchronized (forced) {
        before = forced.size();
      }
      db.syncWal();
      synchronized (forced) {
        assertEquals(before, forced.size(), "forced again: " + forced);
      }
    }
  }

  private static long logs(Path db) throws IOException {
    try (Stream<Path> files = Files.list(db)) {
      return files.filter(FaultyFileLayer::isLog).count();
    }
  }

  /** The writes of {@code written} present: a prefix, each with its value. */
  private static int keptPrefix(Db db, int written, String context) throws IOException {
    int kept = 0;
    for (int i = 0; i < written; i++) {
      byte[] v = db.get(key(i));
      if (v == null) {
        break;
      }
      assertArrayEquals(value(i), v, context + ": put " + i);
      kept = i + 1;
    }
    for (int i = kept + 1; i < written; i++) {
      if (db.get(key(i)) != null) {
        fail(context + ": put " + i + " survived after put " + kept + " was lost");
      }
    }
    return kept;
  }

  private static void closeAfterPowerLoss(Db db) {
    try {
      db.close();
    } catch (IOException | RuntimeException e) {
      // the machine is gone: the close's writes fail
    }
  }

  private static void expectPowerLoss(
      FaultyFileLayer files, Exception e, List<Throwable> unexpected) {
    if (!files.crashed()) {
      synchronized (unexpected) {
        unexpected.add(e);
      }
    }
  }

  private static boolean flushThread() {
    return Thread.currentThread().getName().startsWith("strata-flush");
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static long[] max(long[] a, long[] b) {
    long[] m = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      m[i] = Math.max(a[i], b[i]);
    }
    return m;
  }

  private static byte[] key(int i) {
    return b(String.format("k%06d", i));
  }

  private static byte[] value(int i) {
    return b("value-" + i + "-" + "x".repeat(100));
  }

  private static byte[] key(int writer, long i) {
    return b("w" + writer + "-" + i);
  }

  private static byte[] value(int writer, long i) {
    return b(writer + "/" + i + "/" + "y".repeat(40));
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
