package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * The zipfian key chooser against the law it follows and against YCSB 0.17.0's own generator:
 * seeded draws (each test prints its seed), frequencies compared with zeta(k) / zeta(N) and with
 * Gray's approximation within a few standard deviations, the hottest keys and their share with
 * YCSB's, and the FNV-64 scramble against known hashes.
 */
final class ScrambledZipfianTest {
  private static final long SEED = 20260501;

  @Test
  void rank_topRanksDrawTheZipfianLawsShare() {
    System.out.println("ScrambledZipfianTest seed " + SEED);
    SplittableRandom random = new SplittableRandom(SEED);
    int draws = 2_000_000;
    long[] ranks = new long[draws];
    for (int i = 0; i < draws; i++) {
      ranks[i] = ScrambledZipfian.rank(random.nextDouble());
    }
    Arrays.sort(ranks);
    for (long k : new long[] {1, 2, 3, 10, 54, 100, 1_000, 10_000, 100_000, 1_000_000}) {
      double measured = countBelow(ranks, k) / (double) draws;
      double law = zeta(k) / ScrambledZipfian.ZETA_ITEMS;
      double sigma = Math.sqrt(law * (1 - law) / draws);
      // Gray's method draws ranks 0 and 1 exactly and the rest by a continuous approximation that
      // gives the top k ranks up to 0.0073 more than the law (see ScrambledZipfian).
      assertTrue(measured >= law - 5 * sigma && measured <= law + 0.0073 + 5 * sigma,
          "seed " + SEED + ": top " + k + " ranks drew " + measured + ", the law " + law);
      double gray = k <= 2 ? law : grayShare(k);
      assertEquals(gray, measured, 5 * sigma,
          "seed " + SEED + ": top " + k + " ranks against Gray's approximation");
    }
    // The law's first ratio: rank 0 is drawn 2^0.99 times as often as rank 1.
    double ratio = countBelow(ranks, 1) / (double) (countBelow(ranks, 2) - countBelow(ranks, 1));
    assertEquals(Math.pow(2, ScrambledZipfian.THETA), ratio, 0.05, "seed " + SEED);
  }

  @Test
  void next_theMostDrawnPercentOfKeysTakesTheShareYcsbGives() {
    System.out.println("ScrambledZipfianTest seed " + SEED);
    int n = 100_000;
    int draws = 4_000_000;
    double share = topPercentShare(draw(n, draws, SEED), draws);
    // The first n/100 ranks land on distinct keys but for a few collisions, and the other ranks
    // spread evenly over all keys: about F + (1 - F) / 100 with F Gray's share of those ranks.
    double expected = grayShare(n / 100) + (1 - grayShare(n / 100)) / 100;
    assertEquals(expected, share, 0.01, "seed " + SEED + ": share of the top 1 % of keys");
  }

  @Test
  void next_drawsAsYcsbsOwnGenerator_theSameHotKeysAndTheSameShare() {
    System.out.println("ScrambledZipfianTest seed " + SEED);
    int n = 100_000;
    int draws = 4_000_000;
    int[] mine = draw(n, draws, SEED);
    // YCSB's generator draws from ThreadLocalRandom: its side cannot be seeded, so the bounds
    // below are many standard deviations wide (a key's count varies by about its square root).
    ScrambledZipfianGenerator ycsb = new ScrambledZipfianGenerator(0, n - 1);
    int[] theirs = new int[n];
    for (int i = 0; i < draws; i++) {
      theirs[ycsb.nextValue().intValue()]++;
    }
    // The five most popular keys are the same keys (those of ranks 0 to 4), in the same order.
    assertArrayEquals(hottest(theirs, 5), hottest(mine, 5), "seed " + SEED);
    for (int rank = 0; rank < 5; rank++) {
      assertEquals(ScrambledZipfian.scramble(rank, n), hottest(mine, 5)[rank], "rank " + rank);
    }
    assertEquals(topPercentShare(theirs, draws), topPercentShare(mine, draws), 0.005,
        "seed " + SEED + ": share of the top 1 % of keys, YCSB's against this one's");
  }

  @Test
  void next_coversTheKeySpace_andSpreadsTheHotKeysOverIt() {
    System.out.println("ScrambledZipfianTest seed " + SEED);
    int n = 10_000;
    int[] counts = draw(n, 1_000_000, SEED);
    for (int key = 0; key < n; key++) {
      // About 40 % of the draws fall on ranks past the first million, spread evenly: 40 per key.
      assertTrue(counts[key] > 0, "seed " + SEED + ": key " + key + " never drawn");
    }
    boolean[] tenths = new boolean[10];
    for (long key : hottest(counts, 100)) {
      tenths[(int) (key * 10 / n)] = true;
    }
    boolean[] all = new boolean[10];
    Arrays.fill(all, true);
    // A tenth of the key space holds none of 100 scattered keys with probability 0.9^100 < 3e-5.
    assertArrayEquals(all, tenths, "seed " + SEED + ": the 100 hottest keys in every tenth");
    assertTrue(counts[(int) ScrambledZipfian.scramble(0, n)] > 30_000,
        "seed " + SEED + ": rank 0's key is the hottest, about 3.8 % of draws");
  }

  @Test
  void scramble_isYcsbsFnv64OfTheRank() {
    // FNV-1, 64 bits, over the rank's eight bytes least significant first (YCSB's fnvhash64).
    assertEquals(0xa8c7f832281a39c5L, ScrambledZipfian.fnv64(0));
    assertEquals(0x89cd31291d2aefa4L, ScrambledZipfian.fnv64(1));
    assertEquals(0x9016b196e349a31aL, ScrambledZipfian.fnv64(255));
    assertEquals(0xdf604ac5d726ce19L, ScrambledZipfian.fnv64(123456789));
    assertEquals(Math.abs(0xa8c7f832281a39c5L) % 1000, ScrambledZipfian.scramble(0, 1000));
    assertEquals(0, ScrambledZipfian.scramble(12345, 1));
  }

  @Test
  void next_isTheSameForTheSameSeed_andUniformStaysUniform() {
    KeyDistribution.Chooser a = KeyDistribution.ZIPFIAN.over(1000);
    SplittableRandom r1 = new SplittableRandom(7);
    SplittableRandom r2 = new SplittableRandom(7);
    for (int i = 0; i < 1000; i++) {
      long x = a.next(r1);
      assertEquals(x, a.next(r2));
      assertTrue(x >= 0 && x < 1000);
    }
    KeyDistribution.Chooser u = KeyDistribution.UNIFORM.over(10);
    int[] counts = new int[10];
    SplittableRandom r = new SplittableRandom(SEED);
    for (int i = 0; i < 100_000; i++) {
      counts[(int) u.next(r)]++;
    }
    for (int c : counts) {
      assertTrue(Math.abs(c - 10_000) < 600, "seed " + SEED + ": " + Arrays.toString(counts));
    }
    assertThrows(IllegalArgumentException.class, () -> KeyDistribution.ZIPFIAN.over(0));
    assertEquals(KeyDistribution.ZIPFIAN, KeyDistribution.parse(" Zipfian "));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> KeyDistribution.parse("latest")).getMessage().contains("uniform,zipfian"));
  }

  /** The {@code k} keys drawn most often, most often first. */
  private static long[] hottest(int[] counts, int k) {
    Integer[] keys = new Integer[counts.length];
    Arrays.setAll(keys, i -> i);
    Arrays.sort(keys, (a, b) -> Integer.compare(counts[b], counts[a]));
    long[] top = new long[k];
    Arrays.setAll(top, i -> keys[i]);
    return top;
  }

  /** The share of the draws that fell on the most drawn 1 % of the keys. */
  private static double topPercentShare(int[] counts, int draws) {
    int[] sorted = counts.clone();
    Arrays.sort(sorted);
    long top = 0;
    for (int i = sorted.length - sorted.length / 100; i < sorted.length; i++) {
      top += sorted[i];
    }
    return top / (double) draws;
  }

  private static int[] draw(int n, int draws, long seed) {
    ScrambledZipfian keys = new ScrambledZipfian(n);
    SplittableRandom random = new SplittableRandom(seed);
    int[] counts = new int[n];
    for (int i = 0; i < draws; i++) {
      counts[(int) keys.next(random)]++;
    }
    return counts;
  }

  /** Ranks below {@code k} in the sorted {@code ranks}. */
  private static int countBelow(long[] ranks, long k) {
    int at = Arrays.binarySearch(ranks, k);
    if (at < 0) {
      return -at - 1;
    }
    while (at > 0 && ranks[at - 1] == k) {
      at--;
    }
    return at;
  }

  /** zeta(k) = sum of i^-theta, i = 1..k: the law's weight of the top k ranks. */
  private static double zeta(long k) {
    double sum = 0;
    for (long i = 1; i <= k; i++) {
      sum += Math.pow(i, -ScrambledZipfian.THETA);
    }
    return sum;
  }

  /**
   * The share of the ranks below {@code k >= 2} in Gray's method, from its inverse: the draws u
   * whose rank is below k are those up to 1 - (1 - (k / N)^(1 - theta)) / eta.
   */
  private static double grayShare(long k) {
    double theta = ScrambledZipfian.THETA;
    double zetaN = ScrambledZipfian.ZETA_ITEMS;
    double eta = (1 - Math.pow(2.0 / ScrambledZipfian.ITEMS, 1 - theta))
        / (1 - (1 + Math.pow(0.5, theta)) / zetaN);
    double u = 1 - (1 - Math.pow((double) k / ScrambledZipfian.ITEMS, 1 - theta)) / eta;
    return Math.max(u, (1 + Math.pow(0.5, theta)) / zetaN);
  }
}
