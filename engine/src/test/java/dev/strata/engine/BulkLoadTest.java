package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bulk load defers level-0 compaction to its own trigger and lifts the level-0 stalls with it;
 * closing it compacts what it left without stopping the writes that follow. Reads are right
 * throughout.
 */
final class BulkLoadTest {
  private static final int KEYS = 4000;

  @TempDir Path dir;

  /** Compaction at 2 level-0 tables, writes slowed at 3 and stopped at 4. */
  private static DbOptions options() {
    return DbOptions.builder()
        .memtableBytes(64 << 10)
        .level0CompactionTrigger(2)
        .level0SlowdownTrigger(3)
        .level0StopTrigger(4)
        .build();
  }

  private static byte[] key(int i) {
    return String.format("key-%08d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static void awaitQuiet(Db db) throws InterruptedException {
    for (int i = 0; i < 30_000 && db.backgroundWorkPending(); i++) {
      Thread.sleep(1);
    }
    assertTrue(!db.backgroundWorkPending(), "background work never ended");
  }

  /** Writes KEYS keys in a seeded random order, flushing every {@code perFlush}; the model. */
  private static TreeMap<Integer, byte[]> load(Db db, int perFlush, long seed) throws Exception {
    TreeMap<Integer, byte[]> model = new TreeMap<>();
    Random r = new Random(seed);
    for (int n = 1; n <= KEYS; n++) {
      int k = r.nextInt(KEYS);
      byte[] v = ("v" + n).getBytes(StandardCharsets.UTF_8);
      db.put(key(k), v);
      model.put(k, v);
      if (n % perFlush == 0) {
        db.flush();
      }
    }
    return model;
  }

  private static void assertReads(Db db, TreeMap<Integer, byte[]> model) throws Exception {
    for (int k = 0; k < KEYS; k++) {
      assertArrayEquals(model.get(k), db.get(key(k)), "key " + k);
    }
  }

  @Test
  void aLoadDefersLevelZeroCompaction_withoutStalls_andItsEndCompactsWhatItLeft()
      throws Exception {
    try (Db db = Db.open(dir, options())) {
      TreeMap<Integer, byte[]> model;
      try (BulkLoad load = db.bulkLoad(12)) {
        assertEquals(12, load.level0CompactionTrigger());
        model = load(db, 400, 7); // 10 flushes, each spanning the key range
        awaitQuiet(db);
        assertEquals(10, db.tablesPerLevel().get(0), db.describe());
        assertEquals(0, db.writeStats().stops(), "a stop at the configured trigger");
        assertEquals(0, db.writeStats().slowdowns(), "a slowdown at the configured trigger");
        assertReads(db, model);
      }
      // Writes after the load are not stopped for the 10 tables it left, though 10 > 4.
      for (int i = 0; i < 200; i++) {
        byte[] v = ("after" + i).getBytes(StandardCharsets.UTF_8);
        db.put(key(i), v);
        model.put(i, v);
      }
      assertEquals(0, db.writeStats().stops());
      awaitQuiet(db);
      assertTrue(db.tablesPerLevel().get(0) < 2, db.describe());
      assertReads(db, model);
    }
  }

  @Test
  void aLoadCompactsLevelZeroAtItsOwnTrigger() throws Exception {
    try (Db db = Db.open(dir, options()); BulkLoad load = db.bulkLoad(5)) {
      TreeMap<Integer, byte[]> model = load(db, 400, 11);
      awaitQuiet(db);
      assertTrue(db.tablesPerLevel().get(0) < 5, db.describe());
      assertTrue(db.tablesPerLevel().size() > 1, db.describe());
      assertReads(db, model);
    }
  }

  @Test
  void aDatabaseALoadLeftPastItsStopTrigger_reopensWithALogToFlush_andCompactsIt() throws Exception {
    TreeMap<Integer, byte[]> model;
    try (Db db = Db.open(dir, options())) {
      BulkLoad load = db.bulkLoad(12);
      model = load(db, 400, 13);
      awaitQuiet(db);
      assertEquals(10, db.tablesPerLevel().get(0), db.describe());
      for (int i = 0; i < 300; i++) { // left in the log: the reopen below must flush it
        byte[] v = ("log" + i).getBytes(StandardCharsets.UTF_8);
        db.put(key(i), v);
        model.put(i, v);
      }
    } // closed with the load open: a load is not persisted
    DbOptions smaller = options().toBuilder().memtableBytes(4 << 10).build();
    try (Db db = Db.open(dir, smaller)) {
      awaitQuiet(db);
      assertTrue(db.tablesPerLevel().get(0) < 2, db.describe());
      assertReads(db, model);
    }
  }

  @Test
  void closingTwice_orAfterTheDatabase_isHarmless() throws Exception {
    Db db = Db.open(dir, options());
    BulkLoad a = db.bulkLoad(8);
    BulkLoad b = db.bulkLoad(8);
    a.close();
    a.close(); // idempotent: b's load stays open
    db.close();
    b.close();
  }

  @Test
  void misuse_isRejected() throws Exception {
    try (Db db = Db.open(dir, options())) {
      assertThrows(IllegalArgumentException.class, () -> db.bulkLoad(0));
      assertThrows(
          IllegalArgumentException.class,
          () -> db.bulkLoad(CompactionOptions.MAX_LEVEL0_COMPACTION_TRIGGER + 1));
    }
    try (Db db = Db.open(dir, DbOptions.builder().readOnly(true).build())) {
      assertThrows(IllegalStateException.class, () -> db.bulkLoad(8));
    }
    Db closed = Db.open(dir, options());
    closed.close();
    assertThrows(IllegalStateException.class, () -> closed.bulkLoad(8));
  }
}
