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
 * Issue 4's row-tombstone case in its plainest form (HBASE-2823): a cell in an older table, a
 * {@code deleteRow} of its row in a newer table whose (row, column) filter knows nothing of the cell,
 * auto compaction off. The cell must stay deleted for get, getRow and scan, after reopen and after
 * compaction, under every bloom type.
 */
final class RowTombstoneTest {
  private static final byte[] ROW = b("row-1");
  private static final byte[] COLUMN = b("col");
  private static final byte[] EMPTY = new byte[0];

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static DbOptions options(BloomType type) {
    return DbOptions.builder().bloomType(type).autoCompaction(false).build();
  }

  /** Other rows in both tables, so the tables' ranges cover ROW and their filters are not empty. */
  private static void neighbours(Db db, String tag) throws IOException {
    db.put(b("row-0"), COLUMN, b("a" + tag));
    db.put(b("row-2"), COLUMN, b("b" + tag));
  }

  private static void assertRowDeleted(Db db) throws IOException {
    assertNull(db.get(ROW, COLUMN), "get");
    assertTrue(db.getRow(ROW).isEmpty(), "getRow");
    assertEquals(
        List.of(
            CellModel.describe(b("row-0"), COLUMN, b("a2")),
            CellModel.describe(b("row-2"), COLUMN, b("b2"))),
        CellModel.scan(db, null, null),
        "scan");
    assertEquals(List.of(), CellModel.scan(db, ROW, b("row-2")), "scan of the row alone");
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void deleteRow_inNewerTable_hidesCellOfOlderTable(BloomType type) throws IOException {
    try (Db db = Db.open(dir, options(type))) {
      neighbours(db, "1");
      db.put(ROW, COLUMN, b("old"));
      db.flush();
      neighbours(db, "2");
      db.deleteRow(ROW);
      db.flush();
      assertEquals(List.of(2, 0, 0, 0, 0, 0, 0), db.tablesPerLevel());
      assertRowDeleted(db);
    }
    try (Db db = Db.open(dir, options(type))) {
      assertRowDeleted(db);
      db.compact();
      assertRowDeleted(db);
    }
    try (Db db = Db.open(dir, options(type))) {
      assertRowDeleted(db);
    }
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void deleteRow_inNewerTable_hidesEveryColumnIncludingEmpty(BloomType type) throws IOException {
    Db db = Db.open(dir, options(type));
    try {
      db.put(ROW, EMPTY, b("kv"));
      db.put(ROW, b("a"), b("1"));
      db.put(ROW, b("z"), b("2"));
      db.flush();
      db.put(b("row-9"), COLUMN, b("x"));
      db.deleteRow(ROW);
      db.flush();
      for (int round = 0; round < 3; round++) {
        assertNull(db.get(ROW), "get(key) in round " + round);
        assertNull(db.get(ROW, EMPTY));
        assertNull(db.get(ROW, b("a")));
        assertNull(db.get(ROW, b("z")));
        assertTrue(db.getRow(ROW).isEmpty());
        assertEquals(
            List.of(CellModel.describe(b("row-9"), COLUMN, b("x"))), CellModel.scan(db, null, null));
        if (round == 0) {
          db.close();
          db = Db.open(dir, options(type));
        } else {
          db.compact();
        }
      }
    } finally {
      db.close();
    }
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void putAfterDeleteRow_isVisible(BloomType type) throws IOException {
    Db db = Db.open(dir, options(type));
    try {
      db.put(ROW, COLUMN, b("old"));
      db.put(ROW, b("other"), b("gone"));
      db.flush();
      db.deleteRow(ROW);
      db.flush();
      db.put(ROW, COLUMN, b("new"));
      for (int round = 0; round < 4; round++) {
        assertArrayEquals(b("new"), db.get(ROW, COLUMN), "round " + round);
        assertNull(db.get(ROW, b("other")), "round " + round);
        assertEquals(
            List.of(CellModel.describe(ROW, COLUMN, b("new"))),
            CellModel.describeRow(ROW, db.getRow(ROW)));
        assertEquals(
            List.of(CellModel.describe(ROW, COLUMN, b("new"))), CellModel.scan(db, null, null));
        switch (round) {
          case 0 -> db.flush();
          case 1 -> {
            db.close();
            db = Db.open(dir, options(type));
          }
          case 2 -> db.compact();
          default -> {}
        }
      }
    } finally {
      db.close();
    }
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void emptyColumnCell_versusRowTombstone_newerWins(BloomType type) throws IOException {
    Db db = Db.open(dir, options(type));
    try {
      db.put(ROW, b("old"));
      db.put(ROW, COLUMN, b("c"));
      db.flush();
      db.deleteRow(ROW);
      db.flush();
      assertNull(db.get(ROW));
      db.put(ROW, b("new")); // same table as nothing else: a newer empty-column put
      db.flush();
      for (int round = 0; round < 3; round++) {
        assertArrayEquals(b("new"), db.get(ROW), "round " + round);
        assertNull(db.get(ROW, COLUMN), "round " + round);
        assertEquals(
            List.of(CellModel.describe(ROW, EMPTY, b("new"))),
            CellModel.describeRow(ROW, db.getRow(ROW)));
        assertEquals(List.of(CellModel.describe(ROW, EMPTY, b("new"))), CellModel.scan(db, null, null));
        if (round == 0) {
          db.close();
          db = Db.open(dir, options(type));
        } else {
          db.compact();
        }
      }
    } finally {
      db.close();
    }
  }

  @ParameterizedTest
  @EnumSource(BloomType.class)
  void emptyColumnPut_andDeleteRow_inOneMemtable_thenOlderCell(BloomType type) throws IOException {
    Db db = Db.open(dir, options(type));
    try {
      db.put(ROW, COLUMN, b("older table"));
      db.flush();
      // One table: the row tombstone sits behind a newer put of the empty column.
      db.deleteRow(ROW);
      db.put(ROW, b("kv"));
      db.flush();
      for (int round = 0; round < 3; round++) {
        assertNull(db.get(ROW, COLUMN), "round " + round);
        assertArrayEquals(b("kv"), db.get(ROW), "round " + round);
        assertEquals(
            List.of(CellModel.describe(ROW, EMPTY, b("kv"))),
            CellModel.describeRow(ROW, db.getRow(ROW)));
        assertEquals(List.of(CellModel.describe(ROW, EMPTY, b("kv"))), CellModel.scan(db, null, null));
        if (round == 0) {
          db.close();
          db = Db.open(dir, options(type));
        } else {
          db.put(b("zzz"), b("keeps a second table in the compaction"));
          db.flush();
          db.compact();
          db.delete(b("zzz"));
        }
      }
    } finally {
      db.close();
    }
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
      assertRowDeleted(db);
      db.compact();
      assertRowDeleted(db);
      assertEquals(1, db.stats().tableCount());
    }
  }
}
