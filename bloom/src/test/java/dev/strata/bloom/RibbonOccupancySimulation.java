package dev.strata.bloom;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Regenerates the occupancy data behind {@link RibbonSizing#OVERHEAD_BY_LOG2_SLOTS} and the
 * coefficient-width choice (docs/PERFORMANCE.md, "The Ribbon filter"): for a number of slots, random keys
 * are added until the first one makes the system inconsistent; over many trials, the 5th
 * percentile of the keys added is how many keys the slots hold with a failure chance of 1/20.
 * Width 128 runs {@link RibbonBanding} itself; width 64 runs the same elimination with the low
 * coefficient word only.
 *
 * <pre>
 * mvn -q -B -o test-compile -pl bloom
 * java -cp bloom/target/classes:bloom/target/test-classes \
 *     dev.strata.bloom.RibbonOccupancySimulation 128 2000 128 256 512 1024
 * </pre>
 *
 * Arguments: the width (64 or 128), trials per size, then slot counts (multiples of 128). Fixed
 * seeds: the same arguments print the same table.
 *
 * <p>Not thread-safe (a command-line tool).
 */
final class RibbonOccupancySimulation {
  private RibbonOccupancySimulation() {}

  public static void main(String[] args) {
    int width = Integer.parseInt(args[0]);
    int trials = Integer.parseInt(args[1]);
    System.out.println("| width | slots | 5th pct keys | slots/key | median keys | slots/key |");
    System.out.println("|---|---|---|---|---|---|");
    for (int a = 2; a < args.length; a++) {
      int slots = Integer.parseInt(args[a]);
      int[] added = new int[trials];
      SplittableRandom random = new SplittableRandom(0x0cc0_0000L + slots);
      for (int t = 0; t < trials; t++) {
        added[t] = width == 128 ? keysUntilFailure128(slots, random) : keysUntilFailure64(slots, random);
      }
      Arrays.sort(added);
      int p5 = added[trials / 20];
      int median = added[trials / 2];
      System.out.printf(
          Locale.ROOT,
          "| %d | %d | %d | %.4f | %d | %.4f |%n",
          width, slots, p5, (double) slots / p5, median, (double) slots / median);
    }
  }

  private static int keysUntilFailure128(int slots, SplittableRandom random) {
    RibbonBanding banding = new RibbonBanding(slots / RibbonFormat.BLOCK_SLOTS, 8, 0);
    int added = 0;
    while (banding.add(random.nextLong())) {
      added++;
    }
    return added;
  }

  /** Standard Ribbon with 64-bit rows: the same derivation, coefficient bits 0..63 only. */
  private static int keysUntilFailure64(int slots, SplittableRandom random) {
    long[] coefficients = new long[slots];
    int[] results = new int[slots];
    long numStarts = slots - Long.SIZE + 1;
    int added = 0;
    while (true) {
      long x = random.nextLong();
      int slot = RibbonHash.start(x, numStarts);
      long row = RibbonHash.coefficientLo(x);
      int result = RibbonHash.result(x) & 0xff;
      while (coefficients[slot] != 0) {
        row ^= coefficients[slot];
        result ^= results[slot];
        if (row == 0) {
          if (result != 0) {
            return added;
          }
          break;
        }
        int shift = Long.numberOfTrailingZeros(row);
        row >>>= shift;
        slot += shift;
      }
      if (row != 0) {
        coefficients[slot] = row;
        results[slot] = result;
      }
      added++;
    }
  }
}
