package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The row-tombstone case in its plainest form (HBASE-2823): a cell in an older table, a
 * {@code deleteRow} of its row in a newer table whose (row, column) filter knows nothing of the cell,
 * auto compaction off. The cell must stay deleted for get, getRow and scan, after reopen and after
 * compaction, under every bloom type.
 */
final class RowTombstoneTest {
  private static final byte[] ROW = b("row-1");
  private static final byte[] COLUMN = b("col");
  private static final byte[] EMPTY = new byte[0];
  /** A row after every other, written only to give a compaction a second table. */
  private static final byte[] MARKER = b("zzz-marker");

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Writes that set a case up. */
  @FunctionalInterface
  private interface Writes {
    void apply(Db db) throws IOException;
  }

  /** An assertion about the database's contents, told in which state it runs. */
  @FunctionalInterface
  private interface Check {
    void holds(Db db, String state) throws IOException;
  }

  private static DbOptions options(BloomType type) {
    return DbOptions.builder().bloomType(type).autoCompaction(false).build();
  }

  /** Other rows in both tables, so the tables' ranges cover ROW and their filters are not empty. */
  private static void neighbours(Db db, String tag) throws IOException {
    db.put(b("row-0"), COLUMN, b("a" + tag));
    db.put(b("row-2"), COLUMN, b("b" + tag));
  }

  private static void assertRowDeleted(Db db, String state) throws IOException {
    assertNull(db.get(ROW, COLUMN), "get " + state);
    assertTrue(db.getRow(ROW).isEmpty(), "getRow " + state);
    assertEquals(
        List.of(
            CellModel.describe(b("row-0"), COLUMN, b("a2")),
            CellModel.describe(b("row-2"), COLUMN, b("b2"))),
        CellModel.scan(db, null, null),
        "scan " + state);
    assertEquals(List.of(), CellModel.scan(db, ROW, b("row-2")), "scan of the row alone " + state);
  }

  /**
   * Applies {@code writes} to a new database, then runs {@code check} on it as written, after a
   * reopen and after a compaction: the states a row tombstone must survive. The compaction merges
   * with one more table (a marker row, deleted afterwards), so the tables are rewritten rather than
   * moved down unchanged.
   */
  private void assertAcrossReopenAndCompaction(BloomType type, Writes writes, Check check)
      throws IOException {
    try (Db db = Db.open(dir, options(type))) {
      writes.apply(db);
      check.holds(db, "as written");
    }
    try (Db reopened = Db.open(dir, options(type))) {
      check.holds(reopened, "after reopen");
      reopened.put(MARKER, b("keeps a second table in the compaction"));
      reopened.flush();
      reopened.compact();
      reopened.delete(MARKER);
      check.holds(reopened, "after compaction");
    }
    try (Db reopened = Db.open(dir, options(type))) {
      check.holds(reopened, "after compaction and reopen");
    }
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void deleteRow_inNewerTable_hidesCellOfOlderTable(BloomType type) throws IOException {
    assertAcrossReopenAndCompaction(
        type,
        db -> {
          neighbours(db, "1");
          db.put(ROW, COLUMN, b("old"));
          db.flush();
          neighbours(db, "2");
          db.deleteRow(ROW);
          db.flush();
          assertEquals(List.of(2, 0, 0, 0, 0, 0, 0), db.tablesPerLevel());
        },
        RowTombstoneTest::assertRowDeleted);
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void deleteRow_inNewerTable_hidesEveryColumnIncludingEmpty(BloomType type) throws IOException {
    assertAcrossReopenAndCompaction(
        type,
        db -> {
          db.put(ROW, EMPTY, b("kv"));
          db.put(ROW, b("a"), b("1"));
          db.put(ROW, b("z"), b("2"));
          db.flush();
          db.put(b("row-9"), COLUMN, b("x"));
          db.deleteRow(ROW);
          db.flush();
        },
        (d, state) -> {
          assertNull(d.get(ROW), "get(key) " + state);
          assertNull(d.get(ROW, EMPTY), state);
          assertNull(d.get(ROW, b("a")), state);
          assertNull(d.get(ROW, b("z")), state);
          assertTrue(d.getRow(ROW).isEmpty(), state);
          assertEquals(
              List.of(CellModel.describe(b("row-9"), COLUMN, b("x"))),
              CellModel.scan(d, null, null),
              state);
        });
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void putAfterDeleteRow_isVisible(BloomType type) throws IOException {
    Check onlyTheNewCell =
        (d, state) -> {
          assertArrayEquals(b("new"), d.get(ROW, COLUMN), state);
          assertNull(d.get(ROW, b("other")), state);
          List<String> expected = List.of(CellModel.describe(ROW, COLUMN, b("new")));
          assertEquals(expected, CellModel.describeRow(ROW, d.getRow(ROW)), state);
          assertEquals(expected, CellModel.scan(d, null, null), state);
        };
    assertAcrossReopenAndCompaction(
        type,
        db -> {
          db.put(ROW, COLUMN, b("old"));
          db.put(ROW, b("other"), b("gone"));
          db.flush();
          db.deleteRow(ROW);
          db.flush();
          db.put(ROW, COLUMN, b("new"));
          onlyTheNewCell.holds(db, "in the memtable");
          db.flush();
        },
        onlyTheNewCell);
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void emptyColumnCell_versusRowTombstone_newerWins(BloomType type) throws IOException {
    assertAcrossReopenAndCompaction(
        type,
        db -> {
          db.put(ROW, b("old"));
          db.put(ROW, COLUMN, b("c"));
          db.flush();
          db.deleteRow(ROW);
          db.flush();
          assertNull(db.get(ROW));
          db.put(ROW, b("new")); // a table of its own: a newer empty-column put
          db.flush();
        },
        onlyEmptyColumn(b("new")));
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void emptyColumnPut_andDeleteRow_inOneMemtable_thenOlderCell(BloomType type) throws IOException {
    assertAcrossReopenAndCompaction(
        type,
        db -> {
          db.put(ROW, COLUMN, b("older table"));
          db.flush();
          // One table: the row tombstone sits behind a newer put of the empty column.
          db.deleteRow(ROW);
          db.put(ROW, b("kv"));
          db.flush();
        },
        onlyEmptyColumn(b("kv")));
  }

  /** ROW holds only its empty column, with {@code value}: the row tombstone hid every other. */
  private static Check onlyEmptyColumn(byte[] value) {
    return (d, state) -> {
      assertArrayEquals(value, d.get(ROW), state);
      assertNull(d.get(ROW, COLUMN), state);
      List<String> expected = List.of(CellModel.describe(ROW, EMPTY, value));
      assertEquals(expected, CellModel.describeRow(ROW, d.getRow(ROW)), state);
      assertEquals(expected, CellModel.scan(d, null, null), state);
    };
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void deleteRow_inDeeperLevel_stillHidesOlderCellBelowIt(BloomType type) throws IOException {
    try (Db db = Db.open(dir, options(type))) {
      db.put(ROW, COLUMN, b("bottom"));
      db.compact(); // last level
      db.deleteRow(ROW);
      db.put(b("row-0"), COLUMN, b("a2"));
      db.put(b("row-2"), COLUMN, b("b2"));
      db.flush(); // level 0 above it
      assertRowDeleted(db, "level 0 over the last level");
      db.compact();
      assertRowDeleted(db, "compacted");
      assertEquals(1, db.stats().tableCount());
    }
  }
}
