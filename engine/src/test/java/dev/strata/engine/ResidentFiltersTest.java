package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filters bounded within the block cache's metadata share stay resident: every table pins its
 * filter chunks as it opens, the cache's pinned bytes show them, and absent Gets read no filter
 * chunk however many data blocks and index partitions pass through the cache; an absent Get whose
 * filter says no touches no index partition either. A bound beyond the share pins nothing.
 */
final class ResidentFiltersTest {
  @TempDir Path dir;

  private static final int KEYS = 30_000;
  private static final long CACHE = 256 << 10;

  private static byte[] key(String prefix, int i) {
    return String.format("%s%07d", prefix, i).getBytes(StandardCharsets.UTF_8);
  }

  /** 100 bytes that do not compress, so the data is many times the cache. */
  private static byte[] value(int i) {
    byte[] v = new byte[100];
    new java.util.SplittableRandom(i).nextBytes(v);
    return v;
  }

  private static DbOptions options(long filterMemoryBytes) {
    return DbOptions.builder()
        .blockCacheBytes(CACHE)
        .memtableBytes(1 << 20)
        .bloomChunkBytes(1024)
        .filterAllocation(FilterAllocation.BY_LEVEL)
        .filterMemoryBytes(filterMemoryBytes)
        .build();
  }

  private void fill(DbOptions options) throws IOException {
    try (Db db = Db.open(dir, options)) {
      for (int i = 0; i < KEYS; i++) {
        db.put(key("k", i), value(i));
      }
      db.compact();
    }
  }

  @Test
  void boundWithinTheMetadataShare_pinsEveryFilterChunk_absentGetsReadNoChunkAndNoPartition()
      throws IOException {
    long bound = KEYS * 6L / 8; // about 22 KiB: within 0.9 of the 256 KiB cache
    DbOptions options = options(bound);
    assertTrue(options.filters().filtersPinnedIn(CACHE));
    fill(options);
    try (Db db = Db.open(dir, options)) {
      for (int j = 0; j < KEYS / 3; j++) { // present Gets: data blocks and partitions churn
        int i = (int) (j * 7_919L % KEYS);
        assertArrayEquals(value(i), db.get(key("k", i)));
      }
      DbStats afterPresent = db.stats();
      assertTrue(afterPresent.dataBlocksRead() > KEYS / 6, "the cache churns: " + afterPresent);
      long filterBytes = afterPresent.filterBytesOnDisk();
      assertTrue(filterBytes > 0 && filterBytes <= bound * 1.03, afterPresent.toString());
      assertTrue(afterPresent.metadata().pinnedBytes() >= filterBytes,
          "the cache's accounting shows the pinned filters: " + afterPresent.metadata());
      for (int i = 0; i < KEYS; i++) {
        assertNull(db.get(key("absent", i)));
      }
      DbStats after = db.stats();
      assertEquals(afterPresent.filterBlocksRead(), after.filterBlocksRead(), "no chunk read");
      long falsePositives = after.bloomFalsePositives() - afterPresent.bloomFalsePositives();
      long partitions = after.metadata().indexBlocksRead() + after.metadata().indexBlockCacheHits()
          - afterPresent.metadata().indexBlocksRead()
          - afterPresent.metadata().indexBlockCacheHits();
      assertTrue(partitions <= falsePositives,
          "only a false positive reaches an index partition: " + partitions + " partitions, "
              + falsePositives + " false positives");
      assertTrue(falsePositives < KEYS / 10, "about 6 bits per key: " + falsePositives);
    }
  }

  @Test
  void boundBeyondTheMetadataShare_pinsNothing_filtersLoadLazily() throws IOException {
    DbOptions options = options(CACHE);
    assertTrue(!options.filters().filtersPinnedIn(CACHE));
    fill(options);
    try (Db db = Db.open(dir, options)) {
      for (int i = 0; i < KEYS; i += 3) {
        assertArrayEquals(value(i), db.get(key("k", i)));
      }
      DbStats s = db.stats();
      assertTrue(s.metadata().pinnedBytes() < s.filterBytesOnDisk(), s.metadata().toString());
      assertTrue(s.filterBlocksRead() > 0, s.toString());
    }
  }
}
