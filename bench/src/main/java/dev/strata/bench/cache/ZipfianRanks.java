package dev.strata.bench.cache;

import java.util.SplittableRandom;

/**
 * Ranks in {@code [0, n)} drawn from a Zipfian distribution of exponent {@code theta} (YCSB's
 * generator after Gray et al., "Quickly generating billion-record synthetic databases"), then
 * scrambled by a hash so the hot ranks are spread over the key space as hot keys are.
 *
 * <p>Not thread-safe: one per thread.
 */
final class ZipfianRanks {
  private final long n;
  private final double theta;
  private final double alpha;
  private final double zetan;
  private final double eta;
  private final SplittableRandom random;

  ZipfianRanks(long n, double theta, long seed) {
    this.n = n;
    this.theta = theta;
    this.random = new SplittableRandom(seed);
    double z = 0;
    for (long i = 1; i <= n; i++) {
      z += 1 / Math.pow(i, theta);
    }
    this.zetan = z;
    double zeta2 = 1 + 1 / Math.pow(2, theta);
    this.alpha = 1 / (1 - theta);
    this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
  }

  /** The next rank, 0 the most frequent before scrambling. */
  long nextUnscrambled() {
    double u = random.nextDouble();
    double uz = u * zetan;
    if (uz < 1) {
      return 0;
    }
    if (uz < 1 + Math.pow(0.5, theta)) {
      return 1;
    }
    return Math.min(n - 1, (long) (n * Math.pow(eta * u - eta + 1, alpha)));
  }

  /** The next rank, scrambled over {@code [0, n)}. */
  long next() {
    return Math.floorMod(mix(nextUnscrambled()), n);
  }

  private static long mix(long x) {
    x *= 0x9E3779B97F4A7C15L;
    x ^= x >>> 32;
    x *= 0xD6E8FEB86659FD93L;
    return x ^ (x >>> 32);
  }
}
