package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bloom.BloomFormat;
import dev.strata.bloom.BloomSizing;
import org.junit.jupiter.api.Test;

final class FilterModelTest {
  private static double model(double bits) {
    return BloomSizing.blockedFpp(BloomFormat.BLOCK_BITS / bits, BloomSizing.probesFor(bits));
  }

  @Test
  void table_isTheBlockedModel() {
    assertEquals(127, FilterModel.LOG_FPP.length);
    for (int i = 0; i < FilterModel.LOG_FPP.length; i++) {
      double bits = 1 + (double) i / FilterModel.POINTS_PER_BIT;
      assertEquals(Math.log(model(bits)), FilterModel.LOG_FPP[i], 1e-5, "at " + bits);
      assertEquals(model(bits), FilterModel.bloomFpp(bits), model(bits) * 1e-5, "at " + bits);
    }
  }

  @Test
  void betweenThePoints_theRateIsWithinOnePointTwoPercentOfTheModel() {
    for (double bits = 1.25; bits < 64; bits += 0.5) {
      double ratio = FilterModel.bloomFpp(bits) / model(bits);
      assertTrue(Math.abs(ratio - 1) < 0.012, bits + ": " + ratio);
    }
  }

  @Test
  void bitsForRate_invertsTheModel() {
    assertEquals(9.96, FilterModel.bloomBitsForRate(0.01), 0.02);
    for (double fpp : new double[] {0.3, 0.05, 0.01, 1e-3, 1e-5}) {
      double bits = FilterModel.bloomBitsForRate(fpp);
      assertTrue(FilterModel.bloomFpp(bits) <= fpp, fpp + " at " + bits);
      assertTrue(FilterModel.bloomFpp(bits - 1e-6) > fpp * (1 - 1e-6), fpp + " below " + bits);
    }
    assertEquals(FilterModel.MIN_BITS_PER_KEY, FilterModel.bloomBitsForRate(0.99));
    assertEquals(FilterModel.MAX_BITS_PER_KEY, FilterModel.bloomBitsForRate(1e-30));
  }

  @Test
  void outsideTheRange_isClamped() {
    assertEquals(FilterModel.bloomFpp(1), FilterModel.bloomFpp(0.2));
    assertEquals(FilterModel.bloomFpp(64), FilterModel.bloomFpp(100));
  }
}
