package dev.strata.bench.bloom;

/**
 * The filters the benchmarks compare, as a JMH {@code @Param}.
 *
 * <p>Immutable.
 */
public enum FilterKind {
  /** Strata's cache-line-blocked filter ({@code dev.strata.bloom.BlockedBloomFilter}). */
  BLOCKED,
  /** Strata's classic filter, k probes over the whole array ({@code ClassicBloomFilter}). */
  CLASSIC,
  /** Guava's {@code BloomFilter}, the filter most Java code uses: the outside baseline. */
  GUAVA;

  /**
   * The false-positive rate to hand Guava's {@code BloomFilter.create} so that it allocates {@code
   * bitsPerKey} bits per key: Guava sizes by {@code m = -n ln p / (ln 2)^2}, so {@code p = exp(-b
   * (ln 2)^2)} gives {@code m = b n} (0.00819 at 10 bits/key) and its own {@code k = round(b ln
   * 2)}.
   */
  public static double guavaFppFor(double bitsPerKey) {
    double ln2 = Math.log(2);
    return Math.exp(-bitsPerKey * ln2 * ln2);
  }
}
