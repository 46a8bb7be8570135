package dev.strata.bench.dbbench;

import dev.strata.bench.common.Mix;

/**
 * A seeded pseudo-random permutation of {@code [0, n)}: the order in which fillrandom writes the
 * keys, so every key is written exactly once yet in no order the engines could exploit, with
 * nothing held in memory (a shuffled array of 100 million indices would not fit a small heap).
 */
/*
 * A balanced Feistel network over the smallest even number of bits 2k with 2^2k >= n is a
 * bijection of [0, 2^2k) whatever its round function; cycle walking (apply it again while the result
 * is >= n) restricts it to a bijection of [0, n) (Black and Rogaway, "Ciphers with Arbitrary Finite
 * Domains", 2002). Since 2^2k < 4n, a walk takes fewer than four steps on average.
 *
 * Immutable.
 */
final class Permutation {
  /** Feistel rounds: four make the output of a keyed round function pseudo-random (Luby-Rackoff). */
  private static final int ROUNDS = 4;

  private final long n;
  private final int halfBits;
  private final long halfMask;
  private final long seed;

  /** A permutation of {@code [0, n)}, {@code n >= 1}, chosen by {@code seed}. */
  Permutation(long n, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1: " + n);
    }
    int bits = 64 - Long.numberOfLeadingZeros(Math.max(1, n - 1));
    this.halfBits = Math.max(1, (bits + 1) / 2);
    this.halfMask = (1L << halfBits) - 1;
    this.n = n;
    this.seed = seed;
  }

  /** The image of {@code i}, {@code 0 <= i < n}. */
  long apply(long i) {
    if (i < 0 || i >= n) {
      throw new IndexOutOfBoundsException("index " + i + " outside [0, " + n + ")");
    }
    long x = i;
    do {
      x = feistel(x);
    } while (x >= n);
    return x;
  }

  private long feistel(long x) {
    long left = x >>> halfBits;
    long right = x & halfMask;
    for (int round = 0; round < ROUNDS; round++) {
      long next = left ^ (Mix.mix(right ^ seed ^ ((long) round << 56)) & halfMask);
      left = right;
      right = next;
    }
    return (left << halfBits) | right;
  }
}
