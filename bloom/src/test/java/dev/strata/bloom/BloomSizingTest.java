package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

final class BloomSizingTest {

  @Test
  void probeThresholds_matchTheModel() {
    assertArrayEquals(BloomSizing.computeThresholds(), BloomSizing.PROBE_THRESHOLDS, 1e-4);
  }

  @Test
  void probesFor_isTheModelsArgminAtEveryBitsPerKey() {
    for (double bits = 1; bits <= 40; bits += 0.25) {
      int chosen = BloomSizing.probesFor(bits);
      double keysPerBlock = BloomFormat.BLOCK_BITS / bits;
      double best = BloomSizing.blockedFpp(keysPerBlock, chosen);
      for (int k = BloomFormat.MIN_PROBES; k <= BloomFormat.MAX_PROBES; k += 2) {
        assertTrue(
            best <= BloomSizing.blockedFpp(keysPerBlock, k) * (1 + 1e-9),
            "bits/key " + bits + ": k=" + chosen + " worse than k=" + k);
      }
    }
  }

  @Test
  void probesFor_tenBitsPerKeyUsesSixProbes() {
    assertEquals(6, BloomSizing.probesFor(10));
    assertEquals(6, BloomSizing.probesFor(10.5));
  }

  @Test
  void blockedFpp_isAboveTheClassicRateAndBelowOne() {
    for (double bits = 2; bits <= 24; bits++) {
      int k = BloomSizing.probesFor(bits);
      double blocked = BloomSizing.blockedFpp(BloomFormat.BLOCK_BITS / bits, k);
      double classic = BloomSizing.classicFpp(bits * 1e6, 1e6, k);
      assertTrue(blocked > classic, "blocking costs false positives at " + bits);
      assertTrue(blocked < 1);
    }
  }

  @Test
  void blockedFpp_ofOneStepMatchesClosedForm() {
    // One step, 2 bits in one of 8 words: the pass probability has a closed form to check the
    // partition and inclusion-exclusion machinery against. Steps into the queried word ~
    // Poisson(lambda / 8); P(both queried bits set | m) by inclusion-exclusion over 1 or 2 bits.
    double lambda = 40;
    double mu = lambda / 8;
    double distinct = 63.0 / 64;
    double u1 = Math.pow(63.0 / 64, 2);
    double u2 = Math.pow(62.0 / 64, 2);
    double e1 = Math.exp(-mu * (1 - u1));
    double e2 = Math.exp(-mu * (1 - u2));
    double expected = distinct * (1 - 2 * e1 + e2) + (1 - distinct) * (1 - e1);
    assertEquals(expected, BloomSizing.blockedFpp(lambda, 2), 1e-12);
  }
}
