package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.TableReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's half of "nothing the writer produces is something the reader rejects"
 * (TableLimitTest is the table's), its batch scaled down against a 4 KiB limit instead of the
 * 1 GiB a reader accepts: one acknowledged batch whose flush would build a table
 * with too large an index becomes several tables, each of which opens; so do the outputs of the
 * compaction after it, and every open after that succeeds.
 */
final class TableLimitFlushTest {
  @TempDir Path dir;

  /** Small enough that the top level of a two-level index (about 30 bytes a partition) fills. */
  private static final int LIMIT = 4 << 10;

  @Test
  void batchTooLargeForOneTable_flushesAndCompactsIntoTablesThatAllOpen() throws Exception {
    DbOptions options =
        DbOptions.builder()
            .blockSizeBytes(DataBlockOptions.MIN_BLOCK_SIZE_BYTES)
            .autoCompaction(false)
            .build();
    EngineHooks hooks = EngineHooks.NONE.withMaxTableBlockBytes(LIMIT);
    int puts = 6000; // rows and columns of 400 bytes; a compact index shares their prefixes
    try (Db db = Db.open(dir, options, hooks)) {
      WriteBatch batch = new WriteBatch();
      for (int i = 0; i < puts; i++) {
        batch.put(row(i), column(i), new byte[] {(byte) i});
      }
      db.write(batch);
      db.flush();
      assertTrue(db.stats().tableCount() > 1, "one table: " + db.stats());
      assertAllTablesOpenWithin(LIMIT);
      db.compact();
      assertTrue(db.stats().tableCount() > 1);
      assertAllTablesOpenWithin(LIMIT);
      assertArrayEquals(new byte[] {(byte) 321}, db.get(row(321), column(321)));
    }
    try (Db db = Db.open(dir, options, hooks)) {
      int n = 0;
      try (CellScanner cells = db.scan(null, null)) {
        while (cells.hasNext()) {
          cells.next();
          n++;
        }
      }
      assertEquals(puts, n);
    }
  }

  private void assertAllTablesOpenWithin(int limit) throws Exception {
    List<Path> tables;
    try (Stream<Path> s = Files.list(dir)) {
      tables = s.filter(p -> p.toString().endsWith(".sst")).toList();
    }
    for (Path t : tables) {
      try (TableReader r = TableReader.open(t, 1, new ClockBlockCache(0, 1))) {
        assertTrue(r.layout().indexRootBytes() <= limit, t + ": " + r.layout().indexRootBytes());
      }
    }
  }

  private static byte[] row(int i) {
    byte[] r = new byte[400];
    Arrays.fill(r, (byte) 'r');
    byte[] id = String.format("%06d", i).getBytes();
    System.arraycopy(id, 0, r, 0, id.length);
    return r;
  }

  private static byte[] column(int i) {
    byte[] c = new byte[400];
    Arrays.fill(c, (byte) 'c');
    return c;
  }
}
