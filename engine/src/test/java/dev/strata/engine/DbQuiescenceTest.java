package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FileNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Db#backgroundWorkPending()} and {@link Db#bytesPerLevel()}: what a benchmark waits on. */
final class DbQuiescenceTest {
  @TempDir Path dir;

  @Test
  void backgroundWorkPending_afterAutoCompactionSettles_leavesLevelZeroUnderTheTrigger()
      throws Exception {
    DbOptions opts =
        DbOptions.builder()
            .memtableBytes(8 << 10)
            .level0CompactionTrigger(2)
            .maxBytesForLevelBase(64 << 10)
            .targetFileSizeBytes(16 << 10)
            .build();
    try (Db db = Db.open(dir, opts)) {
      load(db, 3000);
      db.flush();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (db.backgroundWorkPending()) {
        assertTrue(System.nanoTime() < deadline, "compaction did not quiesce in 30 s");
        Thread.sleep(5);
      }
      List<Integer> tables = db.tablesPerLevel();
      List<Long> bytes = db.bytesPerLevel();
      assertEquals(tables.size(), bytes.size());
      assertTrue(tables.get(0) < 2, "level 0 at rest holds fewer tables than the trigger: " + tables);
      assertTrue(tables.stream().skip(1).anyMatch(n -> n > 0), "data moved below level 0: " + tables);
      for (int level = 0; level < tables.size(); level++) {
        assertEquals(tables.get(level) == 0, bytes.get(level) == 0, "level " + level + ": " + bytes);
      }
      assertEquals(tableFileBytes(dir), bytes.stream().mapToLong(Long::longValue).sum());
      assertFalse(db.backgroundWorkPending(), "nothing to do stays nothing to do");
    }
  }

  @Test
  void backgroundWorkPending_withoutAutoCompaction_isFalseOnceFlushed() throws Exception {
    DbOptions opts =
        DbOptions.builder().memtableBytes(8 << 10).level0CompactionTrigger(2).autoCompaction(false).build();
    try (Db db = Db.open(dir, opts)) {
      load(db, 2000);
      db.flush();
      assertFalse(db.backgroundWorkPending());
      assertTrue(db.tablesPerLevel().get(0) >= 2, "level 0 stays as flushed: " + db.tablesPerLevel());
    }
  }

  private static void load(Db db, int rows) throws IOException {
    for (int i = 0; i < rows; i++) {
      db.put(("row" + (i * 7919 % rows)).getBytes(StandardCharsets.UTF_8),
          ("value-" + i + "-0123456789abcdef").getBytes(StandardCharsets.UTF_8));
    }
  }

  private static long tableFileBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(FileNames.TABLE_SUFFIX))
          .mapToLong(p -> p.toFile().length())
          .sum();
    }
  }
}
