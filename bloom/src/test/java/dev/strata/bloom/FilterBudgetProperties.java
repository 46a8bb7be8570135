package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bloom.FilterBudget.Allocation;
import dev.strata.bloom.FilterBudget.Model;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link FilterBudget#optimal} over random trees (a seeded generator; the seed is new each run and
 * printed, {@code -Dstrata.seed=N} replays it): within the budget, never worse than uniform bits,
 * and no transfer of bits between two runs at the same total lowers the sum of rates by more than
 * the grid's resolution allows.
 */
final class FilterBudgetProperties {

  @Test
  void optimal_isWithinBudgetNoWorseThanUniformAndLocallyOptimal() {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("FilterBudgetProperties seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    for (int trial = 0; trial < 60; trial++) {
      long[] runs = randomTree(random);
      double average = 2 + random.nextDouble() * 14;
      Model model = random.nextBoolean() ? Model.BLOCKED_BLOOM : Model.RIBBON;
      String at = "seed=" + seed + " trial " + trial + " " + model + " " + average + " bits/key";
      Allocation uniform = FilterBudget.uniform(runs, average, model);
      Allocation optimal = FilterBudget.optimal(runs, average, model);
      assertTrue(optimal.totalBits() <= uniform.totalBits() * (1 + 1e-12), at);
      // Uniform bits on the optimum's grid: an allocation the optimum must do at least as well as.
      double onGrid =
          Math.floor(average * FilterBudget.STEPS_PER_BIT) / FilterBudget.STEPS_PER_BIT;
      Allocation uniformOnGrid = FilterBudget.uniform(runs, onGrid, model);
      assertTrue(
          optimal.expectedFalsePositives()
              <= uniformOnGrid.expectedFalsePositives() * (1 + 1e-9),
          at + ": " + optimal + " worse than " + uniformOnGrid);
      checkNoProfitableTransfer(runs, optimal, model, at);
    }
  }

  /**
   * Moving a quarter bit per key's worth of bits from run i to run j (fewer bits per key in i, the
   * same bits more in j) must not lower the sum of rates by more than a grid step's worth.
   */
  private static void checkNoProfitableTransfer(
      long[] runs, Allocation optimal, Model model, String at) {
    for (int i = 0; i < runs.length; i++) {
      for (int j = 0; j < runs.length; j++) {
        if (i == j || runs[i] == 0 || runs[j] == 0) {
          continue;
        }
        double bi = optimal.runs().get(i).bitsPerKey();
        double bj = optimal.runs().get(j).bitsPerKey();
        double moved = 0.25 * runs[i];
        double newBi = bi - moved / runs[i];
        double newBj = bj + moved / runs[j];
        if (newBi < FilterBudget.MIN_BITS_PER_KEY || newBj > FilterBudget.MAX_BITS_PER_KEY) {
          continue;
        }
        double before = model.fpp(runs[i], bi) + model.fpp(runs[j], bj);
        double after = model.fpp(runs[i], newBi) + model.fpp(runs[j], newBj);
        // One grid step of slack on each run's rate: the optimum is on a 1/64-bit grid.
        double slack =
            2 * (model.fpp(runs[i], bi - 1.0 / FilterBudget.STEPS_PER_BIT)
                - model.fpp(runs[i], bi)
                + model.fpp(runs[j], bj - 1.0 / FilterBudget.STEPS_PER_BIT)
                - model.fpp(runs[j], bj));
        assertTrue(
            after >= before - slack,
            at + ": moving bits from run " + i + " to " + j + " saves " + (before - after));
      }
    }
  }

  /** Up to 8 level-0 tables, then up to 4 levels growing about tenfold; some runs empty. */
  private static long[] randomTree(SplittableRandom random) {
    int level0 = random.nextInt(0, 9);
    int levels = random.nextInt(1, 5);
    long[] runs = new long[level0 + levels];
    long tableKeys = random.nextLong(1, 2_000_000);
    for (int t = 0; t < level0; t++) {
      runs[t] = random.nextInt(10) == 0 ? 0 : tableKeys / 2 + random.nextLong(tableKeys);
    }
    long levelKeys = random.nextLong(1, 1_000_000);
    for (int l = 0; l < levels; l++) {
      runs[level0 + l] = levelKeys;
      levelKeys = levelKeys * random.nextInt(4, 16);
    }
    return runs;
  }
}
