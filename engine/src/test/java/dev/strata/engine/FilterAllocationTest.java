package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filters chosen per table: metadata cached as flushes and compactions write it (no Get reads a
 * filter or index block of a table this process wrote), bits per key by level, and {@link
 * Db#levelStats()} from the manifest.
 */
final class FilterAllocationTest {
  @TempDir Path dir;

  private static byte[] key(String prefix, int i) {
    return String.format("%s%07d", prefix, i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i) {
    return ("value-" + i + "-".repeat(30)).getBytes(StandardCharsets.UTF_8);
  }

  private static DbOptions.Builder small() {
    return DbOptions.builder()
        .autoCompaction(false)
        .blockSizeBytes(256) // many index partitions
        .bloomChunkBytes(256); // many filter chunks
  }

  /** Gets of every key written and of as many absent ones; returns the stats after them. */
  private static DbStats getAll(Db db, String prefix, int n) throws IOException {
    for (int i = 0; i < n; i++) {
      assertArrayEquals(value(i), db.get(key(prefix, i)));
      assertNull(db.get(key(prefix + "-absent", i)));
    }
    return db.stats();
  }

  @Test
  void cacheMetadataOnWrite_getsOnFlushedAndCompactedTablesReadNoFilterOrIndexBlock()
      throws IOException {
    try (Db db = Db.open(dir, small().cacheMetadataOnWrite(true).build())) {
      for (int i = 0; i < 5_000; i++) {
        db.put(key("k", i), value(i));
      }
      db.flush();
      DbStats afterFlush = getAll(db, "k", 5_000);
      assertEquals(0, afterFlush.filterBlocksRead(), afterFlush.toString());
      assertEquals(0, afterFlush.metadata().indexBlocksRead(), afterFlush.toString());
      assertTrue(afterFlush.filterBlockCacheHits() > 0, afterFlush.toString());
      db.compact();
      assertEquals(0, db.tablesPerLevel().get(0));
      DbStats afterCompaction = getAll(db, "k", 5_000);
      assertEquals(0, afterCompaction.filterBlocksRead(), afterCompaction.toString());
      assertEquals(0, afterCompaction.metadata().indexBlocksRead(), afterCompaction.toString());
    }
  }

  @Test
  void withoutCacheMetadataOnWrite_theFirstGetsReadTheirMetadataFromDisk_countedAsWrittenHere()
      throws IOException {
    DbOptions options = small().cacheMetadataOnWrite(false).build();
    try (Db db = Db.open(dir, options)) {
      for (int i = 0; i < 5_000; i++) {
        db.put(key("k", i), value(i));
      }
      db.flush();
      DbStats s = getAll(db, "k", 5_000);
      assertTrue(s.filterBlocksRead() > 0, s.toString());
      assertTrue(s.metadata().indexBlocksRead() > 0, s.toString());
      assertEquals(s.filterBlocksRead() + s.metadata().indexBlocksRead(),
          s.metadata().blocksReadOfTablesWrittenHere(), "every table here was written by this open");
    }
    // Reopened, the table was written by an earlier open: its reads count, but not apart.
    try (Db db = Db.open(dir, options)) {
      DbStats s = getAll(db, "k", 5_000);
      assertTrue(s.filterBlocksRead() > 0, s.toString());
      assertEquals(0, s.metadata().blocksReadOfTablesWrittenHere(), s.toString());
    }
  }

  @Test
  void byLevel_givesASmallLevelZeroTableMoreBitsThanTheBudget_andLevelStatsShowIt()
      throws IOException {
    try (Db db = Db.open(dir, small().filterAllocation(FilterAllocation.BY_LEVEL).build())) {
      for (int i = 0; i < 20_000; i++) {
        db.put(key("a", i), value(i));
      }
      db.flush();
      db.compact(); // one deeper run of 20,000 entries
      for (int i = 0; i < 500; i++) {
        db.put(key("b", i), value(i));
      }
      db.flush(); // a level-0 run of 500 beside it
      List<LevelStats> levels = db.levelStats();
      assertEquals(2, levels.size(), levels.toString());
      LevelStats top = levels.get(0);
      LevelStats deep = levels.get(1);
      assertEquals(0, top.level());
      assertEquals(1, top.tables());
      assertEquals(500, top.entries());
      assertEquals(20_000, deep.entries());
      assertTrue(top.filterBitsPerKey() > 12, levels.toString());
      assertTrue(top.expectedFalsePositiveRate() < deep.expectedFalsePositiveRate(), levels.toString());
      assertTrue(top.filterBytes() > 0 && deep.bytes() > deep.filterBytes(), levels.toString());
      assertTrue(db.describe().contains("Bits/key"), db.describe());
      for (int i = 0; i < 500; i++) {
        assertArrayEquals(value(i), db.get(key("b", i)));
      }
    }
  }

  @Test
  void uniform_givesEveryTableTheBudget_evenGivenAsARate() throws IOException {
    DbOptions options = DbOptions.builder().autoCompaction(false).bloomFalsePositiveRate(0.02).build();
    double budget = options.filters().budgetBitsPerKey();
    try (Db db = Db.open(dir, options)) {
      for (int i = 0; i < 20_000; i++) {
        db.put(key("a", i), value(i));
      }
      db.flush();
      LevelStats l0 = db.levelStats().get(0);
      // The filters' memory per entry: the budget, plus the filter index and whole 512-bit blocks.
      assertEquals(budget, l0.filterBitsPerKey(), 0.15 * budget);
      assertEquals(0.02, l0.expectedFalsePositiveRate(), 0.0005);
    }
  }

  /** Level stats of a tree of 20,000 rows compacted below level 0, written under {@code options}. */
  private LevelStats deepLevel(Path at, DbOptions options) throws IOException {
    try (Db db = Db.open(at, options)) {
      for (int i = 0; i < 20_000; i++) {
        db.put(key("a", i), value(i));
      }
      db.flush();
      db.compact();
      for (int i = 0; i < 20_000; i += 7) {
        assertArrayEquals(value(i), db.get(key("a", i)));
      }
      List<LevelStats> levels = db.levelStats();
      assertEquals(1, levels.size(), levels.toString());
      return levels.get(0);
    }
  }

  @Test
  void filterMemoryBytes_boundsTheTreesFilters_underEitherAllocation() throws IOException {
    long memory = 20_000 * 4 / 8; // 4 bits for each of the tree's 20,000 keys
    for (FilterAllocation allocation : FilterAllocation.values()) {
      DbOptions options = DbOptions.builder().autoCompaction(false).filterAllocation(allocation)
          .filterMemoryBytes(memory).build();
      LevelStats bounded = deepLevel(dir.resolve("bounded-" + allocation), options);
      LevelStats free = deepLevel(dir.resolve("free-" + allocation),
          options.toBuilder().filterMemoryBytes(0).build());
      // The filter index and whole 512-bit blocks add a little to the bits the plan gives.
      assertEquals(4, bounded.filterBitsPerKey(), 0.6, bounded.toString());
      assertTrue(bounded.filterBytes() <= memory * 1.15, bounded.toString());
      assertTrue(free.filterBitsPerKey() > 9, free.toString());
      assertTrue(bounded.expectedFalsePositiveRate() > free.expectedFalsePositiveRate(),
          bounded + " vs " + free);
    }
  }

  @Test
  void ribbonFromLevel_sameRateInLessMemoryBelowLevelZero() throws IOException {
    DbOptions bloom = DbOptions.builder().autoCompaction(false).build();
    LevelStats b = deepLevel(dir.resolve("bloom"), bloom);
    LevelStats r = deepLevel(dir.resolve("ribbon"), bloom.toBuilder().ribbonFromLevel(1).build());
    assertTrue(b.level() >= 1 && r.level() == b.level(), b + " " + r);
    assertEquals(b.expectedFalsePositiveRate(), r.expectedFalsePositiveRate(), 1e-12);
    assertTrue(r.filterBytes() < 0.85 * b.filterBytes(), r + " vs " + b);
  }
}
