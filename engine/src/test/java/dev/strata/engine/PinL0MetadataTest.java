package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pinL0FilterAndIndexBlocksInCache}: level-0 tables hold every filter chunk and index
 * partition pinned in the block cache from their open, through any flood of other tables' blocks,
 * charged in {@code metadata().pinnedBytes()}, and let go when they leave level 0.
 */
final class PinL0MetadataTest {
  /** Deeper-level rows: "a" keys; level-0 rows: "z" keys, outside the deeper tables' range. */
  private static final int DEEP_KEYS = 20_000;
  private static final int L0_TABLES = 3;
  private static final int L0_KEYS = 2_000;

  @TempDir Path dir;

  private static DbOptions options(boolean pin) {
    return DbOptions.builder()
        .autoCompaction(false)
        .blockSizeBytes(256) // many index partitions and data blocks
        .bloomChunkBytes(256) // many filter chunks
        .blockCacheBytes(256 << 10) // far less than the deeper level's metadata and data
        .blockCacheShards(1)
        .pinL0FilterAndIndexBlocksInCache(pin)
        .cacheMetadataOnWrite(false) // the pins load the metadata: what this class checks
        .build();
  }

  private static byte[] deep(int i) {
    return String.format("a%07d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] top(int table, int i) {
    return String.format("z%07d", i * L0_TABLES + table).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i) {
    return ("value-" + i + "-".repeat(40)).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void levelZeroMetadata_staysPinnedThroughAFlood_andIsUnpinnedWhenItLeavesLevelZero()
      throws IOException {
    try (Db db = Db.open(dir, options(false))) {
      for (int i = 0; i < DEEP_KEYS; i++) {
        db.put(deep(i), value(i));
      }
      db.flush();
      db.compact(); // the "a" rows go below level 0
      for (int t = 0; t < L0_TABLES; t++) {
        for (int i = 0; i < L0_KEYS; i++) {
          db.put(top(t, i), value(i));
        }
        db.flush();
      }
      assertEquals(L0_TABLES, db.tablesPerLevel().get(0));
    }
    long seed = new Random().nextLong();
    System.out.println("PinL0MetadataTest seed " + seed);
    Random random = new Random(seed);
    try (Db db = Db.open(dir, options(true));
        Db unpinned = Db.open(dir, options(false).toBuilder().readOnly(true).build())) {
      long heldOutside = unpinned.stats().metadata().pinnedBytes(); // every table is open in both
      DbStats opened = db.stats();
      assertTrue(opened.metadata().pinnedBytes() > heldOutside, opened + " vs " + heldOutside);
      long pinnedInCache = opened.metadata().pinnedBytes() - heldOutside;
      assertTrue(opened.metadata().cacheBytes() >= pinnedInCache, opened.toString());

      // A flood: Gets all over the deeper level, whose filters, partitions and data blocks are many
      // times the cache.
      for (int i = 0; i < 5_000; i++) {
        int k = random.nextInt(DEEP_KEYS);
        assertArrayEquals(value(k), db.get(deep(k)), "seed " + seed);
      }
      DbStats flooded = db.stats();
      assertTrue(flooded.filterBlocksRead() > opened.filterBlocksRead(), "the flood missed");
      assertEquals(opened.metadata().pinnedBytes(), flooded.metadata().pinnedBytes(),
          flooded.toString());

      // Level-0 Gets then find every filter chunk and index partition in the cache.
      for (int i = 0; i < 2_000; i++) {
        int t = random.nextInt(L0_TABLES);
        int k = random.nextInt(L0_KEYS);
        assertArrayEquals(value(k), db.get(top(t, k)), "seed " + seed);
      }
      DbStats after = db.stats();
      String why = "seed " + seed + ": " + after;
      assertEquals(flooded.filterBlocksRead(), after.filterBlocksRead(), why);
      assertEquals(flooded.metadata().indexBlocksRead(), after.metadata().indexBlocksRead(), why);
      assertTrue(after.dataBlocksRead() > flooded.dataBlocksRead(), why);

      // Compaction takes the tables out of level 0 (and deletes them): their pins go.
      db.compact();
      assertEquals(List.of(0), db.tablesPerLevel().subList(0, 1));
      DbStats compacted = db.stats();
      try (Db now = Db.open(dir, options(false).toBuilder().readOnly(true).build())) {
        assertEquals(now.stats().metadata().pinnedBytes(), compacted.metadata().pinnedBytes(),
            "nothing pinned in the cache after the compaction: " + compacted);
      }
    }
  }

  @Test
  void aFlushedTable_isPinnedByTheFlush_beforeAnyGet() throws IOException {
    try (Db db = Db.open(dir, options(true))) {
      long before = db.stats().metadata().pinnedBytes();
      for (int i = 0; i < L0_KEYS; i++) {
        db.put(top(0, i), value(i));
      }
      db.flush();
      assertEquals(1, db.seams().openTableReaders(), "the flush opened its table"); // before stats()
      DbStats flushed = db.stats();
      assertTrue(flushed.metadata().pinnedBytes() > before, flushed.toString());
      assertTrue(flushed.filterBlocksRead() > 0, "the flush loaded the chunks: " + flushed);
      long filterReads = flushed.filterBlocksRead();
      for (int i = 0; i < 200; i++) {
        assertArrayEquals(value(i), db.get(top(0, i)));
      }
      assertEquals(filterReads, db.stats().filterBlocksRead(), "every chunk was pinned at flush");
    }
  }
}
