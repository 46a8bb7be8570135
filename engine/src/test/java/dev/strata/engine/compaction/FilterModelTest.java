package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

final class FilterModelTest {
  @Test
  void bitsForRate_invertsTheModel() {
    assertEquals(9.96, FilterModel.bloomBitsForRate(0.01), 0.02);
    for (double fpp : new double[] {0.3, 0.05, 0.01, 1e-3, 1e-5}) {
      double bits = FilterModel.bloomBitsForRate(fpp);
      assertTrue(FilterModel.bloomFpp(bits) <= fpp, fpp + " at " + bits);
      assertTrue(FilterModel.bloomFpp(bits * (1 - 1e-5)) > fpp, fpp + " below " + bits);
    }
    assertEquals(FilterModel.MIN_BITS_PER_KEY, FilterModel.bloomBitsForRate(0.99));
    assertEquals(FilterModel.MAX_BITS_PER_KEY, FilterModel.bloomBitsForRate(1e-30));
  }

  @Test
  void outsideTheRange_isClamped() {
    assertEquals(FilterModel.bloomFpp(1), FilterModel.bloomFpp(0.2));
    assertEquals(FilterModel.bloomFpp(64), FilterModel.bloomFpp(100));
    assertEquals(0.0098, FilterModel.bloomFpp(10), 0.0003);
  }
}
