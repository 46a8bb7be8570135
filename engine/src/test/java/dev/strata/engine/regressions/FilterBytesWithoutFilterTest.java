package dev.strata.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.BloomType;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guards DbStats.filterBytesOnDisk under BloomType.NONE: tables without a filter still hold an empty
 * filter index of a few bytes, which the table properties count, and the engine reported 9 bytes of
 * "filter" per table.
 */
final class FilterBytesWithoutFilterTest {
  @TempDir Path dir;

  @Test
  void stats_noneTables_reportNoFilterBytes() throws Exception {
    byte[] v = "v".getBytes(StandardCharsets.UTF_8);
    try (Db db = Db.open(dir.resolve("none"), DbOptions.builder().bloomType(BloomType.NONE).build())) {
      db.put("a".getBytes(StandardCharsets.UTF_8), v);
      db.flush();
      db.put("b".getBytes(StandardCharsets.UTF_8), v);
      db.flush();
      assertEquals(2, db.stats().tableCount());
      assertEquals(0, db.stats().filterBytesOnDisk());
    }
    try (Db db = Db.open(dir.resolve("row"), DbOptions.builder().bloomType(BloomType.ROW).build())) {
      db.put("a".getBytes(StandardCharsets.UTF_8), v);
      db.flush();
      assertTrue(db.stats().filterBytesOnDisk() > 0);
    }
  }
}
