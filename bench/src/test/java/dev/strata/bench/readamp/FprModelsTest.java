package dev.strata.bench.readamp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The false-positive models against the values their sources state. */
final class FprModelsTest {
  @Test
  void rocksDbProbes_followsChooseNumProbes() {
    assertEquals(6, FprModels.rocksDbProbes(10_000));
    assertEquals(1, FprModels.rocksDbProbes(2_080));
    assertEquals(9, FprModels.rocksDbProbes(16_000));
    assertEquals(24, FprModels.rocksDbProbes(60_000));
  }

  @Test
  void rocksDb_tenBitsPerKey_isNearTheDocumentedRate() {
    // bloom_impl.h: "theoretical best for 10 bits/key, num_probes=6 ... is 0.9535% FP rate".
    double rate = FprModels.rocksDb(1_000_000, 10);
    assertTrue(rate > 0.0090 && rate < 0.0100, "rate " + rate);
  }

  @Test
  void strata_tenBitsPerKey_isAboutOnePercent() {
    double rate = FprModels.strata(100_000, 10);
    assertTrue(rate > 0.005 && rate < 0.015, "rate " + rate);
  }

  @Test
  void shardBitsFor_keepsTwoFiltersPerShard() {
    assertEquals(3, Settings.shardBitsFor(4 << 20, 250_000));
    assertEquals(4, Settings.shardBitsFor(64 << 20, 250_000));
    assertEquals(0, Settings.shardBitsFor(1 << 20, 4 << 20));
  }
}
