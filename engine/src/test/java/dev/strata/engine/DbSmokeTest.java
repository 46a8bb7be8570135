package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class DbSmokeTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void putGetFlushCompactReopen() throws Exception {
    DbOptions opts = DbOptions.builder().memtableBytes(4096).autoCompaction(false).build();
    try (Db db = Db.open(dir, opts)) {
      for (int i = 0; i < 500; i++) {
        db.put(b("row" + i), b("c"), b("v" + i));
      }
      db.deleteRow(b("row7"));
      db.delete(b("row8"), b("c"));
      db.flush();
      assertTrue(db.stats().tableCount() > 1, "memtable limit should have flushed several tables");
      assertArrayEquals(b("v9"), db.get(b("row9"), b("c")));
      assertNull(db.get(b("row7"), b("c")));
      assertNull(db.get(b("row8"), b("c")));
      db.compact();
      assertEquals(1, db.stats().tableCount());
      assertArrayEquals(b("v9"), db.get(b("row9"), b("c")));
      assertNull(db.get(b("row7"), b("c")));
      int n = 0;
      try (CellScanner s = db.scan(null, null)) {
        while (s.hasNext()) {
          s.next();
          n++;
        }
      }
      assertEquals(498, n);
      db.put(b("k"), b("unflushed"));
    }
    try (Db db = Db.open(dir, opts)) {
      assertArrayEquals(b("unflushed"), db.get(b("k")));
      assertArrayEquals(b("v499"), db.get(b("row499"), b("c")));
      assertNull(db.get(b("row7"), b("c")));
      assertEquals(1, db.getRow(b("row5")).size());
    }
  }
}
