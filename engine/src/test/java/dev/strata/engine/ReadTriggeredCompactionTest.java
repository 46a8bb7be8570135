package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-triggered compaction of level 0 (compaction.ReadTrigger): reads that waste their budget on
 * level 0 while writes are quiet compact it into level 1, once per state of level 0; writes, the
 * option set to 0 or auto compaction off keep it from running (a pending flush: ReadTriggerTest).
 *
 * <p>Level 0 holds two small tables spanning the same rows, without filters, so every absent Get
 * searches the blocks of both and charges 2, every seek positions on both and charges 2 (with a
 * filter, an absent Get charges only the tables whose filter admits it: {@link
 * #absentGets_thatFiltersTurnAway_chargeNothing}). The budget is the floor of 100 (the
 * tables are far below 100 x 16 KiB), and the one test thread checks it at every multiple of its
 * stride (6): the 51st Get or seek (102 charges) spends it, the 50th (100) does not yet. The counts
 * are exact; the only waiting is for the compaction thread to finish what the budget started.
 */
final class ReadTriggeredCompactionTest {
  private static final int ROWS_PER_TABLE = 500;

  @TempDir Path dir;

  @Test
  void absentGets_pastTheBudget_compactLevelZero_afterAReopen_once() throws Exception {
    try (Db db = Db.open(dir, options().build())) {
      fillTwoTables(db);
    }
    // As in dbbench: the fill in one process, the reads after reopening.
    try (Db db = Db.open(dir, options().build())) {
      awaitQuiet(db);
      assertEquals(2, levelZero(db), "the fill's level 0 survives the reopen");
      absentGets(db, 0, 50);
      assertFalse(db.backgroundWorkPending(), "100 charges: the budget is not spent yet");
      assertEquals(2, levelZero(db));
      assertEquals(0, db.stats().compactions().readTriggered());

      absentGets(db, 50, 1);
      assertTrue(db.backgroundWorkPending(), "102 charges: the spent budget is pending work");
      awaitQuiet(db);
      assertEquals(0, levelZero(db), "level 0 compacted: " + db.tablesPerLevel());
      assertTrue(db.tablesPerLevel().get(1) > 0, "into level 1: " + db.tablesPerLevel());
      assertEquals(1, db.stats().compactions().readTriggered());
      assertTrue(db.describe().contains("Read-triggered compactions: 1"), db.describe());
      assertEveryRowReads(db);

      // An empty level 0 wastes nothing: no second compaction, and a Get consults one table.
      DbStats before = db.stats();
      absentGets(db, 100, 500);
      awaitQuiet(db);
      DbStats after = db.stats();
      assertEquals(1, after.compactions().readTriggered(), "never twice for one state of level 0");
      assertEquals(500, after.tablesConsulted() - before.tablesConsulted(), "one table per Get");
    }
    try (Db db = Db.open(dir, options().build())) {
      assertEquals(0, levelZero(db), "the compaction is in the manifest");
      assertEveryRowReads(db);
    }
  }

  @Test
  void seeks_chargeTheLevelZeroTablesTheyPositionOn() throws Exception {
    try (Db db = Db.open(dir, options().build())) {
      fillTwoTables(db);
      try (CellCursor cursor = db.cursor()) {
        for (int i = 0; i < 50; i++) {
          cursor.seek(absentRow(i), new byte[0]);
          assertTrue(cursor.isValid());
        }
        assertFalse(db.backgroundWorkPending(), "100 charges: not yet");
        cursor.seek(absentRow(50), new byte[0]);
      }
      awaitQuiet(db);
      assertEquals(0, levelZero(db), db.tablesPerLevel().toString());
      assertEquals(1, db.stats().compactions().readTriggered());
      assertEveryRowReads(db);
    }
  }

  @Test
  void scansAndPrefixScans_chargeTheLevelZeroTablesTheyPositionOn() throws Exception {
    for (boolean prefix : new boolean[] {false, true}) {
      Path d = dir.resolve(prefix ? "prefix" : "range");
      try (Db db = Db.open(d, options().build())) {
        fillTwoTables(db);
        for (int i = 0; i < 51; i++) {
          byte[] from = row(100 + 2 * i);
          try (CellScanner cells =
              prefix ? db.scanPrefix(Arrays.copyOf(from, from.length - 1)) : db.scan(from, null)) {
            assertTrue(cells.hasNext());
            cells.next();
          }
          if (i == 49) {
            assertFalse(db.backgroundWorkPending(), "100 charges: not yet");
            assertEquals(2, levelZero(db));
          }
        }
        // A range both tables miss charges nothing.
        try (CellScanner none = db.scan(bytes("a"), bytes("b"))) {
          assertFalse(none.hasNext());
        }
        awaitQuiet(db);
        assertEquals(0, levelZero(db), db.tablesPerLevel().toString());
        assertEquals(1, db.stats().compactions().readTriggered());
        assertEveryRowReads(db);
      }
    }
  }

  @Test
  void multiGet_chargesEveryLevelZeroTableAKeyWasAskedOf() throws Exception {
    try (Db db = Db.open(dir, options().build())) {
      fillTwoTables(db);
      db.multiGet(absentRows(0, 49)); // 98 charges in one
      assertFalse(db.backgroundWorkPending(), "98 charges: not yet");
      db.multiGet(absentRows(49, 2));
      awaitQuiet(db);
      assertEquals(0, levelZero(db), db.tablesPerLevel().toString());
      assertEquals(1, db.stats().compactions().readTriggered());
      assertEveryRowReads(db);
    }
  }

  @Test
  void writesDuringTheWindow_openANewWindow_andQuietOnesCompact() throws Exception {
    // memtableBytes 1 MiB: a window stays quiet while the memtable grows by 64 KiB at most.
    try (Db db = Db.open(dir, options().build())) {
      fillTwoTables(db);
      for (int round = 0; round < 2; round++) {
        writeOutsideTheTables(db, round, 100 << 10);
        absentGets(db, 0, 51);
        awaitQuiet(db);
        assertEquals(2, levelZero(db), "writes kept coming: round " + round);
        assertEquals(0, db.stats().compactions().readTriggered());
      }
      absentGets(db, 0, 50); // the third window, with no write: 100 charges
      assertEquals(2, levelZero(db));
      absentGets(db, 50, 1);
      awaitQuiet(db);
      assertEquals(0, levelZero(db), db.tablesPerLevel().toString());
      assertEquals(1, db.stats().compactions().readTriggered());
      assertEveryRowReads(db);
      assertArrayEquals(value(7), db.get(bytes("w0-7")), "the memtable's writes stay readable");
    }
  }

  @Test
  void absentGets_thatFiltersTurnAway_chargeNothing() throws Exception {
    try (Db db = Db.open(dir, options().bloomType(BloomType.ROW).build())) {
      fillTwoTables(db);
      DbStats before = db.stats();
      absentGets(db, 0, 1000); // 2,000 level-0 probes, 20 times the budget of 100
      awaitQuiet(db);
      DbStats after = db.stats();
      long searched = after.bloomFalsePositives() - before.bloomFalsePositives();
      long turnedAway = after.tablesSkippedByBloom() - before.tablesSkippedByBloom();
      assertTrue(turnedAway > 1800, "the filters turned most probes away: " + turnedAway);
      // Only the false positives charge: fewer than the budget at 10 bits per key (about 1 %).
      assertTrue(searched < 100, "false positives: " + searched);
      assertEquals(2, levelZero(db), db.tablesPerLevel().toString());
      assertEquals(0, db.stats().compactions().readTriggered());
      // A seek is charged whatever the filters say: positioning reads both tables' blocks.
      try (CellCursor cursor = db.cursor()) {
        for (int i = 0; i < 51; i++) {
          cursor.seek(absentRow(i), new byte[0]);
        }
      }
      awaitQuiet(db);
      assertEquals(0, levelZero(db), db.tablesPerLevel().toString());
      assertEquals(1, db.stats().compactions().readTriggered());
      assertEveryRowReads(db);
    }
  }

  @Test
  void optionZero_orAutoCompactionOff_neverCompacts() throws Exception {
    for (DbOptions o :
        new DbOptions[] {
          options().readTriggeredCompactionBytesPerRead(0).build(),
          options().autoCompaction(false).build()
        }) {
      Path d = dir.resolve(o.compaction().autoCompaction() ? "zero" : "manual");
      try (Db db = Db.open(d, o)) {
        fillTwoTables(db);
        absentGets(db, 0, 1000);
        awaitQuiet(db);
        assertEquals(2, levelZero(db), o.toString());
        assertEquals(0, db.stats().compactions().readTriggered());
      }
    }
  }

  /**
   * Small tables without filters, so a Get searches every level-0 table whose range holds its row;
   * level0CompactionTrigger 8 keeps write-driven compaction away from level 0.
   */
  private static DbOptions.Builder options() {
    return DbOptions.builder()
        .memtableBytes(1 << 20)
        .level0CompactionTrigger(8)
        .bloomType(BloomType.NONE);
  }

  /** Two level-0 tables over the same span of rows: even row numbers, interleaved. */
  private static void fillTwoTables(Db db) throws IOException, InterruptedException {
    for (int t = 0; t < 2; t++) {
      for (int i = 0; i < ROWS_PER_TABLE; i++) {
        int n = 2 * (2 * i + t);
        db.put(row(n), value(n));
      }
      db.flush();
    }
    awaitQuiet(db);
    assertEquals(2, levelZero(db), db.tablesPerLevel().toString());
  }

  private static void absentGets(Db db, int from, int count) throws IOException {
    for (int i = from; i < from + count; i++) {
      assertNull(db.get(absentRow(i)));
    }
  }

  private static List<byte[]> absentRows(int from, int count) {
    List<byte[]> rows = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      rows.add(absentRow(i));
    }
    return rows;
  }

  /** An odd row inside both tables' span: neither holds it. */
  private static byte[] absentRow(int i) {
    return row(2 * (1 + i % (2 * ROWS_PER_TABLE - 2)) + 1);
  }

  private static void writeOutsideTheTables(Db db, int round, int bytes) throws IOException {
    byte[] v = new byte[1000];
    for (int i = 0; i * v.length < bytes; i++) {
      db.put(bytes("w" + round + "-" + i), i == 7 ? value(7) : v);
    }
  }

  private static void assertEveryRowReads(Db db) throws IOException {
    for (int n = 0; n < 4 * ROWS_PER_TABLE; n += 2) {
      assertArrayEquals(value(n), db.get(row(n)), "row " + n);
    }
  }

  private static int levelZero(Db db) {
    return db.tablesPerLevel().get(0);
  }

  private static byte[] row(int n) {
    return bytes(String.format("k%08d", n));
  }

  private static byte[] value(int n) {
    return bytes("value-" + n);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void awaitQuiet(Db db) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (db.backgroundWorkPending()) {
      assertTrue(System.nanoTime() < deadline, "background work did not quiesce in 60 s");
      Thread.sleep(5);
    }
  }
}
