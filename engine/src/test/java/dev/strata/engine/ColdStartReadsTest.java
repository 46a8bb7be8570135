package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first Get after open, with the block cache empty: it reads at
 * most one filter chunk per table it consults, and one index partition and one data block per table
 * whose filter lets it through; opening the tables is the open's work, counted in {@code
 * bytesReadAtOpen}, not the Get's. The tables here have many filter chunks and index partitions
 * each, so reading more than one would show.
 */
final class ColdStartReadsTest {
  private static final int TABLES = 4;
  private static final int KEYS_PER_TABLE = 3000;
  private static final int ROUNDS = 6;

  @TempDir Path dir;

  private static final DbOptions OPTIONS =
      DbOptions.builder()
          .autoCompaction(false)
          .blockSizeBytes(256) // data blocks and index partitions of a few entries
          .bloomChunkBytes(256) // filter chunks of about 200 keys
          .blockCacheBytes(8L << 20)
          .build();

  /**
   * Key {@code i}: tables hold every TABLES-th key, so every table's range covers every key but the
   * first and last few.
   */
  private static byte[] key(int i) {
    return String.format("key%07d", 2 * i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i) {
    return ("value-" + i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void firstGetAfterOpen_readsOneChunkPartitionAndBlockPerTable() throws IOException {
    try (Db db = Db.open(dir, OPTIONS)) {
      for (int t = 0; t < TABLES; t++) {
        for (int i = t; i < TABLES * KEYS_PER_TABLE; i += TABLES) {
          db.put(key(i), value(i));
        }
        db.flush();
      }
      assertEquals(List.of(TABLES, 0, 0, 0, 0, 0, 0), db.tablesPerLevel());
      DbStats s = db.stats();
      assertTrue(s.filterBytesOnDisk() > 10L * TABLES * 256, "many chunks per table: " + s);
      assertTrue(s.metadata().indexBytesOnDisk() > 10L * TABLES * 256,
          "many partitions per table: " + s);
    }
    long seed = new Random().nextLong();
    System.out.println("ColdStartReadsTest seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < ROUNDS; round++) {
      boolean present = round % 2 == 0;
      // An absent key between two keys of every table: the first and last few keys lie outside
      // some tables' ranges, which a Get then does not consult at all.
      int i = present
          ? random.nextInt(TABLES * KEYS_PER_TABLE)
          : TABLES + random.nextInt(TABLES * KEYS_PER_TABLE - 2 * TABLES);
      try (Db db = Db.open(dir, OPTIONS)) {
        assertEquals(TABLES, db.seams().openTableReaders(), "the open opened every table"); // before stats()
        DbStats before = db.stats();
        assertEquals(0, before.bytesReadFromDisk(), "seed " + seed + ": " + before);
        assertTrue(before.metadata().bytesReadAtOpen() > 0,
            "the open opened the tables: " + before);
        byte[] got = present ? db.get(key(i)) : db.get(absentKey(i));
        DbStats after = db.stats();
        String why = "seed " + seed + ", key " + i + (present ? "" : " (absent)") + ": " + after;
        if (present) {
          assertArrayEquals(value(i), got, why);
        } else {
          assertNull(got, why);
        }
        long consulted = after.tablesConsulted() - before.tablesConsulted();
        long passed = consulted - (after.tablesSkippedByBloom() - before.tablesSkippedByBloom());
        // An absent key is looked for in every table; a present one up to the table holding it.
        assertTrue(present ? consulted >= 1 && consulted <= TABLES : consulted == TABLES, why);
        assertEquals(consulted, after.filterBlocksRead() - before.filterBlocksRead(), why);
        assertEquals(0, after.filterBlockCacheHits() - before.filterBlockCacheHits(), why);
        assertTrue(after.metadata().indexBlocksRead() - before.metadata().indexBlocksRead()
            <= passed, why);
        assertTrue(after.dataBlocksRead() - before.dataBlocksRead() <= passed, why);
        if (present) {
          assertTrue(passed >= 1, why);
          // The holding table's block, plus one for each newer table whose filter let the key
          // through falsely (its index may also rule the key out before any block is read).
          long blocks = after.dataBlocksRead() - before.dataBlocksRead();
          long falsePositives = after.bloomFalsePositives() - before.bloomFalsePositives();
          assertTrue(blocks >= 1 && blocks <= 1 + falsePositives, why);
        }
        assertEquals(before.metadata().bytesReadAtOpen(), after.metadata().bytesReadAtOpen(),
            "no table opened: " + why);
      }
    }
  }

  /** A key between key(i) and key(i + 1), in every table's range, held by none. */
  private static byte[] absentKey(int i) {
    return String.format("key%07d", 2 * i + 1).getBytes(StandardCharsets.UTF_8);
  }
}
