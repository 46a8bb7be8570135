package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

final class FilterBudgetTest {
  /**
   * The tree {@code dbbench --profile large} leaves after its 20M-key fill: four level-0 tables of
   * a 64 MiB memtable each (about 450,000 entries of a 16-byte key and a 100-byte value), level 1
   * at its 256 MiB target (about 2.6M entries), and the rest in level 2.
   */
  static final long[] DBBENCH_LARGE = {
    450_000, 450_000, 450_000, 450_000, 2_600_000, 15_600_000, 0, 0, 0, 0,
  };

  private static double spent(long[] runs, double[] bits) {
    double sum = 0;
    double n = 0;
    for (int i = 0; i < runs.length; i++) {
      sum += runs[i] * bits[i];
      n += runs[i];
    }
    return sum / n;
  }

  @Test
  void dbbenchTree_byLevelHalvesTheFalsePositivesOfUniformAtTheSameMemory() {
    double[] uniform = new double[DBBENCH_LARGE.length];
    Arrays.fill(uniform, 10);
    double[] byLevel = FilterBudget.byLevel(DBBENCH_LARGE, 10);
    double uniformFp = FilterBudget.expectedFalsePositives(DBBENCH_LARGE, uniform);
    double byLevelFp = FilterBudget.expectedFalsePositives(DBBENCH_LARGE, byLevel);
    System.out.printf("dbbench large tree: uniform %.4f, by level %.4f (%s)%n", uniformFp, byLevelFp,
        Arrays.toString(byLevel));
    // The model of the 512-bit blocked filter: six runs at 10 bits per key, about 0.0098 each.
    assertEquals(0.057, uniformFp, 0.003, "uniform");
    assertEquals(0.024, byLevelFp, 0.002, "by level: " + Arrays.toString(byLevel));
    assertTrue(byLevelFp <= 0.45 * uniformFp, byLevelFp + " vs " + uniformFp);
    double average = spent(DBBENCH_LARGE, byLevel);
    assertTrue(average <= 10 && average > 10 - 1.0 / FilterModel.STEPS_PER_BIT, "spent " + average);
    // Smaller runs get more bits, the last level the fewest.
    assertEquals(byLevel[0], byLevel[3], 1.0 / FilterModel.STEPS_PER_BIT, "equal runs, equal bits");
    assertTrue(byLevel[0] > byLevel[4] && byLevel[4] > byLevel[5], Arrays.toString(byLevel));
    assertTrue(byLevel[5] < 10, "the last level pays for the others: " + byLevel[5]);
  }

  @Test
  void oneRun_getsTheBudget() {
    double[] bits = FilterBudget.byLevel(new long[] {1_000_000}, 10);
    assertEquals(10, bits[0], 1.0 / FilterModel.STEPS_PER_BIT);
    assertTrue(bits[0] <= 10);
  }

  @Test
  void emptyRunsAndEmptyTrees_getTheBudgetAndCountForNothing() {
    assertEquals(List10.of(7.5, 3), Arrays.toString(FilterBudget.byLevel(new long[] {0, 0, 0}, 7.5)));
    double[] bits = FilterBudget.byLevel(new long[] {0, 100, 0}, 7.5);
    assertEquals(7.5, bits[0]);
    assertEquals(7.5, bits[2]);
    assertEquals(7.5, bits[1], 1.0 / FilterModel.STEPS_PER_BIT);
  }

  @Test
  void bitsStayWithinOneAndSixtyFour() {
    double[] bits = FilterBudget.byLevel(new long[] {1, 1_000_000_000}, 1.5);
    assertTrue(bits[0] <= FilterModel.MAX_BITS_PER_KEY && bits[1] >= FilterModel.MIN_BITS_PER_KEY,
        Arrays.toString(bits));
    bits = FilterBudget.byLevel(new long[] {5, 1_000_000_000}, 64);
    assertEquals(64, bits[0]);
    assertEquals(64, bits[1]);
  }

  @Test
  void badArguments_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> FilterBudget.byLevel(new long[] {1}, 0.5));
    assertThrows(IllegalArgumentException.class, () -> FilterBudget.byLevel(new long[] {1}, 65));
    assertThrows(IllegalArgumentException.class, () -> FilterBudget.byLevel(new long[] {-1}, 10));
  }

  /** The text of {@code n} runs at {@code bits} each, as Arrays.toString shows them. */
  private static final class List10 {
    static String of(double bits, int n) {
      double[] a = new double[n];
      Arrays.fill(a, bits);
      return Arrays.toString(a);
    }
  }
}
