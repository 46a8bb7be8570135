package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BlockedBloomFilter#forFalsePositiveRate}: the model inverted, in the least memory. */
final class BlockedBloomFilterForRateTest {

  @Test
  void forFalsePositiveRate_rejectsBadArgumentsNamingThem() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> BlockedBloomFilter.forFalsePositiveRate(-1, 0.01));
    assertTrue(e.getMessage().contains("expectedKeys"), e.getMessage());
    for (double bad : new double[] {0, 1, -0.5, 1.5, Double.NaN, Double.POSITIVE_INFINITY}) {
      e =
          assertThrows(
              IllegalArgumentException.class,
              () -> BlockedBloomFilter.forFalsePositiveRate(1000, bad));
      assertTrue(e.getMessage().contains("fpp"), e.getMessage());
    }
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BlockedBloomFilter.forFalsePositiveRate(1000, 1e-12));
    assertTrue(e.getMessage().contains("fpp"), "unreachable at 64 bits/key: " + e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BlockedBloomFilter.forFalsePositiveRate(Long.MAX_VALUE / 2, 0.01));
    assertTrue(e.getMessage().contains("expectedKeys"), e.getMessage());
  }

  @Test
  void forFalsePositiveRate_noKeys_oneBlock() {
    BlockedBloomFilter f = BlockedBloomFilter.forFalsePositiveRate(0, 0.01);
    assertEquals(BloomFormat.BLOCK_BITS, f.bitSize());
    assertEquals(0, f.expectedFpp(0));
  }

  /**
   * For rates from 50% to 1e-6 and several key counts: the model's rate at the chosen size is at
   * most the request, one block fewer with the best probe count for it misses the request (the
   * least memory), and the probe count is the best one for the chosen size.
   */
  @ParameterizedTest(name = "fpp {0}")
  @ValueSource(doubles = {0.5, 0.2, 0.05, 0.01, 0.003, 0.001, 1e-4, 1e-6})
  void forFalsePositiveRate_isTheSmallestFilterThatReachesTheRate(double fpp) {
    for (long keys : new long[] {1, 100, 10_000, 1_000_000, 30_000_000}) {
      BlockedBloomFilter f = BlockedBloomFilter.forFalsePositiveRate(keys, fpp);
      String at = "fpp " + fpp + ", " + keys + " keys: " + f;
      assertTrue(f.expectedFpp(keys) <= fpp, at + " has model rate " + f.expectedFpp(keys));
      int probes = f.numProbes();
      for (int other = BloomFormat.MIN_PROBES; other <= BloomFormat.MAX_PROBES; other += 2) {
        assertTrue(
            BloomSizing.blockedFpp((double) keys / f.numBlocks(), other)
                >= f.expectedFpp(keys),
            at + ": " + other + " probes would do better than " + probes);
      }
      if (f.numBlocks() > 1) {
        double fewer = (double) keys / (f.numBlocks() - 1);
        for (int other = BloomFormat.MIN_PROBES; other <= BloomFormat.MAX_PROBES; other += 2) {
          assertTrue(
              BloomSizing.blockedFpp(fewer, other) > fpp,
              at + ": one block fewer with " + other + " probes still reaches the rate");
        }
      }
    }
  }

  /**
   * Not wasteful: the blocked layout needs more bits than a classic filter's optimum {@code -ln p /
   * ln^2 2} (its blocks are unevenly loaded), but by a bounded factor that grows as the rate falls:
   * 1.02 to 1.04 for 5% to 1%, 1.15 at 1e-4 (measured by the model: see BloomSizing).
   */
  @ParameterizedTest(name = "fpp {0}")
  @ValueSource(doubles = {0.05, 0.01, 0.001, 1e-4})
  void forFalsePositiveRate_bitsAreWithinTheBlockedPenaltyOfTheClassicOptimum(double fpp) {
    long keys = 1_000_000;
    double classic = -keys * Math.log(fpp) / (Math.log(2) * Math.log(2));
    double bits = BlockedBloomFilter.forFalsePositiveRate(keys, fpp).bitSize();
    double limit = fpp >= 0.01 ? 1.05 : fpp >= 0.001 ? 1.10 : 1.16;
    assertTrue(bits >= classic, "below the classic optimum: " + bits + " < " + classic);
    assertTrue(bits <= limit * classic, bits / classic + "x the classic bits at " + fpp);
  }
}
