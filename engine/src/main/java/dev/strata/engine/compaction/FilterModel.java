package dev.strata.engine.compaction;

/**
 * The false-positive rate of the blocked Bloom filters new tables carry, as a function of bits per
 * filter key, and its inverse: the blocked layout's own model ({@code BloomSizing.blockedFpp}: the
 * rate of a 512-bit block holding {@code 512 / bitsPerKey} keys on average, at the probe count
 * {@code BloomSizing.probesFor} picks for that size, which is what the table writer builds), not
 * the classic formula, which misjudges a blocked filter.
 *
 * <p>The model costs milliseconds per evaluation at high bits per key (it sums over bit patterns),
 * and {@link FilterBudget} evaluates it thousands of times per plan. So its logarithm is checked in
 * here at every half bit per key over [1, 64] ({@code FilterModelTest} recomputes every point from
 * {@code BloomSizing}, so the table cannot drift) and interpolated linearly in between: the
 * logarithm is nearly linear in bits per key, and the interpolated rate stays within 1.2 % of the
 * model everywhere (the test checks the midpoints).
 *
 * <p>Thread-safe (constants only).
 */
public final class FilterModel {
  /** Fewest bits per key a table's filter gets. */
  public static final double MIN_BITS_PER_KEY = 1;

  /** Most bits per key a table's filter gets, as the blocked filter accepts. */
  public static final double MAX_BITS_PER_KEY = 64;

  /** Table points per bit per key. */
  static final int POINTS_PER_BIT = 2;

  /** {@code ln(blockedFpp(512 / b, probesFor(b)))} at {@code b = 1 + i / POINTS_PER_BIT}. */
  static final double[] LOG_FPP = {
    -0.292484, -0.611097, -0.912017, -1.182388, -1.423752, -1.640138, -1.835466, -2.094684,
    -2.355728, -2.602166, -2.835031, -3.055391, -3.264276, -3.492649, -3.736442, -3.970891,
    -4.196487, -4.413718, -4.623058, -4.824958, -5.038612, -5.262035, -5.478900, -5.689492,
    -5.894087, -6.092951, -6.286338, -6.474493, -6.673140, -6.875557, -7.073173, -7.266165,
    -7.454703, -7.638952, -7.819070, -7.995208, -8.167512, -8.336120, -8.507294, -8.685135,
    -8.859498, -9.030494, -9.198230, -9.362809, -9.524329, -9.682884, -9.838567, -9.991465,
    -10.141662, -10.289239, -10.434274, -10.581825, -10.733011, -10.881765, -11.028151, -11.172235,
    -11.314077, -11.453736, -11.591270, -11.726734, -11.860182, -11.991665, -12.121234, -12.248935,
    -12.374816, -12.498921, -12.621294, -12.741977, -12.861011, -12.982791, -13.105896, -13.227400,
    -13.347341, -13.465752, -13.582668, -13.698120, -13.812143, -13.924765, -14.036017, -14.145929,
    -14.254528, -14.361842, -14.467897, -14.572720, -14.676334, -14.778765, -14.880038, -14.980174,
    -15.079195, -15.177125, -15.273983, -15.369794, -15.464571, -15.558341, -15.651115, -15.742918,
    -15.833766, -15.923676, -16.012668, -16.100754, -16.187954, -16.274280, -16.359749, -16.444382,
    -16.528184, -16.611170, -16.693367, -16.774784, -16.855410, -16.935284, -17.014421, -17.092825,
    -17.170498, -17.247465, -17.323737, -17.399317, -17.474234, -17.548476, -17.622075, -17.694997,
    -17.767331, -17.839035, -17.910086, -17.980525, -18.050451, -18.119704, -18.188391
  };

  /** Grid steps per bit per key of {@link FilterBudget}'s search. */
  static final int STEPS_PER_BIT = 32;

  private FilterModel() {}

  /**
   * The model rate at {@code bitsPerKey}, clamped to [1, 64], of a blocked filter as the table
   * writer builds it.
   */
  public static double bloomFpp(double bitsPerKey) {
    double b = Math.max(MIN_BITS_PER_KEY, Math.min(MAX_BITS_PER_KEY, bitsPerKey));
    double x = (b - MIN_BITS_PER_KEY) * POINTS_PER_BIT;
    int i = Math.min((int) x, LOG_FPP.length - 2);
    double t = x - i;
    return Math.exp(LOG_FPP[i] + t * (LOG_FPP[i + 1] - LOG_FPP[i]));
  }

  /**
   * The fewest bits per key (within 1e-9 relative, in [1, 64]) whose model rate is at most {@code
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
    while (hi - lo > 1e-9 * hi) { // the rate falls as bits grow: bisection keeps bloomFpp(hi) <= fpp
      double mid = (lo + hi) / 2;
      if (bloomFpp(mid) <= fpp) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  /** Search grid point {@code i} in bits per key: {@code 1 + i / STEPS_PER_BIT}. */
  static double gridBits(int i) {
    return MIN_BITS_PER_KEY + (double) i / STEPS_PER_BIT;
  }

  /** Search grid points over [1, 64]. */
  static int gridPoints() {
    return Grid.FPP.length;
  }

  /** The model rate at search grid point {@code i}. */
  static double gridFpp(int i) {
    return Grid.FPP[i];
  }

  /** The search grid's rates, interpolated from the table once. */
  private static final class Grid {
    static final double[] FPP = tabulate();

    private static double[] tabulate() {
      int n = (int) ((MAX_BITS_PER_KEY - MIN_BITS_PER_KEY) * STEPS_PER_BIT) + 1;
      double[] fpp = new double[n];
      for (int i = 0; i < n; i++) {
        fpp[i] = bloomFpp(gridBits(i));
      }
      return fpp;
    }
  }
}
