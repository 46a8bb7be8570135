package dev.strata.bench.dbbench;

import dev.strata.bench.common.Mix;
import java.nio.charset.StandardCharsets;

/**
 * The keys of a run, derived from the seed alone, so both engines, and every process of the run,
 * see byte-identical keys.
 *
 * <p>Key {@code i} ({@code 0 <= i < n}) is 16 bytes: the first 8 are {@code i * stride + r(i)}
 * big-endian, where {@code stride = floor(2^64 / n)} and {@code r(i)} is a seeded pseudo-random
 * offset below the stride; the last 8 are a seeded pseudo-random number with its lowest bit clear.
 * So keys are spread uniformly over the whole key space and look random, yet key order is index
 * order: fillseq writes indices ascending, fillrandom in the order of a {@link Permutation}.
 *
 * <p>Missing key {@code i} is key {@code i} with the lowest bit of its last byte set: it sorts right
 * after key {@code i}, so it lands in the same tables and blocks as the present keys (as db_bench's
 * readmissing keys do), and no present key can equal it.
 *
 * <p>Wide rows use the same construction over {@code n / columns} rows; column {@code c} is {@code
 * "col%05d"}.
 *
 * <p>Immutable.
 */
final class KeySpace {
  /** Bytes of every key (and of every wide row key). */
  static final int KEY_BYTES = 16;

  private final long n;
  private final long stride;
  private final long seed;

  /** The key space of {@code n >= 1} keys from {@code seed}. */
  KeySpace(long n, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1: " + n);
    }
    this.n = n;
    this.stride = Long.divideUnsigned(-1L, n);
    this.seed = seed;
  }

  long size() {
    return n;
  }

  /** Present key {@code i}. */
  byte[] key(long i) {
    byte[] k = new byte[KEY_BYTES];
    long prefix = i * stride + Long.remainderUnsigned(Mix.mix(seed ^ i), stride);
    putLong(k, 0, prefix);
    putLong(k, 8, Mix.mix(~seed + i) & ~1L);
    return k;
  }

  /** Missing key {@code i}: sorts right after {@code key(i)} and equals no present key. */
  byte[] missingKey(long i) {
    byte[] k = key(i);
    k[KEY_BYTES - 1] |= 1;
    return k;
  }

  /** Column {@code c} of a wide row. */
  static byte[] column(int c) {
    return String.format("col%05d", c).getBytes(StandardCharsets.US_ASCII);
  }

  private static void putLong(byte[] b, int at, long v) {
    for (int i = 7; i >= 0; i--) {
      b[at + i] = (byte) v;
      v >>>= 8;
    }
  }
}
