package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LevelStats#expectedFalsePositiveRate()} against the false positives Gets of absent rows
 * count ({@link DbStats#bloomFalsePositives()}), on a tree whose tables span very different shares
 * of the row range at very different bits per key: in level 1 a wide sparse table at 12 bits, a
 * dense table over 1/64 of the range at 2 bits and a wide table at 6 bits, with a gap between
 * them; in level 0 two dense tables over 1/128 of the range each at 3 bits and a table over the
 * whole range at 8 bits. Weighting each table by entries would expect several times what the Gets
 * count; weighting it by its share of the range expects what they count.
 *
 * <p>Seeded: the seed is printed, and {@code -Dstrata.seed=N} replays a run.
 */
final class ExpectedFalsePositivesProperties {
  @TempDir Path dir;

  /** Absent Gets counted: the standard error of their mean is about 0.0006 here. */
  private static final int GETS = 150_000;

  /** Standard errors the model's expectation may lie from the mean counted. */
  private static final double STANDARD_ERRORS = 4;

  @Test
  void expectedFalsePositives_matchTheGetsOfAbsentRowsUniformOverTheRange() throws IOException {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("ExpectedFalsePositivesProperties seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    // Level 1: each flush moves down whole (level 1 holds nothing in its span), keeping its bits.
    fill(random, 12, 1, 4_000, 0x00, 0x80);
    fill(random, 2, 1, 40_000, 0x80, 0x84);
    fill(random, 6, 1, 4_000, 0xA0, 0x100);
    // Level 0: flushed and left there.
    fill(random, 3, 0, 20_000, 0x40, 0x42);
    fill(random, 3, 0, 20_000, 0xC0, 0xC2);
    fill(random, 8, 0, 6_000, 0x00, 0x100);
    try (Db db = Db.open(dir, options(8).autoCompaction(false).build())) {
      assertEquals(List.of(3, 3), db.tablesPerLevel().subList(0, 2), db.describe());
      double expected = 0;
      for (LevelStats l : db.levelStats()) {
        expected += l.expectedFalsePositiveRate();
      }
      byte[][] range = range(db);
      long count = 0;
      double sumOfSquares = 0;
      for (int i = 0; i < GETS; i++) {
        byte[] row = absentRowWithin(random, range);
        long before = db.stats().bloomFalsePositives();
        assertNull(db.get(row));
        long fp = db.stats().bloomFalsePositives() - before;
        count += fp;
        sumOfSquares += fp * fp;
      }
      double mean = (double) count / GETS;
      // The false positives of one Get are its sample; their sample variance gives the standard
      // error of the mean over independent Gets.
      double variance = (sumOfSquares - GETS * mean * mean) / (GETS - 1);
      double standardError = Math.sqrt(variance / GETS);
      assertTrue(Math.abs(expected - mean) <= STANDARD_ERRORS * standardError,
          "seed " + seed + ": the model expects " + expected + " false positives per absent Get, "
              + GETS + " Gets counted " + mean + " (standard error " + standardError + "); "
              + db.levelStats());
    }
  }

  private static DbOptions.Builder options(double bitsPerKey) {
    return DbOptions.builder().bloomBitsPerKey(bitsPerKey).level0CompactionTrigger(1);
  }

  /**
   * A table of {@code keys} random rows whose first byte is in [{@code from}, {@code to}), written
   * at {@code bitsPerKey} and left in {@code level}.
   */
  private void fill(SplittableRandom random, double bitsPerKey, int level, int keys, int from,
      int to) throws IOException {
    try (Db db = Db.open(dir, options(bitsPerKey).autoCompaction(level > 0).build())) {
      for (int i = 0; i < keys; i++) {
        db.put(row(random, from, to), new byte[8]);
      }
      db.flush();
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (db.backgroundWorkPending() || (level > 0 && db.tablesPerLevel().get(0) > 0)) {
        assertTrue(System.nanoTime() < deadline, "the flush did not move down in 60 s");
        Thread.yield();
      }
    }
  }

  private static byte[] row(SplittableRandom random, int from, int to) {
    byte[] row = ByteBuffer.allocate(16).putLong(random.nextLong()).putLong(random.nextLong())
        .array();
    row[0] = (byte) (from + random.nextInt(to - from));
    return row;
  }

  /** The tree's smallest and largest rows. */
  private static byte[][] range(Db db) throws IOException {
    byte[] smallest;
    byte[] largest = null;
    try (CellScanner scan = db.scan(new byte[0], null)) {
      smallest = scan.hasNext() ? scan.next().row() : null;
      while (scan.hasNext()) {
        largest = scan.next().row();
      }
    }
    return new byte[][] {smallest, largest};
  }

  /** A random row between the tree's smallest and largest row (never one written: 128 bits). */
  private static byte[] absentRowWithin(SplittableRandom random, byte[][] range) {
    while (true) {
      byte[] row = row(random, 0, 0x100);
      if (Arrays.compareUnsigned(row, range[0]) > 0 && Arrays.compareUnsigned(row, range[1]) < 0) {
        return row;
      }
    }
  }
}
