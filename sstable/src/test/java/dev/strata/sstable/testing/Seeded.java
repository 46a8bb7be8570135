package dev.strata.sstable.testing;

import java.util.Random;

/**
 * Seeded randomized tests: each trial gets a seed, printed with any failure so it can be replayed
 * with {@code -Dstrata.seed=<seed>} (which then runs that one trial). Never commit a fixed seed:
 * freeze a failing case as a plain regression test instead.
 *
 * <p>Thread-safe (stateless).
 */
public final class Seeded {
  /** One randomized trial. */
  @FunctionalInterface
  public interface Trial {
    void run(Random random) throws Exception;
  }

  private Seeded() {}

  /**
   * Runs {@code trials} trials with fresh seeds (or the one seed of {@code -Dstrata.seed}); a failure
   * is rethrown as an {@link AssertionError} naming the seed.
   */
  public static void run(String name, int trials, Trial trial) {
    String fixed = System.getProperty("strata.seed");
    Random seeds = new Random();
    int n = fixed == null ? trials : 1;
    for (int i = 0; i < n; i++) {
      long seed = fixed == null ? seeds.nextLong() : Long.parseLong(fixed);
      try {
        trial.run(new Random(seed));
      } catch (Throwable t) {
        AssertionError e = new AssertionError(
            name + " failed in trial " + i + " with seed " + seed + " (replay: -Dstrata.seed=" + seed + "): " + t, t);
        throw e;
      }
    }
  }
}
