package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bytesReadFromDisk} counts what Gets and scans read, and nothing else; what opening tables
 * reads counts in {@code bytesReadAtOpen} (each table open added about 12 KB to
 * the Get counter). A flush opens no table (the manifest says all a version needs); {@code Db.open}
 * opens every table of the recovered version ahead of reads, as RocksDB does under {@code
 * max_open_files = -1}, so the first Get reads only the blocks it needs.
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
      assertEquals(0, afterFlushes.metadata().bytesReadAtOpen(), afterFlushes.toString());
    }
    try (Db db = Db.open(dir, options)) {
      assertEquals(3, db.seams().openTableReaders(), "the open opened every table");
      DbStats opened = db.stats();
      assertEquals(0, opened.bytesReadFromDisk(), opened.toString());
      assertTrue(opened.metadata().bytesReadAtOpen() > 0, opened.toString());
      assertTrue(opened.metadata().pinnedBytes() > 0,
          "open tables pin their index roots: " + opened);
      assertArrayEquals(b("v7"), db.get(b("k1-7")));
      DbStats afterGet = db.stats();
      assertTrue(afterGet.bytesReadFromDisk() > 0, afterGet.toString());
      assertEquals(opened.metadata().bytesReadAtOpen(), afterGet.metadata().bytesReadAtOpen(),
          "already open: " + afterGet);
      assertArrayEquals(b("v8"), db.get(b("k1-8")));
      DbStats again = db.stats();
      assertEquals(opened.metadata().bytesReadAtOpen(), again.metadata().bytesReadAtOpen(),
          "still open: " + again);
      assertTrue(again.bytesReadFromDisk() > afterGet.bytesReadFromDisk(), again.toString());
    }
  }

  @Test
  void boundedTableCache_opensAtMostAQuarterOfItsCapacityAhead() throws Exception {
    DbOptions options =
        DbOptions.builder().autoCompaction(false).blockCacheBytes(0).maxOpenFiles(16).build();
    try (Db db = Db.open(dir, options)) {
      for (int t = 0; t < 6; t++) {
        db.put(b("k" + t), b("v" + t));
        db.flush();
      }
    }
    try (Db db = Db.open(dir, options)) {
      assertEquals(4, db.seams().openTableReaders(), "16 / 4 tables opened ahead");
      for (int t = 0; t < 6; t++) {
        assertArrayEquals(b("v" + t), db.get(b("k" + t)));
      }
      assertEquals(6, db.seams().openTableReaders());
    }
  }

  /**
   * A table whose bytes are damaged but whose size is what the manifest records fails the reads
   * that need it, not the open (the open reads no table it need not); a table of another size fails
   * the open, as in RocksDB: a cut or grown file is data the open cannot account for.
   */
  @Test
  void damagedTable_failsItsReads_notTheOpen_aCutTableFailsTheOpen() throws Exception {
    DbOptions options = DbOptions.builder().autoCompaction(false).build();
    Path table;
    try (Db db = Db.open(dir, options)) {
      db.put(b("a"), b("1"));
      db.flush();
      db.put(b("b"), b("2"));
      db.flush();
    }
    try (Stream<Path> s = Files.list(dir)) {
      table = s.filter(p -> p.toString().endsWith(".sst")).sorted().findFirst().orElseThrow();
    }
    byte[] whole = Files.readAllBytes(table);
    byte[] damaged = whole.clone();
    Arrays.fill(damaged, damaged.length - 16, damaged.length, (byte) 0x5A); // the footer's magic
    Files.write(table, damaged);
    try (Db db = Db.open(dir, options)) {
      assertEquals(1, db.seams().openTableReaders(), "the undamaged table is open");
      assertThrows(CorruptionException.class, () -> db.get(b("a")));
      assertArrayEquals(b("2"), db.get(b("b")));
    }
    Files.write(table, new byte[] {1, 2, 3}); // shorter than a footer
    CorruptionException e = assertThrows(CorruptionException.class, () -> Db.open(dir, options));
    assertTrue(e.getMessage().contains(table.getFileName().toString()), e.getMessage());
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
