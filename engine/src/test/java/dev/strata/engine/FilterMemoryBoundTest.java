package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code filterMemoryBytes} holds while a tree grows: random keys into a tree that deepens to
 * three levels below level 0, the filter bytes of the live tables read after every flush and
 * compaction, never more than the bound (with a little slack: a flush planned beside a running
 * compaction), and most of the bound spent once the tree has grown.
 */
final class FilterMemoryBoundTest {
  @TempDir Path dir;

  /** Slack on the bound: one level-0 table's filter planned beside a compaction. */
  static final double SLACK = 1.03;

  private static final int KEYS = 120_000;
  private static final int STEP = 4_000;

  @ParameterizedTest(name = "{0}, Ribbon from level {1}")
  @CsvSource({"BY_LEVEL, 2147483647", "BY_LEVEL, 2", "UNIFORM, 2147483647"})
  void filterBytes_stayWithinTheBound_atEveryStepOfAGrowingTree(
      FilterAllocation allocation, int ribbonFromLevel) throws Exception {
    long bound = KEYS * 4L / 8; // 4 bits per key of the final tree
    DbOptions options = growingTree(allocation, ribbonFromLevel, bound).build();
    long seed = new SplittableRandom().nextLong();
    SplittableRandom random = new SplittableRandom(seed);
    List<String> steps = new ArrayList<>();
    try (Db db = Db.open(dir, options)) {
      for (int written = 0; written < KEYS; written += STEP) {
        for (int i = 0; i < STEP; i++) {
          db.put(key(random.nextLong()), new byte[24]);
        }
        db.flush();
        settle(db);
        long filterBytes = db.stats().filterBytesOnDisk();

        steps.add(filterBytes + " " + db.tablesPerLevel());
        assertTrue(filterBytes <= bound * SLACK, "seed " + seed + ": " + filterBytes
            + " filter bytes against a bound of " + bound + " after " + (written + STEP)
            + " keys; " + db.levelStats() + "; steps: " + steps);
      }
      List<Integer> tables = db.tablesPerLevel();
      assertTrue(tables.size() >= 4 && tables.get(3) > 0, "the tree reached level 3: " + tables);
      long spent = db.stats().filterBytesOnDisk();
      assertTrue(spent >= bound / 2, "seed " + seed + ": the grown tree spends most of the bound: "
          + spent + " of " + bound + "; steps: " + steps);
    }
  }

  /**
   * Small tables and levels, so that a few tens of thousands of keys make a tree of three levels
   * below level 0, with its filters planned by {@code allocation} within {@code bound} bytes.
   */
  static DbOptions.Builder growingTree(FilterAllocation allocation, int ribbonFromLevel,
      long bound) {
    return DbOptions.builder()
        .memtableBytes(96 << 10)
        .level0CompactionTrigger(2)
        .maxBytesForLevelBase(256 << 10)
        .levelSizeMultiplier(4)
        .targetFileSizeBytes(128 << 10)
        .bloomChunkBytes(1024)
        .filterAllocation(allocation)
        .ribbonFromLevel(ribbonFromLevel)
        .filterMemoryBytes(bound);
  }

  /** Waits until no flush or compaction is due or running. */
  static void settle(Db db) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (db.backgroundWorkPending()) {
      assertTrue(System.nanoTime() < deadline, "compaction did not settle in 60 s");
      Thread.sleep(2);
    }
  }

  private static byte[] key(long random) {
    return ByteBuffer.allocate(16).putLong(random).putLong(~random).array();
  }
}
