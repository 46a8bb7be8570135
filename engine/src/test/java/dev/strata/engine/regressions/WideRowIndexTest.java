package dev.strata.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.Compression;
import dev.strata.engine.DataBlockOptions;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.WriteBatch;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.TableProperties;
import dev.strata.sstable.TableReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table-size limit at full key size: a batch of maximal cells (a 32 KiB row, 32 KiB columns) with
 * the smallest block target used to give every cell an index entry of its own, so the index grew as
 * fast as the data (at 16,382 cells past the 1 GiB a reader accepts, and every open failed). Data
 * blocks of large keys now grow with them, so the index stays a small part of the table, through a
 * flush and a compaction.
 */
final class WideRowIndexTest {
  @TempDir Path dir;

  @Test
  void wideRowOfMaximalKeys_flushesAndCompactsToTablesWithSmallIndexes() throws Exception {
    DbOptions options =
        DbOptions.builder()
            .blockSizeBytes(DataBlockOptions.MIN_BLOCK_SIZE_BYTES)
            .compression(Compression.NONE)
            .autoCompaction(false)
            .build();
    byte[] row = new byte[Db.MAX_ROW_LENGTH];
    try (Db db = Db.open(dir, options)) {
      WriteBatch batch = new WriteBatch();
      for (int i = 0; i < 150; i++) {
        batch.put(row, column(i), new byte[] {(byte) i});
      }
      db.write(batch);
      db.flush();
      db.compact();
      assertArrayEquals(new byte[] {77}, db.get(row, column(77)));
    }
    for (Path table : tables()) {
      try (TableReader r = TableReader.open(table, 1, new ClockBlockCache(0, 1))) {
        TableProperties p = r.properties();
        assertTrue(p.indexBytes() * 32 <= p.dataBytes(), table + ": index " + p.indexBytes()
            + " bytes for " + p.dataBytes() + " bytes of data");
      }
    }
    try (Db db = Db.open(dir, options)) {
      assertEquals(150, db.getRow(row).size());
    }
  }

  private static byte[] column(int i) {
    byte[] c = new byte[Db.MAX_COLUMN_LENGTH];
    c[0] = (byte) (i >> 8);
    c[1] = (byte) i;
    return c;
  }

  private List<Path> tables() throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".sst")).toList();
    }
  }
}
