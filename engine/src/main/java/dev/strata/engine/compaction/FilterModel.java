package dev.strata.engine.compaction;

import dev.strata.bloom.BloomFormat;
import dev.strata.bloom.BloomSizing;
import dev.strata.engine.manifest.FileMetadata;

/**
 * The false-positive rate of the blocked Bloom filters new tables carry, as a function of bits per
 * filter key, and its inverse: the blocked layout's own model ({@link BloomSizing#blockedFpp}: the
 * rate of a 512-bit block holding {@code 512 / bitsPerKey} keys on average, at the probe count
 * {@link BloomSizing#probesFor} picks for that size, which is what the table writer builds), not the
 * classic formula, which misjudges a blocked filter. A Ribbon table is built for the rate this gives
 * its bits per key, so it is every table's rate.
 *
 * <p>Thread-safe (stateless).
 */
public final class FilterModel {
  /** Fewest bits per key a table's filter gets. */
  public static final double MIN_BITS_PER_KEY = 1;

  /** Most bits per key a table's filter gets, as the blocked filter accepts. */
  public static final double MAX_BITS_PER_KEY = 64;

  private FilterModel() {}

  /**
   * The model rate at {@code bitsPerKey}, clamped to [1, 64], of a blocked filter as the table
   * writer builds it.
   */
  public static double bloomFpp(double bitsPerKey) {
    double b = Math.max(MIN_BITS_PER_KEY, Math.min(MAX_BITS_PER_KEY, bitsPerKey));
    return BloomSizing.blockedFpp(BloomFormat.BLOCK_BITS / b, BloomSizing.probesFor(b));
  }

  /**
   * The blocked Bloom bits per key whose rate table {@code m}'s filter was built for: as the
   * manifest records it, or for a table whose manifest entry predates that (a Bloom table), its
   * filter bits per entry (an estimate); 0 without a filter.
   */
  public static double builtBitsPerKey(FileMetadata m) {
    if (m.filterKind() != null) {
      return m.filterBitsPerKey();
    }
    if (m.filterBytes() <= 0 || m.entryCount() == 0) {
      return 0;
    }
    return Math.min(MAX_BITS_PER_KEY, m.filterBytes() * 8.0 / m.entryCount());
  }

  /**
   * The fewest bits per key (within 1e-6 relative, in [1, 64]) whose model rate is at most {@code
   * fpp}: 1 when one bit per key already reaches it, 64 when even 64 do not.
   */
  public static double bloomBitsForRate(double fpp) {
    double lo = MIN_BITS_PER_KEY;
    double hi = MAX_BITS_PER_KEY;
    if (bloomFpp(lo) <= fpp) {
      return lo;
    }
    if (bloomFpp(hi) > fpp) {
      return hi;
    }
    while (hi - lo > 1e-6 * hi) { // the rate falls as bits grow: bisection keeps bloomFpp(hi) <= fpp
      double mid = (lo + hi) / 2;
      if (bloomFpp(mid) <= fpp) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }
}
