package dev.strata.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.fs.FileNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deleting the logs a flush made obsolete happens after its new version is installed; a failure
 * there used to fail the install as a whole, so the flushed memtable was queued again (and flushed
 * twice) and the database stopped taking writes. Now it is logged and the next
 * install tries again.
 */
final class ObsoleteLogDeletionTest {
  @TempDir Path dir;

  @Test
  void flush_whenAnObsoleteLogCannotBeDeleted_installsOnceAndGoesOn() throws Exception {
    DbOptions options = DbOptions.builder().autoCompaction(false).build();
    Db.open(dir, options).close(); // a database, with its manifest
    // A "log" no delete can remove: a non-empty directory under a log's name, below every log.
    Path stuck = FileNames.log(dir, 0);
    Files.createDirectories(stuck.resolve("content"));
    try (Db db = Db.open(dir, options)) {
      db.put(b("k1"), b("v1"));
      db.flush();
      db.put(b("k2"), b("v2"));
      db.flush();
      assertEquals(2, db.stats().tableCount(), "each memtable flushed once");
      assertArrayEquals(b("v1"), db.get(b("k1")));
    }
    try (Db db = Db.open(dir, options)) {
      assertArrayEquals(b("v1"), db.get(b("k1")));
      assertArrayEquals(b("v2"), db.get(b("k2")));
      assertEquals(2, db.stats().tableCount());
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
