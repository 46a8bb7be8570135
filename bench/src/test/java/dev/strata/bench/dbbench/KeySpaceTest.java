package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Keys: unique, in index order, missing keys absent yet among the present ones; a permutation. */
final class KeySpaceTest {
  private static final long[] SEEDS = {1, 42, 20260501, -7};

  @Test
  void key_indexOrderIsKeyOrder_andMissingKeysSortRightAfterTheirKey() {
    for (long seed : SEEDS) {
      for (long n : new long[] {1, 2, 3, 1000, 1L << 40}) {
        KeySpace keys = new KeySpace(n, seed);
        long count = Math.min(n, 2000);
        byte[] previous = null;
        for (long j = 0; j < count; j++) {
          long i = n <= count ? j : j * (n / count);
          byte[] k = keys.key(i);
          byte[] missing = keys.missingKey(i);
          assertEquals(KeySpace.KEY_BYTES, k.length);
          assertTrue(Arrays.compareUnsigned(k, missing) < 0, "seed " + seed + " n " + n + " i " + i);
          if (previous != null) {
            assertTrue(Arrays.compareUnsigned(previous, k) < 0,
                "keys out of index order, seed " + seed + " n " + n + " i " + i);
            assertFalse(Arrays.equals(previous, missing));
          }
          previous = missing;
        }
      }
    }
  }

  @Test
  void key_isTheSameForTheSameSeed_andDiffersAcrossSeeds() {
    assertTrue(Arrays.equals(new KeySpace(100, 5).key(17), new KeySpace(100, 5).key(17)));
    assertFalse(Arrays.equals(new KeySpace(100, 5).key(17), new KeySpace(100, 6).key(17)));
  }

  @Test
  void permutation_isABijectionOfTheRange() {
    for (long seed : SEEDS) {
      for (int n : new int[] {1, 2, 3, 7, 64, 1000, 4097}) {
        Permutation p = new Permutation(n, seed);
        Set<Long> seen = new HashSet<>();
        int fixed = 0;
        for (long i = 0; i < n; i++) {
          long v = p.apply(i);
          assertTrue(v >= 0 && v < n, "seed " + seed + " n " + n + ": " + v);
          assertTrue(seen.add(v), "seed " + seed + " n " + n + ": " + v + " twice");
          fixed += v == i ? 1 : 0;
        }
        assertTrue(n < 64 || fixed < n / 8, "seed " + seed + " n " + n + ": barely shuffled");
      }
    }
  }
}
