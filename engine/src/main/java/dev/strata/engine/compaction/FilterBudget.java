package dev.strata.engine.compaction;

import java.util.Arrays;

/**
 * Spreads a filter memory budget over the runs of a tree (each level-0 table is a run, each deeper
 * level one run) so that the sum of their false-positive rates, the filters an absent Get passes
 * by mistake, is smallest while the average over all filter keys stays at the budget (Monkey,
 * Dayan et al., SIGMOD 2017).
 *
 * <p>The problem: minimise {@code sum f(b_i)} subject to {@code sum n_i b_i <= B sum n_i}, with
 * {@code n_i} the run's entries, {@code b_i} its bits per key in [1, 64] and {@code f} the blocked
 * filter's model rate ({@link FilterModel}). For an exponential {@code f} the optimum has {@code
 * p_i} proportional to {@code n_i}: the last level, most of the keys, gets the fewest bits per key.
 * The blocked model is not quite exponential (its probe count changes with the size), so the
 * optimum is found numerically by its Lagrangian: for a multiplier {@code mu}, each run takes the
 * {@code b} that minimises {@code f(b) + mu (n_i / N) b} on the model's grid, and {@code mu} is
 * bisected (on its logarithm) to the smallest total that fits the budget. The model's rate has
 * kinks where the probe count changes, which the multiplier can step over, so what budget is left
 * is then handed out a grid step (1/32 bit) at a time, each to the run whose rate falls most per
 * bit it costs. The result never spends more than the budget.
 *
 * <p>Thread-safe (stateless).
 */
public final class FilterBudget {
  private static final int BISECTIONS = 64;
  private static final double MIN_LOG_MU = Math.log(1e-16);
  private static final double MAX_LOG_MU = Math.log(1e3);

  private FilterBudget() {}

  /**
   * The bits per key of each run of {@code runEntries} (a run of 0 entries gets the budget and
   * counts for nothing) under an average budget of {@code averageBitsPerKey} (in [1, 64]).
   */
  public static double[] byLevel(long[] runEntries, double averageBitsPerKey) {
    if (!(averageBitsPerKey >= FilterModel.MIN_BITS_PER_KEY
        && averageBitsPerKey <= FilterModel.MAX_BITS_PER_KEY)) {
      throw new IllegalArgumentException("averageBitsPerKey must be in [1, 64]: " + averageBitsPerKey);
    }
    double total = 0;
    for (long n : runEntries) {
      if (n < 0) {
        throw new IllegalArgumentException("negative run: " + Arrays.toString(runEntries));
      }
      total += n;
    }
    double[] bits = new double[runEntries.length];
    Arrays.fill(bits, averageBitsPerKey);
    if (total == 0) {
      return bits;
    }
    double[] weight = new double[runEntries.length];
    for (int i = 0; i < weight.length; i++) {
      weight[i] = runEntries[i] / total;
    }
    // spent(mu) falls as mu grows: find the smallest mu whose plan fits the budget.
    double lo = MIN_LOG_MU;
    double hi = MAX_LOG_MU;
    double[] best = null;
    double[] trial = new double[bits.length];
    for (int k = 0; k < BISECTIONS; k++) {
      double mid = (lo + hi) / 2;
      if (spent(Math.exp(mid), weight, trial) <= averageBitsPerKey) {
        best = trial.clone();
        hi = mid;
      } else {
        lo = mid;
      }
    }
    if (best == null) { // only when even the largest multiplier overspends: every run at the floor
      spent(Math.exp(MAX_LOG_MU), weight, trial);
      best = trial;
    }
    fill(best, weight, averageBitsPerKey);
    for (int i = 0; i < bits.length; i++) {
      if (runEntries[i] > 0) {
        bits[i] = best[i];
      }
    }
    return bits;
  }

  /** The false positives an absent Get expects passing runs of {@code bitsPerKey} (runs with entries). */
  public static double expectedFalsePositives(long[] runEntries, double[] bitsPerKey) {
    double sum = 0;
    for (int i = 0; i < runEntries.length; i++) {
      if (runEntries[i] > 0) {
        sum += FilterModel.bloomFpp(bitsPerKey[i]);
      }
    }
    return sum;
  }

  /**
   * Spends what {@code bits} leaves of the budget a grid step at a time, each on the run whose
   * rate falls most per bit of budget, while a step fits.
   */
  private static void fill(double[] bits, double[] weight, double budget) {
    double step = 1.0 / FilterModel.STEPS_PER_BIT;
    double spent = 0;
    for (int i = 0; i < bits.length; i++) {
      spent += weight[i] * bits[i];
    }
    while (true) {
      int pick = -1;
      double bestGain = 0;
      for (int i = 0; i < bits.length; i++) {
        double cost = weight[i] * step;
        if (weight[i] == 0 || bits[i] + step > FilterModel.MAX_BITS_PER_KEY || spent + cost > budget) {
          continue;
        }
        double gain = (FilterModel.bloomFpp(bits[i]) - FilterModel.bloomFpp(bits[i] + step)) / cost;
        if (gain > bestGain) {
          bestGain = gain;
          pick = i;
        }
      }
      if (pick < 0) {
        return;
      }
      bits[pick] += step;
      spent += weight[pick] * step;
    }
  }

  /** Each run's minimiser of {@code f(b) + mu w_i b} into {@code bits}; returns {@code sum w_i b_i}. */
  private static double spent(double mu, double[] weight, double[] bits) {
    double sum = 0;
    int points = FilterModel.gridPoints();
    for (int i = 0; i < weight.length; i++) {
      if (weight[i] == 0) {
        bits[i] = FilterModel.MIN_BITS_PER_KEY;
        continue;
      }
      double price = mu * weight[i];
      int arg = 0;
      double min = Double.MAX_VALUE;
      for (int g = 0; g < points; g++) {
        double cost = FilterModel.gridFpp(g) + price * FilterModel.gridBits(g);
        if (cost < min) {
          min = cost;
          arg = g;
        }
      }
      bits[i] = FilterModel.gridBits(arg);
      sum += weight[i] * bits[i];
    }
    return sum;
  }
}
