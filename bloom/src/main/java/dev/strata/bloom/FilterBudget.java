package dev.strata.bloom;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Splits a tree's filter memory between its sorted runs so that an absent key's expected false
 * positives, the sum of the runs' false-positive rates, is the least for the budget (Monkey).
 *
 * <p>Immutable (static methods only); thread-safe.
 */
/*
 * Design.
 *
 * An absent Get probes at most one filter per sorted run (each level-0 table is a run of its own,
 * each deeper level one run): run i's when the key falls in its key range, with probability r_i
 * (its reach: 1 for a run that spans every key), and each false positive costs the same wasted
 * block read, so the cost to minimise is sum_i r_i fpr_i(b_i) under sum_i n_i b_i = B, where run i
 * holds n_i keys at b_i bits per key and B is the budget (the average bits per key times all the
 * keys). With a Lagrange multiplier the optimum has r_i fpr_i'(b_i) = -lambda n_i for every run not
 * at a bound: a run's marginal saving per bit is the same everywhere. For a pure exponential fpr = exp(-c b) that is Monkey's rule
 * fpr_i proportional to n_i [1]; the blocked filter's model is not one (its best probe count
 * changes with b, and its blocks are unevenly loaded), nor is the Ribbon filter's (2^-c between
 * whole columns is linear in the bits), so the condition is solved numerically on each model.
 *
 * The solve: bits per key on a grid of 1/64 from 1 to 64 (the range the filters accept); for a
 * multiplier lambda each run takes the grid point that minimises r_i fpr_i(b) + lambda n_i b, which
 * never grows as lambda grows, so the bits spent fall monotonically in lambda and a bisection on
 * log lambda finds the smallest lambda whose allocation fits the budget. What that leaves is then
 * spent a grid step at a time where it saves the most per bit, so the budget is spent to within
 * one grid step of a run; a run of no keys gets no bits and answers absent.
 *
 * [1] N. Dayan, M. Athanassoulis, S. Idreos, "Monkey: Optimal Navigable Key-Value Store",
 * SIGMOD 2017.
 */
public final class FilterBudget {
  /** Grid steps per bit of the bits-per-key search. */
  static final int STEPS_PER_BIT = 64;

  /** Fewest bits per key a run's filter gets: what the filters accept. */
  static final double MIN_BITS_PER_KEY = 1;

  /** Most bits per key a run's filter gets: what the filters accept. */
  static final double MAX_BITS_PER_KEY = 64;

  /** Bisection steps on log lambda: far more than the grid's resolution needs. */
  private static final int BISECTION_STEPS = 200;

  private static final int GRID_POINTS =
      (int) ((MAX_BITS_PER_KEY - MIN_BITS_PER_KEY) * STEPS_PER_BIT) + 1;

  private FilterBudget() {}

  /** The false-positive model a run's filter follows. */
  public enum Model {
    /** {@link BlockedBloomFilter} at its best probe count ({@link BloomSizing}). */
    BLOCKED_BLOOM,
    /** {@link RibbonFilter}, one filter per run at the run's slot overhead ({@link RibbonSizing}). */
    RIBBON;

    /**
     * The model's rate for a run of {@code keys} keys at {@code bitsPerKey} (clamped to [1, 64]), as
     * {@link #optimal} counts it.
     */
    public double falsePositiveRate(long keys, double bitsPerKey) {
      return fpp(keys, Math.max(MIN_BITS_PER_KEY, Math.min(MAX_BITS_PER_KEY, bitsPerKey)));
    }

    /** The model's rate for a run of {@code keys} keys at {@code bitsPerKey}. */
    double fpp(long keys, double bitsPerKey) {
      return switch (this) {
        case BLOCKED_BLOOM -> BlockedCurve.fpp(bitsPerKey);
        case RIBBON -> RibbonSizing.fppAtBitsPerKey(keys, bitsPerKey);
      };
    }
  }

  /**
   * The blocked model's rate by bits per key, tabulated once at every 1/8 bit with the probe count
   * the filter would use and interpolated linearly in log(rate), which is nearly linear in the bits:
   * the model sums hundreds of exponentials per point, and every run's grid then needs none.
   */
  private static final class BlockedCurve {
    /** Tabulated points per bit. */
    private static final int POINTS_PER_BIT = 8;

    /** log(rate) at MIN_BITS_PER_KEY + i / POINTS_PER_BIT. */
    private static final double[] LOG_FPP = tabulate();

    private static double[] tabulate() {
      int n = (int) ((MAX_BITS_PER_KEY - MIN_BITS_PER_KEY) * POINTS_PER_BIT) + 1;
      double[] logFpp = new double[n];
      for (int i = 0; i < n; i++) {
        double bits = MIN_BITS_PER_KEY + (double) i / POINTS_PER_BIT;
        logFpp[i] =
            Math.log(BloomSizing.blockedFpp(BloomFormat.BLOCK_BITS / bits, BloomSizing.probesFor(bits)));
      }
      return logFpp;
    }

    static double fpp(double bitsPerKey) {
      double x = (bitsPerKey - MIN_BITS_PER_KEY) * POINTS_PER_BIT;
      int i = Math.min(LOG_FPP.length - 2, Math.max(0, (int) x));
      double f = x - i;
      return Math.exp(LOG_FPP[i] * (1 - f) + LOG_FPP[i + 1] * f);
    }
  }

  /** One run's share: its keys, the bits per key its filter gets and the model's rate there. */
  public record RunBudget(long keys, double bitsPerKey, double falsePositiveRate) {}

  /**
   * An allocation: one entry per run, in the order given, and the expected false positives of an
   * absent key (the sum of the runs' rates, each times the run's reach: 1 unless given).
   */
  public record Allocation(List<RunBudget> runs, double expectedFalsePositives) {
    public Allocation {
      runs = List.copyOf(runs);
    }

    /** Bits all the runs' filters take together. */
    public double totalBits() {
      double bits = 0;
      for (RunBudget r : runs) {
        bits += r.keys() * r.bitsPerKey();
      }
      return bits;
    }
  }

  /**
   * Every run at {@code averageBitsPerKey}: what a tree without a split spends (runs of no keys
   * included, at rate 0).
   *
   * @throws IllegalArgumentException as {@link #optimal}
   */
  public static Allocation uniform(long[] keysPerRun, double averageBitsPerKey, Model model) {
    check(keysPerRun, averageBitsPerKey, model);
    List<RunBudget> runs = new ArrayList<>(keysPerRun.length);
    for (long keys : keysPerRun) {
      double fpp = keys == 0 ? 0 : model.fpp(keys, averageBitsPerKey);
      runs.add(new RunBudget(keys, keys == 0 ? 0 : averageBitsPerKey, fpp));
    }
    return allocation(runs, reachOfOne(keysPerRun.length));
  }

  /**
   * The bits per key of each run that minimise the sum of the runs' rates while the runs together
   * spend at most {@code averageBitsPerKey} times their keys (to within one grid step, 1/{@value
   * #STEPS_PER_BIT} bit per key, of the largest run). Each run gets between {@value
   * #MIN_BITS_PER_KEY} and {@value #MAX_BITS_PER_KEY} bits per key; a run of no keys gets none.
   *
   * @param keysPerRun keys of each sorted run: each level-0 table, then each deeper level
   * @throws IllegalArgumentException if a count is negative or {@code averageBitsPerKey} is not in
   *     [1, 64]
   */
  public static Allocation optimal(long[] keysPerRun, double averageBitsPerKey, Model model) {
    check(keysPerRun, averageBitsPerKey, model);
    Model[] models = new Model[keysPerRun.length];
    Arrays.fill(models, model);
    return optimalMixed(keysPerRun, averageBitsPerKey, models);
  }

  /**
   * {@link #optimal(long[], double, Model)} with each run's filter following its own model ({@code
   * models[i]} for run i): a tree whose deeper levels carry Ribbon filters and whose upper ones
   * blocked Bloom filters. The bits Ribbon saves at a rate are spent where they save the most.
   *
   * @throws IllegalArgumentException as {@link #optimal(long[], double, Model)}, or if {@code
   *     models} is not one model per run
   */
  public static Allocation optimalMixed(long[] keysPerRun, double averageBitsPerKey, Model[] models) {
    return optimalMixed(keysPerRun, reachOfOne(Objects.requireNonNull(keysPerRun, "keysPerRun").length),
        averageBitsPerKey, models);
  }

  /**
   * {@link #optimalMixed(long[], double, Model[])} for runs an absent key does not always probe:
   * run i's rate counts {@code reach[i]} times, the chance that the key falls in the run's key
   * range (in [0, 1]; 1 for a run that spans every key). A run seldom met gets fewer bits.
   *
   * @throws IllegalArgumentException as {@link #optimalMixed(long[], double, Model[])}, or if
   *     {@code reach} is not one value in [0, 1] per run
   */
  public static Allocation optimalMixed(
      long[] keysPerRun, double[] reach, double averageBitsPerKey, Model[] models) {
    Objects.requireNonNull(models, "models");
    Objects.requireNonNull(reach, "reach");
    if (models.length != Objects.requireNonNull(keysPerRun, "keysPerRun").length) {
      throw new IllegalArgumentException(
          "models must be one per run: " + models.length + " for " + keysPerRun.length);
    }
    for (Model m : models) {
      Objects.requireNonNull(m, "models");
    }
    if (reach.length != keysPerRun.length) {
      throw new IllegalArgumentException(
          "reach must be one per run: " + reach.length + " for " + keysPerRun.length);
    }
    for (double r : reach) {
      if (!(r >= 0 && r <= 1)) {
        throw new IllegalArgumentException("reach must be in [0, 1]: " + r);
      }
    }
    check(keysPerRun, averageBitsPerKey, models.length == 0 ? Model.BLOCKED_BLOOM : models[0]);
    double[][] fpp = new double[keysPerRun.length][];
    double budget = 0;
    for (int i = 0; i < keysPerRun.length; i++) {
      budget += keysPerRun[i] * averageBitsPerKey;
      if (keysPerRun[i] > 0) {
        fpp[i] = grid(models[i], keysPerRun[i]);
      }
    }
    // Bits spent fall as lambda grows: find the smallest lambda that fits the budget.
    double lo = Math.log(1e-30);
    double hi = Math.log(1e3);
    for (int s = 0; s < BISECTION_STEPS; s++) {
      double mid = (lo + hi) / 2;
      if (bitsSpent(keysPerRun, reach, fpp, Math.exp(mid)) <= budget) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    double lambda = Math.exp(hi);
    int[] chosen = new int[keysPerRun.length];
    double left = budget;
    for (int i = 0; i < keysPerRun.length; i++) {
      if (keysPerRun[i] > 0) {
        chosen[i] = best(fpp[i], reach[i], keysPerRun[i], lambda);
        left -= keysPerRun[i] * bitsAt(chosen[i]);
      }
    }
    spendTheRest(keysPerRun, reach, fpp, chosen, left);
    // The multiplier's optimum is exact only for convex rates; the models are piecewise (tabulated
    // or linear between columns), and between two corners the even split can be the better one.
    // Every run at the grid point below the average, with the rest spent the same way, is a
    // candidate too: the result is never worse than uniform bits on the grid.
    int[] even = evenSplit(keysPerRun, averageBitsPerKey);
    double evenLeft = budget;
    for (int i = 0; i < keysPerRun.length; i++) {
      evenLeft -= keysPerRun[i] * (keysPerRun[i] == 0 ? 0 : bitsAt(even[i]));
    }
    spendTheRest(keysPerRun, reach, fpp, even, evenLeft);
    if (sumOfRates(keysPerRun, reach, fpp, even) < sumOfRates(keysPerRun, reach, fpp, chosen)) {
      chosen = even;
    }
    List<RunBudget> runs = new ArrayList<>(keysPerRun.length);
    for (int i = 0; i < keysPerRun.length; i++) {
      runs.add(
          keysPerRun[i] == 0
              ? new RunBudget(0, 0, 0)
              : new RunBudget(keysPerRun[i], bitsAt(chosen[i]), fpp[i][chosen[i]]));
    }
    return allocation(runs, reach);
  }

  /**
   * Spends what the multiplier left, one grid step at a time, on the run that saves the most per
   * bit and whose step still fits. Needed where a model is linear between points (Ribbon's rate
   * between whole columns): there the multiplier's optimum sits on a corner and may leave a
   * segment's worth of the budget unspent.
   */
  private static void spendTheRest(
      long[] keysPerRun, double[] reach, double[][] fpp, int[] chosen, double left) {
    while (true) {
      int pick = -1;
      double bestSaving = 0;
      for (int i = 0; i < keysPerRun.length; i++) {
        int g = chosen[i];
        double stepBits = (double) keysPerRun[i] / STEPS_PER_BIT;
        if (keysPerRun[i] == 0 || g + 1 >= GRID_POINTS || stepBits > left) {
          continue;
        }
        double saving = reach[i] * (fpp[i][g] - fpp[i][g + 1]) / stepBits;
        if (saving > bestSaving) {
          pick = i;
          bestSaving = saving;
        }
      }
      if (pick < 0) {
        return;
      }
      chosen[pick]++;
      left -= (double) keysPerRun[pick] / STEPS_PER_BIT;
    }
  }

  /** Every non-empty run at the grid point at or below {@code averageBitsPerKey}. */
  private static int[] evenSplit(long[] keysPerRun, double averageBitsPerKey) {
    int point = (int) Math.floor((averageBitsPerKey - MIN_BITS_PER_KEY) * STEPS_PER_BIT);
    int[] chosen = new int[keysPerRun.length];
    for (int i = 0; i < keysPerRun.length; i++) {
      chosen[i] = keysPerRun[i] == 0 ? 0 : Math.min(GRID_POINTS - 1, point);
    }
    return chosen;
  }

  private static double sumOfRates(long[] keysPerRun, double[] reach, double[][] fpp, int[] chosen) {
    double sum = 0;
    for (int i = 0; i < keysPerRun.length; i++) {
      if (keysPerRun[i] > 0) {
        sum += reach[i] * fpp[i][chosen[i]];
      }
    }
    return sum;
  }

  private static void check(long[] keysPerRun, double averageBitsPerKey, Model model) {
    Objects.requireNonNull(keysPerRun, "keysPerRun");
    Objects.requireNonNull(model, "model");
    for (long keys : keysPerRun) {
      if (keys < 0) {
        throw new IllegalArgumentException("keysPerRun must be >= 0: " + keys);
      }
    }
    if (!(averageBitsPerKey >= MIN_BITS_PER_KEY && averageBitsPerKey <= MAX_BITS_PER_KEY)) {
      throw new IllegalArgumentException(
          "averageBitsPerKey must be in [1, 64]: " + averageBitsPerKey);
    }
  }

  private static Allocation allocation(List<RunBudget> runs, double[] reach) {
    double sum = 0;
    for (int i = 0; i < reach.length; i++) {
      sum += reach[i] * runs.get(i).falsePositiveRate();
    }
    return new Allocation(runs, sum);
  }

  /** Every run met by every absent key. */
  private static double[] reachOfOne(int runs) {
    double[] reach = new double[runs];
    Arrays.fill(reach, 1);
    return reach;
  }

  /** The model's rate at every grid point, for a run of {@code keys} keys. */
  private static double[] grid(Model model, long keys) {
    double[] fpp = new double[GRID_POINTS];
    for (int g = 0; g < GRID_POINTS; g++) {
      fpp[g] = model.fpp(keys, bitsAt(g));
    }
    return fpp;
  }

  private static double bitsAt(int gridPoint) {
    return MIN_BITS_PER_KEY + (double) gridPoint / STEPS_PER_BIT;
  }

  /** Bits all runs spend at multiplier {@code lambda}. */
  private static double bitsSpent(long[] keysPerRun, double[] reach, double[][] fpp, double lambda) {
    double bits = 0;
    for (int i = 0; i < keysPerRun.length; i++) {
      if (keysPerRun[i] > 0) {
        bits += keysPerRun[i] * bitsAt(best(fpp[i], reach[i], keysPerRun[i], lambda));
      }
    }
    return bits;
  }

  /**
   * The grid point minimising reach * rate + lambda * keys * bits; the fewest bits among equals.
   */
  private static int best(double[] fpp, double reach, long keys, double lambda) {
    double price = lambda * keys / STEPS_PER_BIT;
    int best = 0;
    double bestCost = reach * fpp[0];
    for (int g = 1; g < fpp.length; g++) {
      double cost = reach * fpp[g] + price * g;
      if (cost < bestCost) {
        best = g;
        bestCost = cost;
      }
    }
    return best;
  }
}
