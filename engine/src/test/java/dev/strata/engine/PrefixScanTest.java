package dev.strata.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.read.PrefixScans;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prefix scans: the rows they return, and the tables the prefix filter lets them skip. */
final class PrefixScanTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  /** Eight level-0 tables, each holding the rows of two 4-byte prefixes ("t0aa", "t0bb", ...). */
  private static void fill(Db db) throws IOException {
    for (int t = 0; t < 8; t++) {
      for (String p : new String[] {"aa", "bb"}) {
        for (int i = 0; i < 20; i++) {
          db.put(b("t" + t + p + i), b("c"), b("v" + t + p + i));
        }
      }
      db.put(b("t" + t + "ab"), b("c"), b("mid"));
      db.flush();
    }
  }

  private static List<String> rows(CellScanner s) {
    List<String> out = new ArrayList<>();
    try (s) {
      s.forEachRemaining(c -> out.add(new String(c.row(), UTF_8)));
    }
    return out;
  }

  @Test
  void prefixFilter_skipsTablesWithoutThePrefix_andMissesNoRow() throws IOException {
    DbOptions options = DbOptions.builder().autoCompaction(false).prefixBloomLength(4).build();
    try (Db db = Db.open(dir, options)) {
      fill(db);
      DbStats before = db.stats();
      List<String> got = rows(db.scanPrefix(b("t3bb")));
      assertEquals(20, got.size());
      assertTrue(got.stream().allMatch(r -> r.startsWith("t3bb")), got.toString());
      DbStats after = db.stats();
      assertEquals(1, after.prefixScans().scans() - before.prefixScans().scans());
      // Only the table of t3's rows has a range meeting "t3bb"; the filter keeps it (it holds t3bb).
      assertEquals(1, after.prefixScans().tablesConsulted()
          - before.prefixScans().tablesConsulted());
      assertEquals(0, after.prefixScans().tablesSkipped() - before.prefixScans().tablesSkipped());
      // "t3ba" lies inside t3's table range but no row has that prefix: the filter skips it.
      before = db.stats();
      assertEquals(List.of(), rows(db.scanPrefix(b("t3ba"))));
      after = db.stats();
      assertEquals(1, after.prefixScans().tablesConsulted()
          - before.prefixScans().tablesConsulted());
      assertEquals(1, after.prefixScans().tablesSkipped() - before.prefixScans().tablesSkipped());
      // Longer prefixes use the filter too; shorter ones cannot.
      assertEquals(List.of("t3bb1", "t3bb10", "t3bb11", "t3bb12", "t3bb13", "t3bb14", "t3bb15",
          "t3bb16", "t3bb17", "t3bb18", "t3bb19"), rows(db.scanPrefix(b("t3bb1"))));
      before = db.stats();
      assertEquals(41, rows(db.scanPrefix(b("t3"))).size());
      after = db.stats();
      assertEquals(0, after.prefixScans().tablesSkipped() - before.prefixScans().tablesSkipped());
    }
  }

  @Test
  void withoutPrefixFilter_nothingIsSkipped_andResultsAreTheSame() throws IOException {
    try (Db db = Db.open(dir, DbOptions.builder().autoCompaction(false).build())) {
      fill(db);
      DbStats before = db.stats();
      assertEquals(List.of(), rows(db.scanPrefix(b("t3ba"))));
      assertEquals(20, rows(db.scanPrefix(b("t3bb"))).size());
      assertEquals(0, db.stats().prefixScans().tablesSkipped()
          - before.prefixScans().tablesSkipped());
    }
  }

  @Test
  void prefixFilter_recordedPerTable_survivesAnOptionChange() throws IOException {
    try (Db db = Db.open(dir, DbOptions.builder().autoCompaction(false).build())) {
      fill(db); // tables without a prefix length
    }
    DbOptions options = DbOptions.builder().autoCompaction(false).prefixBloomLength(4).build();
    try (Db db = Db.open(dir, options)) {
      DbStats before = db.stats();
      assertEquals(List.of(), rows(db.scanPrefix(b("t3ba"))));
      assertEquals(0, db.stats().prefixScans().tablesSkipped()
          - before.prefixScans().tablesSkipped(),
          "a table written without a prefix length is never skipped");
      db.compact(); // rewritten with the prefix length
      before = db.stats();
      assertEquals(List.of(), rows(db.scanPrefix(b("t3ba"))));
      assertEquals(20, rows(db.scanPrefix(b("t5aa"))).size());
      assertTrue(db.stats().prefixScans().tablesSkipped() - before.prefixScans().tablesSkipped()
          >= 1);
    }
  }

  @Test
  void deletes_andPrefixEdges() throws IOException {
    DbOptions options = DbOptions.builder().autoCompaction(false).prefixBloomLength(2).build();
    try (Db db = Db.open(dir, options)) {
      db.put(new byte[] {(byte) 0xff, (byte) 0xff}, b("c"), b("top"));
      db.put(new byte[] {(byte) 0xff, (byte) 0xff, 1}, b("c"), b("top2"));
      db.put(b("ab"), b("c"), b("1"));
      db.put(b("abc"), b("c"), b("2"));
      db.put(b("abd"), b("x"), b("3"));
      db.flush();
      db.deleteRow(b("abc"));
      assertEquals(List.of("ab", "abd"), rows(db.scanPrefix(b("ab"))));
      assertEquals(2, rows(db.scanPrefix(new byte[] {(byte) 0xff, (byte) 0xff})).size());
      assertEquals(5 - 1, rows(db.scanPrefix(new byte[0])).size(), "the empty prefix: every row");
      assertThrows(NullPointerException.class, () -> db.scanPrefix(null));
    }
  }

  @Test
  void end_isTheFirstRowAfterThePrefix() {
    assertEquals("ac", new String(PrefixScans.end(b("ab")), UTF_8));
    assertEquals(List.of((byte) 'b'), toList(PrefixScans.end(new byte[] {'a', (byte) 0xff})));
    assertNull(PrefixScans.end(new byte[] {(byte) 0xff}));
    assertNull(PrefixScans.end(new byte[0]));
  }

  private static List<Byte> toList(byte[] b) {
    List<Byte> out = new ArrayList<>();
    for (byte x : b) {
      out.add(x);
    }
    return out;
  }
}
