package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bloom.BlockedBloomFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read amplification from {@link DbStats}, the figures the benchmark reports: with 8 overlapping
 * level-0 tables and 10 bits per key, a Get of an absent row reads data blocks from about 8 x FPR
 * tables under a filter and from all 8 without; under {@code ROWCOL} absent columns of present rows
 * are skipped too, which {@code ROW} cannot do. Also checks that the counters move as API.md says.
 */
final class ReadAmplificationTest {
  private static final int TABLES = 8;
  /** Row ids 0, 2, 4, ... are present; odd ids in between are absent but inside every range. */
  private static final int ROW_IDS = 2 * TABLES * 1000;

  private static final int GETS = 2000;
  private static final long CACHE_BYTES = 8L << 20;

  @TempDir Path dir;

  private static byte[] row(int id) {
    return String.format("row%06d", id).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] column(int table, int k) {
    return ("c" + table + k).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Eight loads of interleaved rows, one flush each, so every table's range covers every queried
   * row; each present row holds {@code columns} columns in every table (wide rows) or, with {@code
   * columns == 0}, only in the table its id falls into.
   */
  private Db eightTables(BloomType type, int columns) throws IOException {
    DbOptions options =
        DbOptions.builder()
            .bloomType(type)
            .bloomBitsPerKey(10)
            .autoCompaction(false)
            .blockCacheBytes(CACHE_BYTES)
            .build();
    Path path = dir.resolve(type + "-" + columns);
    try (Db db = Db.open(path, options)) {
      for (int t = 0; t < TABLES; t++) {
        for (int id = 0; id < ROW_IDS; id += 2) {
          if (columns == 0) {
            if ((id / 2) % TABLES == t) {
              db.put(row(id), ("v" + id).getBytes(StandardCharsets.UTF_8));
            }
          } else {
            for (int k = 0; k < columns; k++) {
              db.put(row(id), column(t, k), ("v" + id).getBytes(StandardCharsets.UTF_8));
            }
          }
        }
        db.flush();
      }
      assertEquals(List.of(TABLES, 0, 0, 0, 0, 0, 0), db.tablesPerLevel());
    }
    return Db.open(path, options); // a cold cache: filters load lazily from here on
  }

  /** An absent row strictly inside every table's range. */
  private static int absentId(int i) {
    return 2 * (TABLES + (i * 7919) % (ROW_IDS / 2 - 2 * TABLES)) + 1;
  }

  private static double expectedFpr() {
    long keysPerTable = ROW_IDS / 2 / TABLES;
    return BlockedBloomFilter.create(keysPerTable, 10).expectedFpp(keysPerTable);
  }

  private static DbStats minus(DbStats a, DbStats b) {
    DbStats.MetadataStats am = a.metadata();
    DbStats.MetadataStats bm = b.metadata();
    DbStats.PrefixScanStats ap = a.prefixScans();
    DbStats.PrefixScanStats bp = b.prefixScans();
    return new DbStats(
        a.gets() - b.gets(),
        a.tablesConsulted() - b.tablesConsulted(),
        a.tablesSkippedByBloom() - b.tablesSkippedByBloom(),
        a.bloomFalsePositives() - b.bloomFalsePositives(),
        a.dataBlocksRead() - b.dataBlocksRead(),
        a.dataBlockCacheHits() - b.dataBlockCacheHits(),
        a.filterBlocksRead() - b.filterBlocksRead(),
        a.filterBlockCacheHits() - b.filterBlockCacheHits(),
        a.bytesReadFromDisk() - b.bytesReadFromDisk(),
        a.blockCacheBytes(),
        a.tableCount(),
        a.filterBytesOnDisk(),
        new DbStats.MetadataStats(
            am.indexBlocksRead() - bm.indexBlocksRead(),
            am.indexBlockCacheHits() - bm.indexBlockCacheHits(),
            am.bytesReadAtOpen() - bm.bytesReadAtOpen(),
            am.cacheBytes(),
            am.indexBytesOnDisk(),
            am.pinnedBytes(),
            am.blocksReadOfTablesWrittenHere() - bm.blocksReadOfTablesWrittenHere()),
        new DbStats.PrefixScanStats(
            ap.scans() - bp.scans(),
            ap.tablesConsulted() - bp.tablesConsulted(),
            ap.tablesSkipped() - bp.tablesSkipped()),
        a.snapshots(),
        a.recovery(),
        new DbStats.CompactionStats(
            a.compactions().readTriggered() - b.compactions().readTriggered(),
            a.compactions().filterRefits() - b.compactions().filterRefits(),
            a.compactions().filterRefitBytes() - b.compactions().filterRefitBytes()));
  }

  private static double dataBlocksPerGet(DbStats d) {
    return (double) (d.dataBlocksRead() + d.dataBlockCacheHits()) / d.gets();
  }

  @Test
  void absentRowGets_withRowFilter_readAbout8TimesFprTables() throws IOException {
    double fpr = expectedFpr();
    assertTrue(fpr > 0.002 && fpr < 0.03, "10 bits/key gives about 1%: " + fpr);
    try (Db db = eightTables(BloomType.ROW, 0)) {
      DbStats start = db.stats();
      assertEquals(TABLES, start.tableCount());
      assertTrue(start.filterBytesOnDisk() > 0);
      assertEquals(0, start.filterBlocksRead());

      assertNull(db.get(row(absentId(0))));
      DbStats first = minus(db.stats(), start);
      assertEquals(1, first.gets());
      assertEquals(TABLES, first.tablesConsulted());
      assertEquals(TABLES, first.filterBlocksRead(), "each table's one chunk loads on first access");
      assertEquals(0, first.filterBlockCacheHits());

      DbStats before = db.stats();
      for (int i = 1; i <= GETS; i++) {
        assertNull(db.get(row(absentId(i))));
      }
      DbStats d = minus(db.stats(), before);
      assertEquals(GETS, d.gets());
      assertEquals((long) TABLES * GETS, d.tablesConsulted(), "every table's range covers the row");
      assertEquals(0, d.filterBlocksRead(), "chunks stay cached");
      assertEquals((long) TABLES * GETS, d.filterBlockCacheHits());
      long maybes = d.tablesConsulted() - d.tablesSkippedByBloom();
      assertEquals(maybes, d.bloomFalsePositives(), "every maybe for an absent row is a false positive");
      double measured = (double) maybes / d.tablesConsulted();
      // Generous: 16000 probes at ~1% give a standard deviation near 0.1%.
      assertTrue(measured < 2 * fpr + 0.005, "FPR " + measured + " vs expected " + fpr);
      assertTrue(measured > fpr / 4, "FPR " + measured + " vs expected " + fpr);
      double perGet = dataBlocksPerGet(d);
      assertTrue(
          perGet >= TABLES * measured * 0.9 && perGet <= TABLES * measured * 1.2 + 0.01,
          "data blocks per Get " + perGet + " vs 8 x " + measured);
      assertTrue(perGet < TABLES * (2 * fpr + 0.005), "data blocks per Get: " + perGet);

      // Present rows are found, and cost at least their own table's block.
      before = db.stats();
      for (int i = 0; i < 200; i++) {
        int id = 2 * (TABLES + i * 37);
        assertArrayEquals(("v" + id).getBytes(StandardCharsets.UTF_8), db.get(row(id)));
      }
      d = minus(db.stats(), before);
      assertTrue(dataBlocksPerGet(d) >= 1, "present rows read a block: " + d);
      assertTrue(db.stats().blockCacheBytes() <= CACHE_BYTES);
    }
  }

  @Test
  void absentRowGets_withoutFilter_readAll8Tables() throws IOException {
    try (Db db = eightTables(BloomType.NONE, 0)) {
      DbStats start = db.stats();
      assertEquals(0, start.filterBytesOnDisk());
      for (int i = 1; i <= GETS; i++) {
        assertNull(db.get(row(absentId(i)), new byte[0]));
      }
      DbStats d = minus(db.stats(), start);
      assertEquals(GETS, d.gets());
      assertEquals((long) TABLES * GETS, d.tablesConsulted());
      assertEquals(0, d.tablesSkippedByBloom());
      assertEquals(0, d.filterBlocksRead() + d.filterBlockCacheHits());
      double perGet = dataBlocksPerGet(d);
      assertTrue(perGet >= TABLES && perGet <= TABLES * 1.1, "data blocks per Get: " + perGet);
      assertTrue(d.dataBlocksRead() > 0 && d.bytesReadFromDisk() > 0, d.toString());
    }
  }

  @Test
  void absentColumnsOfWideRows_skippedByRowColButNotByRow() throws IOException {
    double fpr = expectedFpr();
    byte[] absentColumn = "zz".getBytes(StandardCharsets.UTF_8);
    double[] perGet = new double[2];
    BloomType[] types = {BloomType.ROW, BloomType.ROWCOL};
    for (int i = 0; i < types.length; i++) {
      try (Db db = eightTables(types[i], 10)) {
        DbStats start = db.stats();
        for (int g = 0; g < 500; g++) {
          int id = 2 * (TABLES + (g * 7919) % (ROW_IDS / 2 - 2 * TABLES));
          assertNull(db.get(row(id), absentColumn));
        }
        DbStats d = minus(db.stats(), start);
        assertEquals((long) TABLES * 500, d.tablesConsulted());
        perGet[i] = dataBlocksPerGet(d);
        // A present column of the same rows is still found through every filter.
        assertArrayEquals(("v" + 2 * TABLES).getBytes(StandardCharsets.UTF_8), db.get(row(2 * TABLES), column(5, 9)));
        assertEquals(10 * TABLES, db.getRow(row(2 * TABLES)).size());
      }
    }
    assertTrue(perGet[0] >= TABLES, "ROW cannot skip a table holding the row: " + perGet[0]);
    assertTrue(perGet[1] < TABLES * (2 * fpr + 0.01), "ROWCOL skips absent columns: " + perGet[1]);
  }

  @Test
  void blockCacheBytes_neverExceedsTheCapacity() throws IOException {
    long capacity = 16 * 1024;
    Path path = dir.resolve("small-cache");
    DbOptions options =
        DbOptions.builder().blockCacheBytes(capacity).blockSizeBytes(512).autoCompaction(false).build();
    try (Db db = Db.open(path, options)) {
      for (int t = 0; t < 4; t++) {
        for (int id = t; id < 4000; id += 4) {
          db.put(row(id), ("value" + id).getBytes(StandardCharsets.UTF_8));
        }
        db.flush();
      }
      for (int id = 0; id < 4000; id += 3) {
        assertArrayEquals(("value" + id).getBytes(StandardCharsets.UTF_8), db.get(row(id)));
        assertTrue(db.stats().blockCacheBytes() <= capacity, db.stats().toString());
      }
      assertEquals(4000, CellModel.scan(db, null, null).size());
      DbStats s = db.stats();
      assertTrue(s.blockCacheBytes() > 0 && s.blockCacheBytes() <= capacity, s.toString());
      // The filters (one chunk per table) stay above the cache's metadata floor while data blocks
      // stream through it: put there by the flushes that wrote them, no chunk is ever read.
      assertEquals(0, s.filterBlocksRead(), "no table's chunk read from disk: " + s);
      assertTrue(s.metadata().cacheBytes() > 0 && s.metadata().cacheBytes() < s.blockCacheBytes(),
          s.toString());
      // Compact index partitions (format 5), put there by the flushes too, stay with the filters.
      assertTrue(s.metadata().indexBytesOnDisk() > 0, s.toString());
      assertTrue(s.metadata().indexBlockCacheHits() > 0, s.toString());
      assertTrue(s.metadata().pinnedBytes() > 0, "open tables pin their index top levels: " + s);
      assertTrue(s.dataBlocksRead() > 1000, "data blocks evicted and reloaded: " + s);
    }
  }
}
