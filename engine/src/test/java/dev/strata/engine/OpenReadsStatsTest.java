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
 * reads (at open, and after each flush or compaction) counts in {@code bytesReadAtOpen} (issue 11,
 * item 7: each table open added about 12 KB to the Get counter).
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
        db.flush(); // opens the new table for reads
      }
      DbStats afterFlushes = db.stats();
      assertEquals(3, afterFlushes.tableCount());
      assertEquals(0, afterFlushes.bytesReadFromDisk(), afterFlushes.toString());
      assertTrue(afterFlushes.bytesReadAtOpen() > 0, afterFlushes.toString());
    }
    try (Db db = Db.open(dir, options)) {
      DbStats opened = db.stats();
      assertEquals(0, opened.bytesReadFromDisk(), opened.toString());
      assertTrue(opened.bytesReadAtOpen() > 0, opened.toString());
      assertArrayEquals(b("v7"), db.get(b("k1-7")));
      DbStats afterGet = db.stats();
      assertTrue(afterGet.bytesReadFromDisk() > 0, afterGet.toString());
      assertEquals(opened.bytesReadAtOpen(), afterGet.bytesReadAtOpen(), afterGet.toString());
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
