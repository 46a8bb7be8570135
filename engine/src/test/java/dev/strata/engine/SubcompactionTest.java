package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FileLayer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Level-0 compactions cut into parallel key-range jobs: the store agrees with a sorted-map model
 * across them, the jobs' outputs keep each level disjoint (the version's invariants, asserted on
 * every install), and a job that fails leaves the store as it was, with nothing lost.
 */
final class SubcompactionTest {
  private static final int KEYS = 3_000;
  private static final int OPS = 30_000;

  @TempDir Path dir;

  private static final DbOptions OPTIONS =
      DbOptions.builder()
          .memtableBytes(24 << 10)
          .targetFileSizeBytes(4 << 10)
          .maxBytesForLevelBase(32 << 10)
          .blockSizeBytes(512)
          .maxSubcompactions(4)
          .build();

  @Test
  void subcompactionsAgreeWithAModel() throws IOException {
    long seed = System.nanoTime();
    System.out.println("SubcompactionTest seed " + seed);
    Random r = new Random(seed);
    Set<String> threads = ConcurrentHashMap.newKeySet();
    FileLayer files = new TableCreationHook(table -> threads.add(Thread.currentThread().getName()));
    TreeMap<String, byte[]> model = new TreeMap<>();
    try (Db db = Db.open(dir, OPTIONS, EngineHooks.NONE.withFileLayer(files))) {
      write(db, model, r, OPS);
      flush(db);
      awaitQuiet(db);
      assertTrue(
          threads.stream().anyMatch(t -> t.startsWith("strata-subcompaction-")),
          "seed " + seed + ": no table written by a subcompaction: " + threads);
      assertAgrees(db, model, "seed " + seed);
    }
    try (Db db = Db.open(dir, OPTIONS)) {
      assertAgrees(db, model, "seed " + seed + ", reopened");
    }
  }

  @Test
  void aFailedSubcompactionLosesNothingAndIsRetried() throws IOException {
    long seed = System.nanoTime();
    System.out.println("SubcompactionTest seed " + seed);
    Random r = new Random(seed);
    AtomicBoolean failed = new AtomicBoolean();
    AtomicInteger subcompactionTables = new AtomicInteger();
    // The third table a subcompaction thread creates fails: not a job's first, so other jobs of
    // that compaction have outputs to delete too.
    FileLayer files =
        new TableCreationHook(
            table -> {
              if (Thread.currentThread().getName().startsWith("strata-subcompaction-")
                  && subcompactionTables.incrementAndGet() == 3) {
                failed.set(true);
                throw new IOException("injected: a subcompaction fails");
              }
            });
    TreeMap<String, byte[]> model = new TreeMap<>();
    try (Db db = Db.open(dir, OPTIONS, EngineHooks.NONE.withFileLayer(files))) {
      write(db, model, r, OPS);
      flush(db);
      awaitQuiet(db);
      assertTrue(failed.get(), "seed " + seed + ": no subcompaction reached the fault");
      assertAgrees(db, model, "seed " + seed);
    }
    try (Db db = Db.open(dir, OPTIONS)) {
      assertAgrees(db, model, "seed " + seed + ", reopened");
    }
  }

  private static void write(Db db, TreeMap<String, byte[]> model, Random r, int ops)
      throws IOException {
    for (int i = 0; i < ops; i++) {
      String key = String.format("key%06d", r.nextInt(KEYS));
      byte[] value = null;
      if (r.nextInt(10) != 0) {
        value = new byte[8 + r.nextInt(40)];
        r.nextBytes(value);
      }
      while (!tryWrite(db, key, value)) {
        sleep(); // a write waiting for a failing compaction fails; the compaction is retried
      }
      if (value == null) {
        model.remove(key);
      } else {
        model.put(key, value);
      }
    }
  }

  /** Puts (or with a null value deletes) {@code key}; false when refused while work is retried. */
  private static boolean tryWrite(Db db, String key, byte[] value) throws IOException {
    try {
      if (value == null) {
        db.delete(b(key));
      } else {
        db.put(b(key), value);
      }
      return true;
    } catch (IOException e) {
      if (e.getMessage().contains("being retried")) {
        return false;
      }
      throw e;
    }
  }

  private static void flush(Db db) throws IOException {
    while (true) {
      try {
        db.flush();
        return;
      } catch (IOException e) {
        if (!e.getMessage().contains("being retried")) {
          throw e;
        }
        sleep();
      }
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void assertAgrees(Db db, TreeMap<String, byte[]> model, String context)
      throws IOException {
    for (int k = 0; k < KEYS; k++) {
      String key = String.format("key%06d", k);
      assertArrayEquals(model.get(key), db.get(b(key)), context + ": " + key);
    }
    Iterator<Map.Entry<String, byte[]>> expected = model.entrySet().iterator();
    try (CellScanner scan = db.scan(null, null)) {
      while (scan.hasNext()) {
        Cell c = scan.next();
        assertTrue(expected.hasNext(), context + ": extra cell");
        Map.Entry<String, byte[]> e = expected.next();
        assertEquals(e.getKey(), new String(c.row(), StandardCharsets.UTF_8), context);
        assertArrayEquals(e.getValue(), c.value(), context);
      }
    }
    assertFalse(expected.hasNext(), context + ": cells missing from the scan");
  }

  private static void awaitQuiet(Db db) {
    long deadline = System.nanoTime() + 60_000_000_000L; // a hang guard, not a timing check
    while (db.backgroundWorkPending()) {
      assertTrue(System.nanoTime() < deadline, "background work did not finish in 60 s");
      sleep();
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aCrashInTheMiddleOfASubcompactionLosesNoAcknowledgedWrite() throws Exception {
    long seed = System.nanoTime();
    System.out.println("SubcompactionTest seed " + seed);
    Path db = dir.resolve("crash");
    Path stderr = dir.resolve("child.err");
    Process p =
        ChildJvm.start(SubcompactionCrashChild.class, stderr, db.toString(), Long.toString(seed));
    long lastAck = -1;
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        long id = Long.parseLong(line);
        assertEquals(lastAck + 1, id, "acknowledgements out of order");
        lastAck = id;
      }
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child did not end"); // a hang guard
    } finally {
      p.destroyForcibly();
    }
    String context = "seed " + seed + ", " + (lastAck + 1) + " steps acknowledged";
    assertEquals(
        SubcompactionCrashChild.HALTED,
        p.exitValue(),
        context + ": the child did not halt in a subcompaction: " + Files.readString(stderr));

    CellModel acknowledged = new CellModel();
    for (long id = 0; id <= lastAck; id++) {
      CrashWorkload.step(seed, id).applyTo(acknowledged);
    }
    CellModel withInFlight = acknowledged.copy();
    CrashWorkload.step(seed, lastAck + 1).applyTo(withInFlight);
    DbOptions options = CrashWorkload.options().toBuilder().maxSubcompactions(3).build();
    try (Db reopened = Db.open(db, options)) {
      List<String> found = CellModel.scan(reopened, null, null);
      if (!found.equals(withInFlight.scan(null, null))) {
        assertEquals(acknowledged.scan(null, null), found, context);
      }
      reopened.compact(); // the tables the crash left behind are whole and compact
      assertEquals(found, CellModel.scan(reopened, null, null), context + ", compacted");
    }
  }
}
