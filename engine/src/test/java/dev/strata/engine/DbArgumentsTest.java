package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * API.md's argument rules for every public method of {@link Db}: null arguments, empty rows,
 * oversized rows, columns and values, calls after close, idempotent close, and the directory lock.
 * A rejected call changes nothing and leaves the database usable.
 */
final class DbArgumentsTest {
  private static final byte[] OK = b("ok");
  private static final byte[] EMPTY = new byte[0];
  private static final byte[] LONG_ROW = new byte[Db.MAX_ROW_LENGTH + 1];
  private static final byte[] LONG_COLUMN = new byte[Db.MAX_COLUMN_LENGTH + 1];

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void assertNpe(String argument, Executable call) {
    NullPointerException e = assertThrows(NullPointerException.class, call, argument);
    assertTrue(
        e.getMessage() != null && e.getMessage().contains(argument),
        "the message names " + argument + ": " + e.getMessage());
  }

  private static void assertIae(String limit, Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call, limit);
    assertTrue(
        e.getMessage() != null && e.getMessage().contains(limit),
        "the message names " + limit + ": " + e.getMessage());
  }

  /** The database as a list of described cells. */
  private static List<String> contents(Db db) throws IOException {
    return CellModel.scan(db, null, null);
  }

  private static Db withData(Path dir) throws IOException {
    Db db = Db.open(dir, DbOptions.builder().memtableBytes(4096).build());
    db.put(b("a"), b("1"));
    db.put(b("b"), b("c"), b("2"));
    db.flush();
    db.put(b("c"), b("c"), b("3"));
    return db;
  }

  @Test
  void everyMethod_nullArgument_throwsNpeNamingIt() throws IOException {
    assertNpe("dir", () -> Db.open(null));
    assertNpe("dir", () -> Db.open(null, DbOptions.defaults()));
    assertNpe("options", () -> Db.open(dir, null));
    try (Db db = withData(dir)) {
      List<String> before = contents(db);
      assertNpe("key", () -> db.put(null, OK));
      assertNpe("value", () -> db.put(OK, null));
      assertNpe("key", () -> db.get(null));
      assertNpe("key", () -> db.delete(null));
      assertNpe("row", () -> db.put(null, OK, OK));
      assertNpe("column", () -> db.put(OK, null, OK));
      assertNpe("value", () -> db.put(OK, OK, null));
      assertNpe("row", () -> db.get(null, OK));
      assertNpe("column", () -> db.get(OK, null));
      assertNpe("row", () -> db.delete(null, OK));
      assertNpe("column", () -> db.delete(OK, null));
      assertNpe("row", () -> db.deleteRow(null));
      assertNpe("row", () -> db.getRow(null));
      assertNpe("batch", () -> db.write(null));
      assertNpe("row", () -> new WriteBatch().put(null, OK, OK));
      assertNpe("column", () -> new WriteBatch().put(OK, null, OK));
      assertNpe("value", () -> new WriteBatch().put(OK, OK, null));
      assertNpe("row", () -> new WriteBatch().delete(null, OK));
      assertNpe("column", () -> new WriteBatch().delete(OK, null));
      assertNpe("row", () -> new WriteBatch().deleteRow(null));
      assertEquals(before, contents(db), "a rejected call changed the database");
      db.put(b("d"), b("4"));
      assertEquals(b("4").length, db.get(b("d")).length);
    }
  }

  @Test
  void everyMethod_emptyRow_throwsIaeNamingTheLimit() throws IOException {
    try (Db db = withData(dir)) {
      List<String> before = contents(db);
      assertIae("MAX_ROW_LENGTH", () -> db.put(EMPTY, OK));
      assertIae("MAX_ROW_LENGTH", () -> db.get(EMPTY));
      assertIae("MAX_ROW_LENGTH", () -> db.delete(EMPTY));
      assertIae("MAX_ROW_LENGTH", () -> db.put(EMPTY, OK, OK));
      assertIae("MAX_ROW_LENGTH", () -> db.get(EMPTY, OK));
      assertIae("MAX_ROW_LENGTH", () -> db.delete(EMPTY, OK));
      assertIae("MAX_ROW_LENGTH", () -> db.deleteRow(EMPTY));
      assertIae("MAX_ROW_LENGTH", () -> db.getRow(EMPTY));
      assertIae("MAX_ROW_LENGTH", () -> new WriteBatch().put(EMPTY, OK, OK));
      assertIae("MAX_ROW_LENGTH", () -> new WriteBatch().delete(EMPTY, OK));
      assertIae("MAX_ROW_LENGTH", () -> new WriteBatch().deleteRow(EMPTY));
      assertEquals(before, contents(db));
      // The empty column and the empty value are fine.
      db.put(OK, EMPTY, EMPTY);
      assertEquals(0, db.get(OK).length);
    }
  }

  @Test
  void everyMethod_oversizedArgument_throwsIaeNamingTheLimit() throws IOException {
    byte[] longValue = new byte[Db.MAX_VALUE_LENGTH + 1];
    try (Db db = withData(dir)) {
      List<String> before = contents(db);
      assertIae("MAX_ROW_LENGTH", () -> db.put(LONG_ROW, OK));
      assertIae("MAX_VALUE_LENGTH", () -> db.put(OK, longValue));
      assertIae("MAX_ROW_LENGTH", () -> db.get(LONG_ROW));
      assertIae("MAX_ROW_LENGTH", () -> db.delete(LONG_ROW));
      assertIae("MAX_ROW_LENGTH", () -> db.put(LONG_ROW, OK, OK));
      assertIae("MAX_COLUMN_LENGTH", () -> db.put(OK, LONG_COLUMN, OK));
      assertIae("MAX_VALUE_LENGTH", () -> db.put(OK, OK, longValue));
      assertIae("MAX_ROW_LENGTH", () -> db.get(LONG_ROW, OK));
      assertIae("MAX_COLUMN_LENGTH", () -> db.get(OK, LONG_COLUMN));
      assertIae("MAX_ROW_LENGTH", () -> db.delete(LONG_ROW, OK));
      assertIae("MAX_COLUMN_LENGTH", () -> db.delete(OK, LONG_COLUMN));
      assertIae("MAX_ROW_LENGTH", () -> db.deleteRow(LONG_ROW));
      assertIae("MAX_ROW_LENGTH", () -> db.getRow(LONG_ROW));
      assertIae("MAX_ROW_LENGTH", () -> new WriteBatch().put(LONG_ROW, OK, OK));
      assertIae("MAX_COLUMN_LENGTH", () -> new WriteBatch().put(OK, LONG_COLUMN, OK));
      assertIae("MAX_VALUE_LENGTH", () -> new WriteBatch().put(OK, OK, longValue));
      assertIae("MAX_ROW_LENGTH", () -> new WriteBatch().delete(LONG_ROW, OK));
      assertIae("MAX_COLUMN_LENGTH", () -> new WriteBatch().delete(OK, LONG_COLUMN));
      assertIae("MAX_ROW_LENGTH", () -> new WriteBatch().deleteRow(LONG_ROW));
      assertEquals(before, contents(db), "a rejected call changed the database");
      // The limits themselves are accepted, and the database still works.
      byte[] maxRow = new byte[Db.MAX_ROW_LENGTH];
      byte[] maxColumn = new byte[Db.MAX_COLUMN_LENGTH];
      maxRow[0] = 'z';
      db.put(maxRow, maxColumn, OK);
      db.flush();
      assertEquals(2, db.get(maxRow, maxColumn).length);
    }
    try (Db db = Db.open(dir)) {
      assertEquals(4, contents(db).size());
    }
  }

  @Test
  void batch_withOneBadEntry_isRejectedBeforeAnythingIsWritten() throws IOException {
    try (Db db = withData(dir)) {
      List<String> before = contents(db);
      WriteBatch batch = new WriteBatch().put(b("x"), OK, OK);
      assertIae("MAX_COLUMN_LENGTH", () -> batch.put(b("y"), LONG_COLUMN, OK));
      assertEquals(1, batch.size(), "the bad entry was not added");
      assertEquals(before, contents(db));
      db.write(batch);
      assertEquals(2, db.get(b("x"), OK).length);
    }
  }

  @Test
  void everyMethod_afterClose_throwsIllegalStateException() throws IOException {
    Db db = withData(dir);
    CellScanner open = db.scan(null, null);
    db.close();
    db.close(); // idempotent
    Map<String, Executable> calls =
        Map.ofEntries(
            Map.entry("put(key)", () -> db.put(OK, OK)),
            Map.entry("get(key)", () -> db.get(OK)),
            Map.entry("delete(key)", () -> db.delete(OK)),
            Map.entry("put", () -> db.put(OK, OK, OK)),
            Map.entry("get", () -> db.get(OK, OK)),
            Map.entry("delete", () -> db.delete(OK, OK)),
            Map.entry("deleteRow", () -> db.deleteRow(OK)),
            Map.entry("getRow", () -> db.getRow(OK)),
            Map.entry("write", () -> db.write(new WriteBatch().put(OK, OK, OK))),
            Map.entry("write(empty)", () -> db.write(new WriteBatch())),
            Map.entry("scan", () -> db.scan(null, null)),
            Map.entry("flush", db::flush),
            Map.entry("compact", db::compact),
            Map.entry("stats", db::stats));
    calls.forEach((name, call) -> assertThrows(IllegalStateException.class, call, name));
    db.close();
    // A scan opened before close was closed with the database: it refuses use, holds no file.
    assertThrows(IllegalStateException.class, open::hasNext);
    open.close();
    try (Db again = Db.open(dir)) {
      assertEquals(3, contents(again).size());
    }
  }

  @Test
  void open_sameDirectoryTwice_failsWithLockedIOException() throws IOException {
    try (Db db = Db.open(dir)) {
      IOException e = assertThrows(IOException.class, () -> Db.open(dir).close());
      assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("lock"), e.getMessage());
      db.put(OK, OK); // the first is unharmed
    }
    try (Db db = Db.open(dir)) {
      assertEquals(2, db.get(OK).length);
    }
  }
}
