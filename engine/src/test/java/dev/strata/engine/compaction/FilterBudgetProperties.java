package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Over random trees and budgets (seeded; the seed is printed): the plan never spends more than the
 * budget, keeps every run in [1, 64] bits per key, and expects no more false positives than
 * spending the budget uniformly.
 */
final class FilterBudgetProperties {
  @Test
  void byLevel_fitsTheBudgetAndBeatsUniform() {
    long seed = new Random().nextLong();
    System.out.println("FilterBudgetProperties seed " + seed);
    Random r = new Random(seed);
    for (int trial = 0; trial < 200; trial++) {
      long[] runs = new long[1 + r.nextInt(12)];
      for (int i = 0; i < runs.length; i++) {
        runs[i] = r.nextInt(5) == 0 ? 0 : (long) Math.pow(10, 1 + 7 * r.nextDouble());
      }
      double budget = 1 + 30 * r.nextDouble();
      double[] bits = FilterBudget.byLevel(runs, budget);
      String what = "seed " + seed + " trial " + trial + ": " + Arrays.toString(runs) + " at "
          + budget + " -> " + Arrays.toString(bits);
      double spent = 0;
      double total = 0;
      for (int i = 0; i < runs.length; i++) {
        assertTrue(bits[i] >= FilterModel.MIN_BITS_PER_KEY && bits[i] <= FilterModel.MAX_BITS_PER_KEY, what);
        spent += runs[i] * bits[i];
        total += runs[i];
      }
      assertTrue(total == 0 || spent <= budget * total * (1 + 1e-12), what);
      double[] uniform = new double[runs.length];
      Arrays.fill(uniform, budget);
      // The uniform plan is feasible, so the optimum on the grid can lose to it by at most what one
      // grid step below the budget costs each run.
      double slack = runs.length * (FilterModel.bloomFpp(budget - 1.0 / FilterModel.STEPS_PER_BIT)
          - FilterModel.bloomFpp(budget));
      assertTrue(FilterBudget.expectedFalsePositives(runs, bits)
          <= FilterBudget.expectedFalsePositives(runs, uniform) + slack, what);
    }
  }
}
