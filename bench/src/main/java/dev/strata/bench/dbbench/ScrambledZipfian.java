package dev.strata.bench.dbbench;

import java.util.SplittableRandom;

/**
 * Key indices drawn as YCSB 0.17.0's {@code ScrambledZipfianGenerator} draws record numbers: a
 * zipfian rank with constant 0.99 over ten billion items, hashed with FNV-64 onto the {@code n}
 * keys. So some keys are drawn far more often than others (the most popular 1 % of 100,000 keys
 * take about 30 % of the draws, of 1M keys about 40 %), and the popular keys lie scattered over the
 * key space instead of clustered at its start, where a skewed workload's hot blocks would otherwise
 * all sit in one table.
 */
/*
 * The ranks follow Gray et al., "Quickly Generating Billion-Record Synthetic Databases" (SIGMOD
 * 1994), as YCSB does: with u uniform in [0, 1) and zeta(k) = sum of i^-theta for i = 1..k, rank 0
 * when u * zeta(N) < 1, rank 1 when it is below 1 + 2^-theta, otherwise
 * floor(N * (eta * u - eta + 1)^(1 / (1 - theta))), with eta = (1 - (2/N)^(1-theta)) / (1 -
 * zeta(2) / zeta(N)): the first two ranks exactly, the rest by inverting the integral of
 * x^-theta, an approximation of the zipfian law: the share of the top k ranks it gives exceeds
 * the law's zeta(k) / zeta(N) by 0.0073 at most (at k = 54; the test checks both).
 *
 * YCSB draws the rank over a fixed N = 10^10 + 1 items, whatever the record count, so that zeta(N)
 * can be a precomputed constant (summing 10^10 terms would take minutes), then takes the FNV-64 hash
 * of the rank modulo the record count. Many of the ten billion ranks land on each key; the most
 * popular keys are those of the first ranks, which collide rarely. The same N and the same
 * constant here give the same frequencies for the same record count.
 *
 * Immutable.
 */
final class ScrambledZipfian {
  /** YCSB's zipfian constant. */
  static final double THETA = 0.99;

  /** The items the ranks are drawn over, as YCSB's {@code ZipfianGenerator(0, 10^10)}: 10^10 + 1. */
  static final long ITEMS = 10_000_000_001L;

  /** zeta(10^10, 0.99), YCSB's precomputed {@code ZETAN}. */
  static final double ZETA_ITEMS = 26.46902820178302;

  /** FNV-1 64-bit offset basis. */
  private static final long FNV_OFFSET_BASIS = 0xCBF29CE484222325L;

  /** FNV-1 64-bit prime. */
  private static final long FNV_PRIME = 1099511628211L;

  /** Below this, {@code u * zeta(N)} gives rank 1 (and below 1, rank 0). */
  private static final double RANK_1_BOUND = 1.0 + Math.pow(0.5, THETA);

  private static final double ALPHA = 1.0 / (1.0 - THETA);

  private static final double ETA =
      (1 - Math.pow(2.0 / ITEMS, 1 - THETA)) / (1 - RANK_1_BOUND / ZETA_ITEMS);

  private final long n;

  /** Draws over key indices {@code [0, n)}, {@code n >= 1}. */
  ScrambledZipfian(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1: " + n);
    }
    this.n = n;
  }

  /** The next key index, from {@code random}. */
  long next(SplittableRandom random) {
    return scramble(rank(random.nextDouble()), n);
  }

  /** The zipfian rank (0 the most popular) of the uniform draw {@code u} in [0, 1). */
  static long rank(double u) {
    double uz = u * ZETA_ITEMS;
    if (uz < 1.0) {
      return 0;
    }
    if (uz < RANK_1_BOUND) {
      return 1;
    }
    return (long) (ITEMS * Math.pow(ETA * u - ETA + 1, ALPHA));
  }

  /** Where rank {@code rank} lands among {@code n} keys: its FNV-64 hash, made positive, mod n. */
  static long scramble(long rank, long n) {
    return Math.floorMod(Math.abs(fnv64(rank)), n);
  }

  /**
   * FNV-1 over the eight bytes of {@code value}, least significant first, as YCSB's {@code
   * Utils.fnvhash64} before its absolute value.
   */
  static long fnv64(long value) {
    long h = FNV_OFFSET_BASIS;
    long v = value;
    for (int i = 0; i < Long.BYTES; i++) {
      h = (h ^ (v & 0xff)) * FNV_PRIME;
      v >>= 8;
    }
    return h;
  }
}
