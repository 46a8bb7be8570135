package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bytesReadFromDisk} counts what Gets and scans read, and nothing else; what opening tables
 * reads counts in {@code bytesReadAtOpen} (issue 11, item 7: each table open added about 12 KB to
 * the Get counter). Tables are opened by the table cache when a read first needs them: neither a
 * flush nor {@code Db.open} opens one (the manifest says all a version needs).
 */
final class OpenReadsStatsTest {
  @TempDir Path dir;

  @Test
  void tableOpens_countInBytesReadAtOpen_notInBytesReadFromDisk() throws Exception {
    DbOptions options = DbOptions.builder().autoCompaction(false).blockCacheBytes(0).build();
    try (Db db = Db.open(dir, options)) {
      for (int t = 0; t < 3; t++) {
        for (int i = 0; i < 200; i++) {
          db.put(b("k" + t + "-" + i), b("v" + i));
        }
        db.flush(); // writes the table; nothing opens it yet
      }
      DbStats afterFlushes = db.stats();
      assertEquals(3, afterFlushes.tableCount());
      assertEquals(0, afterFlushes.bytesReadFromDisk(), afterFlushes.toString());
      assertEquals(0, afterFlushes.bytesReadAtOpen(), afterFlushes.toString());
    }
    try (Db db = Db.open(dir, options)) {
      DbStats opened = db.stats();
      assertEquals(0, opened.bytesReadFromDisk(), opened.toString());
      assertEquals(0, opened.bytesReadAtOpen(), opened.toString());
      assertArrayEquals(b("v7"), db.get(b("k1-7")));
      DbStats afterGet = db.stats();
      assertTrue(afterGet.bytesReadFromDisk() > 0, afterGet.toString());
      assertTrue(afterGet.bytesReadAtOpen() > 0, "the Get opened the table: " + afterGet);
      assertArrayEquals(b("v8"), db.get(b("k1-8")));
      DbStats again = db.stats();
      assertEquals(afterGet.bytesReadAtOpen(), again.bytesReadAtOpen(), "still open: " + again);
      assertTrue(again.bytesReadFromDisk() > afterGet.bytesReadFromDisk(), again.toString());
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
