package dev.strata.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batched Gets and mayContain: answers aligned with the input, and the blocks they read. */
final class MultiGetTest {
  private static final byte[] EMPTY = new byte[0];

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  private static byte[] row(int i) {
    return b(String.format("row%05d", i));
  }

  @Test
  void multiGet_isAlignedWithTheInput_nullWhereAbsent() throws IOException {
    try (Db db = Db.open(dir, DbOptions.builder().autoCompaction(false).build())) {
      db.put(b("a"), b("1"));
      db.put(b("b"), b("c"), b("bc"));
      db.flush();
      db.put(b("c"), b("3"));
      db.delete(b("a"));
      List<byte[]> got = db.multiGet(List.of(b("c"), b("a"), b("zz"), b("c"), b("b")));
      assertEquals(5, got.size());
      assertArrayEquals(b("3"), got.get(0));
      assertNull(got.get(1), "deleted in the memtable, present in the table");
      assertNull(got.get(2));
      assertArrayEquals(b("3"), got.get(3), "a key twice");
      assertNull(got.get(4), "the key-value view reads the empty column");
      List<byte[]> cells = db.multiGet(List.of(b("b"), b("b"), b("c")), List.of(b("c"), EMPTY, EMPTY));
      assertArrayEquals(b("bc"), cells.get(0));
      assertNull(cells.get(1));
      assertArrayEquals(b("3"), cells.get(2));
      assertEquals(List.of(), db.multiGet(List.of()));
    }
  }

  @Test
  void multiGet_countsAsGets_andReadsEachBlockOnce() throws IOException {
    DbOptions options = DbOptions.builder().autoCompaction(false).blockCacheBytes(0).build();
    try (Db db = Db.open(dir, options)) {
      for (int i = 0; i < 2000; i++) {
        db.put(row(i), new byte[40]);
      }
      db.flush();
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        keys.add(row(1000 + (i * 37) % 64)); // unsorted, within a few neighbouring blocks
      }
      DbStats before = db.stats();
      for (byte[] k : keys) {
        db.get(k);
      }
      DbStats oneByOne = db.stats();
      List<byte[]> got = db.multiGet(keys);
      DbStats batched = db.stats();
      got.forEach(v -> assertArrayEquals(new byte[40], v));
      long singleReads = oneByOne.dataBlocksRead() - before.dataBlocksRead();
      long batchReads = batched.dataBlocksRead() - oneByOne.dataBlocksRead();
      assertEquals(64, singleReads, "no cache: every Get reads its block");
      assertTrue(batchReads <= 4, "64 neighbouring keys span a few 4 KiB blocks: " + batchReads);
      assertEquals(64, batched.gets() - oneByOne.gets());
      assertEquals(64, batched.tablesConsulted() - oneByOne.tablesConsulted());
      // One filter chunk (128 KiB) holds the whole table's keys: one fetch per Get one by one,
      // one for the whole batch.
      long singleChunks = filterFetches(oneByOne) - filterFetches(before);
      long batchChunks = filterFetches(batched) - filterFetches(oneByOne);
      assertEquals(64, singleChunks, "one by one");
      assertEquals(1, batchChunks, "batched");
    }
  }

  private static long filterFetches(DbStats s) {
    return s.filterBlocksRead() + s.filterBlockCacheHits();
  }

  @Test
  void multiGet_badArguments() throws IOException {
    try (Db db = Db.open(dir)) {
      assertThrows(
          IllegalArgumentException.class, () -> db.multiGet(List.of(b("a")), List.of()));
      assertThrows(NullPointerException.class, () -> db.multiGet(null));
      assertThrows(NullPointerException.class, () -> db.multiGet(Arrays.asList(b("a"), null)));
      assertThrows(IllegalArgumentException.class, () -> db.multiGet(List.of(EMPTY)));
    }
    Db closed = Db.open(dir);
    closed.close();
    assertThrows(IllegalStateException.class, () -> closed.multiGet(List.of(b("a"))));
    assertThrows(IllegalStateException.class, () -> closed.mayContain(b("a"), EMPTY));
  }

  @Test
  void mayContain_readsNoDataBlock_andIsNeverFalseForALiveCell() throws IOException {
    DbOptions options =
        DbOptions.builder().autoCompaction(false).bloomType(BloomType.ROWCOL).blockCacheBytes(0).build();
    try (Db db = Db.open(dir, options)) {
      assertFalse(db.mayContain(b("a"), EMPTY), "empty database");
      db.put(b("a"), b("c"), b("v"));
      assertTrue(db.mayContain(b("a"), b("c")), "in the memtable");
      db.flush();
      for (int i = 0; i < 500; i++) {
        db.put(row(i), b("c"), b("v"));
      }
      db.flush();
      DbStats before = db.stats();
      assertTrue(db.mayContain(b("a"), b("c")), "in a table");
      int excluded = 0;
      for (int i = 0; i < 500; i++) {
        assertTrue(db.mayContain(row(i), b("c")));
        excluded += db.mayContain(row(i), b("absent")) ? 0 : 1;
      }
      assertTrue(excluded > 450, "a ROWCOL filter excludes most absent columns: " + excluded);
      assertEquals(before.dataBlocksRead(), db.stats().dataBlocksRead(), "no data block read");
      assertEquals(before.gets(), db.stats().gets(), "not a Get");
      db.delete(b("a"), b("c"));
      assertFalse(db.mayContain(b("a"), b("c")), "the memtable's newest word is a delete");
    }
  }

  /**
   * multiGet answers as a Get for every key, for every bloom type, over the memtable, level-0 tables
   * and a compacted level, with deletes and row deletes: rows share a long prefix (the batch's sort
   * compares the bytes after it), some rows extend others by zero bytes, small blocks and filter
   * chunks put many keys of a batch in one block and spread others over several chunks, and batches
   * are unsorted with duplicates. Seeded; the seed is in every message.
   */
  @Test
  void multiGet_agreesWithGet_acrossSourcesAndBloomTypes() throws IOException {
    for (BloomType type : BloomType.values()) {
      long seed = System.nanoTime();
      java.util.Random r = new java.util.Random(seed);
      Path sub = dir.resolve(type.name());
      DbOptions options = DbOptions.builder().autoCompaction(false).bloomType(type)
          .blockSizeBytes(256).bloomChunkBytes(64).build();
      try (Db db = Db.open(sub, options)) {
        for (int round = 0; round < 4; round++) {
          for (int w = 0; w < 300; w++) {
            byte[] row = randomRow(r);
            byte[] column = r.nextInt(3) == 0 ? EMPTY : b("c" + r.nextInt(3));
            switch (r.nextInt(10)) {
              case 0 -> db.delete(row, column);
              case 1 -> db.deleteRow(row);
              default -> db.put(row, column, b(round + ":" + w));
            }
          }
          if (round == 1) {
            db.compact(); // rounds 0 and 1 in a deeper level
          } else if (round == 2) {
            db.flush(); // round 2 in level 0, round 3 in the memtable
          }
        }
        for (int batch = 0; batch < 50; batch++) {
          List<byte[]> rows = new ArrayList<>();
          List<byte[]> columns = new ArrayList<>();
          for (int k = r.nextInt(80); k >= 0; k--) {
            boolean again = !rows.isEmpty() && r.nextInt(8) == 0;
            rows.add(again ? rows.get(r.nextInt(rows.size())) : randomRow(r));
            columns.add(r.nextInt(3) == 0 ? EMPTY : b("c" + r.nextInt(4)));
          }
          List<byte[]> got = db.multiGet(rows, columns);
          List<byte[]> keys = db.multiGet(rows);
          for (int i = 0; i < rows.size(); i++) {
            String where = type + " seed " + seed + " batch " + batch + " key " + i;
            assertArrayEquals(db.get(rows.get(i), columns.get(i)), got.get(i), where);
            assertArrayEquals(db.get(rows.get(i)), keys.get(i), where + " (key-value view)");
          }
        }
      }
    }
  }

  /** A row of a shared 12-byte prefix and a short tail, sometimes extended by zero bytes. */
  private static byte[] randomRow(java.util.Random r) {
    byte[] row = b(String.format("user%08d", r.nextInt(400)));
    return r.nextInt(6) == 0 ? Arrays.copyOf(row, row.length + 1 + r.nextInt(2)) : row;
  }
}
