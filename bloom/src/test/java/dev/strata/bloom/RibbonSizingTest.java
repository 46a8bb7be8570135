package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class RibbonSizingTest {

  @Test
  void overhead_isTheTableAtItsPointsAndGrowsBeyondIt() {
    for (int i = 0; i < RibbonSizing.OVERHEAD_BY_LOG2_SLOTS.length; i++) {
      assertEquals(
          RibbonSizing.OVERHEAD_BY_LOG2_SLOTS[i], RibbonSizing.overhead(128.0 * (1 << i)), 1e-12);
    }
    int last = RibbonSizing.OVERHEAD_BY_LOG2_SLOTS.length - 1;
    double atLast = RibbonSizing.overhead(128.0 * (1 << last));
    assertEquals(
        atLast + 2 * RibbonSizing.OVERHEAD_PER_DOUBLING,
        RibbonSizing.overhead(128.0 * (1 << (last + 2))),
        1e-12);
    assertEquals(RibbonSizing.OVERHEAD_BY_LOG2_SLOTS[0], RibbonSizing.overhead(1), 1e-12);
  }

  @Test
  void blocksFor_isTheFewestBlocksThatHoldTheKeys() {
    assertEquals(0, RibbonSizing.blocksFor(0));
    for (long keys = 1; keys < 5_000_000; keys += 1 + keys / 7) {
      long blocks = RibbonSizing.blocksFor(keys);
      assertTrue(blocks >= RibbonFormat.MIN_BLOCKS);
      assertTrue(holds(blocks, keys), keys + " keys in " + blocks + " blocks");
      if (blocks > RibbonFormat.MIN_BLOCKS) {
        assertTrue(!holds(blocks - 1, keys), keys + " keys would fit in " + (blocks - 1));
      }
    }
  }

  private static boolean holds(long blocks, long keys) {
    double slots = 64.0 * blocks;
    return slots >= keys * RibbonSizing.overhead(slots) * (1 + RibbonSizing.SPARE_SLOTS);
  }

  @Test
  void blocksForAttempt_keepsTheSizeForTheFirstSeedsThenGrows() {
    for (int a = 0; a < RibbonSizing.ATTEMPTS_AT_SIZE; a++) {
      assertEquals(1000, RibbonSizing.blocksForAttempt(1000, a));
    }
    assertEquals(1016, RibbonSizing.blocksForAttempt(1000, RibbonSizing.ATTEMPTS_AT_SIZE));
    assertEquals(1032, RibbonSizing.blocksForAttempt(1000, RibbonSizing.ATTEMPTS_AT_SIZE + 1));
    assertEquals(3, RibbonSizing.blocksForAttempt(2, RibbonSizing.ATTEMPTS_AT_SIZE));
  }

  @Test
  void fpp_isTheShareOfStartsByColumnCount() {
    assertEquals(0, RibbonSizing.fpp(0, 0, 0));
    assertEquals(1, RibbonSizing.fpp(2, 0, 0));
    assertEquals(1.0 / 128, RibbonSizing.fpp(10, 7, 0));
    // 10 blocks: 513 starts, the first 3 blocks' 192 with 6 columns, 321 with 7.
    assertEquals((192.0 / 64 + 321.0 / 128) / 513, RibbonSizing.fpp(10, 7, 3), 1e-15);
    // Two blocks hold one start, in the first block.
    assertEquals(0.5, RibbonSizing.fpp(2, 2, 1));
  }

  @ParameterizedTest(name = "fpp {0}")
  @ValueSource(doubles = {0.5, 0.25, 0.0078125, 0.01, 1e-6, 0x1p-32})
  void columnsForRate_isTheFewestWhoseRateIsLowEnough(double fpp) {
    int columns = RibbonSizing.columnsForRate(fpp);
    assertTrue(Math.scalb(1.0, -columns) <= fpp);
    assertTrue(columns == 1 || Math.scalb(1.0, -(columns - 1)) > fpp);
  }

  @Test
  void shapeForBitsPerKey_givesTheRateOfTheBudgetAtEverySize() {
    for (long keys : new long[] {1, 10, 100, 1000, 100_000}) {
      int blocks = (int) RibbonSizing.blocksFor(keys);
      double expected =
          Math.scalb(1.0, -7) * (1 + 7 - 7.0 / RibbonSizing.slotsPerKey(64.0 * blocks));
      RibbonSizing.Shape shape = RibbonSizing.shapeForBitsPerKey(keys, blocks, 7);
      assertEquals(7, shape.columns());
      double slack = 1.0 / Math.max(1, RibbonSizing.numStarts(blocks) / 64) / 128;
      assertEquals(expected, shape.fpp(), slack + 1e-4 * expected, keys + " keys: " + shape);
    }
  }

  /**
   * The checked-in overhead keeps the first attempt's failure chance at about 1/20 or below at the
   * most loaded key count of a block count. 400 random key sets per size (fixed seeds); the bound
   * is 1/20 plus 4 standard deviations, so a table that undersizes noticeably fails.
   */
  @ParameterizedTest(name = "{0} blocks")
  @ValueSource(ints = {2, 16, 256, 2048})
  @Tag("slow")
  void overheadTable_firstAttemptFailsAtMostOneTimeInTwenty(int blocks) {
    double slots = 64.0 * blocks;
    // The table's own load, without the spare slots a filter gets on top.
    int keys = (int) Math.floor(slots / RibbonSizing.overhead(slots));
    long sizedKeys = (long) Math.floor(slots / RibbonSizing.slotsPerKey(slots));
    assertEquals(blocks, RibbonSizing.blocksFor(sizedKeys));
    int trials = 400;
    int failures = 0;
    SplittableRandom random = new SplittableRandom(0x5eed_0000L + blocks);
    for (int t = 0; t < trials; t++) {
      long[] hashes = random.longs(keys).toArray();
      if (!new RibbonBanding(blocks, 7, 0).addAll(hashes, keys)) {
        failures++;
      }
    }
    double bound = trials / 20.0 + 4 * Math.sqrt(trials * 0.05 * 0.95);
    assertTrue(failures <= bound, failures + " of " + trials + " attempts failed at " + keys);
  }
}
