package dev.strata.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.BloomType;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.DbStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small cache split into many shards once gave each shard a protected share smaller than one
 * 128 KiB filter chunk, so streams of data blocks evicted the chunks and 65% of warm Gets reloaded
 * a filter (found by the readamp benchmark). The database now uses fewer shards for a small cache;
 * a warm cache never reloads a filter chunk while data blocks churn through it. (The default chunk
 * is 4 KiB now; these tests keep the 128 KiB chunks of the regression.)
 */
final class FilterChunksStayCachedTest {
  @TempDir Path dir;

  @Test
  void warmGets_readNoFilterChunkAgain_whileDataBlocksChurn() throws Exception {
    DbOptions options =
        DbOptions.builder()
            .bloomType(BloomType.ROWCOL)
            .bloomChunkBytes(128 << 10) // the chunk size of the regression
            .blockCacheBytes(4 << 20)
            .blockCacheShards(16)
            .autoCompaction(false)
            .build();
    assertTrue(options.effectiveBlockCacheShards() < 16);
    int rows = 60_000;
    SplittableRandom values = new SplittableRandom(1);
    try (Db db = Db.open(dir, options)) {
      byte[] value = new byte[100];
      for (int i = 0; i < rows; i++) {
        values.nextBytes(value);
        db.put(row(i), "c".getBytes(StandardCharsets.UTF_8), value);
      }
      db.compact();
    }
    try (Db db = Db.open(dir, options)) {
      SplittableRandom reads = new SplittableRandom(2);
      for (int pass = 0; pass < 2; pass++) {
        DbStats before = db.stats();
        for (int i = 0; i < 20_000; i++) {
          assertNotNull(db.get(row(reads.nextInt(rows)), "c".getBytes(StandardCharsets.UTF_8)));
        }
        DbStats after = db.stats();
        assertTrue(after.dataBlocksRead() - before.dataBlocksRead() > 1000, "data blocks must churn");
        if (pass == 1) {
          assertEquals(0, after.filterBlocksRead() - before.filterBlocksRead(), "chunks reloaded");
        }
      }
    }
  }

  @Test
  void effectiveShards_keepTwoChunksPerProtectedShare() {
    DbOptions big = DbOptions.builder().bloomChunkBytes(128 << 10).blockCacheBytes(64 << 20).blockCacheShards(16).build();
    assertEquals(16, big.effectiveBlockCacheShards());
    DbOptions small = DbOptions.builder().bloomChunkBytes(128 << 10).blockCacheBytes(4 << 20).blockCacheShards(16).build();
    assertEquals(8, small.effectiveBlockCacheShards());
    DbOptions tiny = DbOptions.builder().bloomChunkBytes(128 << 10).blockCacheBytes(100_000).blockCacheShards(16).build();
    assertEquals(1, tiny.effectiveBlockCacheShards());
  }

  private static byte[] row(int i) {
    return String.format("row%08d", i).getBytes(StandardCharsets.UTF_8);
  }
}
