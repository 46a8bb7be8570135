package dev.strata.bloom;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The false-positive model of the blocked filter and the probe count derived from it.
 *
 * <h2>The model</h2>
 *
 * A classic Bloom filter's {@code (1 - e^{-kn/m})^k} is wrong for a blocked one: keys do not spread
 * evenly over blocks, and an overloaded block costs more than an underloaded one saves. Putze,
 * Sanders and Singler [1] average the in-block rate over the Poisson distribution of keys per block;
 * this class does the same, exactly for Strata's sectorized layout ({@link BlockedBloomFilter}):
 *
 * <ul>
 *   <li>A block receives {@code X ~ Poisson(lambda)} keys, {@code lambda = keys / numBlocks}.
 *   <li>Each key makes {@code z = k / 2} steps into z distinct words of the block: the first word is
 *       uniform, step s adds an offset drawn uniformly from its own range ({@link #stepOffsetLow},
 *       {@link #stepOffsetRange}); each step sets 2 uniformly chosen bits (possibly the same bit).
 *   <li>A query makes its z steps the same way and is a false positive when all its bits are set.
 * </ul>
 *
 * If word w is touched by {@code m_w} keys, a given set of i bits in it is still all clear with
 * probability {@code u_i^{m_w}}, {@code u_i = (1 - i/64)^2}. With Poisson keys the joint generating
 * function of the loads is {@code E[prod_w s_w^{m_w}] = exp(lambda * (E_S[prod_{w in S} s_w] - 1))},
 * S being one key's set of words. Inclusion and exclusion over the clear bits of the query's words
 * {@code w_1..w_z} then give, exactly,
 *
 * <pre>
 *   P(pass | query words) = sum over (i_1..i_z) in {0,1,2}^z of
 *                           prod_j c(i_j) * exp(lambda * (E_S[prod_{w_j in S} u_{i_j}] - 1))
 *   c(0) = 1,  c(1) = -(1/64 + 2 * 63/64),  c(2) = 63/64     (2 draws: 1 or 2 distinct bits)
 * </pre>
 *
 * averaged over the query's word pattern. Measured rates agree with it to within sampling noise
 * ({@code FalsePositiveRateTest}, {@code bloom/simulation.md}).
 *
 * <h2>Probe count</h2>
 *
 * The textbook {@code k = ln2 * bitsPerKey} overshoots for blocked filters, because overloaded
 * blocks punish extra probes. {@link #probesFor} picks the k (an even number: whole steps) that
 * minimises the model at the requested bits/key; the thresholds in {@link #PROBE_THRESHOLDS} were
 * computed by {@link #computeThresholds()} (bisection on the model), checked in so the choice is
 * visible in review, and {@code BloomSizingTest} recomputes them so they cannot drift.
 *
 * <h2>Sizing by rate</h2>
 *
 * {@link #forRate} inverts the same model: the fewest bits per key whose best probe count reaches
 * the rate (the model's rate at the best probe count falls as bits per key grow, so a root finder
 * on its logarithm finds it in a few evaluations), then the fewest whole blocks for the keys at
 * that size, with the probe count that is best for them. Sizing through the classic formula
 * instead would miss the rate: at 1% it gives 9.59 bits per key, where this layout needs 9.96
 * (and 15.6 against 14.4 at 0.1%).
 *
 * <p>[1] F. Putze, P. Sanders, J. Singler, "Cache-, Hash- and Space-Efficient Bloom Filters", WEA
 * 2007. [2] H. Lang, T. Neumann, A. Kemper, P. Boncz, "Performance-Optimal Filtering: Bloom
 * Overtakes Cuckoo at High Throughput", VLDB 2019 (sectorization, choice by total cost).
 *
 * <p>Thread-safe: stateless but for each step count's precomputed model terms, immutable once
 * published.
 */
public final class BloomSizing {
  /**
   * {@code PROBE_THRESHOLDS[i]}: the bits/key from which {@code 2 * (i + 2)} probes have a lower
   * model false-positive rate than {@code 2 * (i + 1)}. Computed by {@link #computeThresholds()}.
   */
  static final double[] PROBE_THRESHOLDS = {
    4.0876, 7.2284, 10.7345, 14.6801, 19.8124, 26.2753, 35.2018,
  };

  /** Fewest bits per key sizing by rate considers: rates above this size's are met by it. */
  static final double MIN_BITS_PER_KEY_FOR_RATE = 0.5;

  /** Most bits per key sizing by rate considers, as {@link BlockedBloomFilter#create} accepts. */
  static final double MAX_BITS_PER_KEY_FOR_RATE = 64;

  /** Relative precision of the bits per key found for a rate. */
  private static final double RATE_SEARCH_PRECISION = 1e-9;

  private static final int WORDS = BloomFormat.WORDS_PER_BLOCK;
  private static final int WORD_BITS = Long.SIZE;

  private BloomSizing() {}

  /** The probe count (even, 2..16) that minimises the blocked model at {@code bitsPerKey}. */
  public static int probesFor(double bitsPerKey) {
    int steps = 1;
    while (steps <= PROBE_THRESHOLDS.length && bitsPerKey >= PROBE_THRESHOLDS[steps - 1]) {
      steps++;
    }
    return steps * BloomFormat.BITS_PER_STEP;
  }

  /**
   * The model's false-positive rate of a sectorized blocked filter with {@code numProbes} probes
   * and {@code keysPerBlock} keys per 512-bit block on average.
   */
  public static double blockedFpp(double keysPerBlock, int numProbes) {
    if (keysPerBlock <= 0) {
      return 0;
    }
    return BlockedModel.forSteps(numProbes / BloomFormat.BITS_PER_STEP).fpp(keysPerBlock);
  }

  /** A blocked filter's size: its blocks and probes. */
  record BlockedShape(int numBlocks, int numProbes) {}

  /**
   * The smallest blocked filter for {@code keys} keys whose model rate is at most {@code fpp}
   * (see the class comment).
   *
   * @throws IllegalArgumentException if even {@value #MAX_BITS_PER_KEY_FOR_RATE} bits per key do
   *     not reach {@code fpp}, or the filter would exceed {@link BloomFormat#MAX_BLOCKS} blocks
   */
  static BlockedShape forRate(long keys, double fpp) {
    double bits = bitsPerKeyForRate(fpp);
    double blocks = Math.max(1, Math.ceil(keys * bits / BloomFormat.BLOCK_BITS));
    while (true) {
      if (blocks > BloomFormat.MAX_BLOCKS) {
        throw new IllegalArgumentException(
            "expectedKeys too large for fpp " + fpp + ": needs " + (long) blocks
                + " blocks, at most " + BloomFormat.MAX_BLOCKS);
      }
      if (keys == 0) {
        return new BlockedShape((int) blocks, probesFor(bits));
      }
      double perBlock = keys / blocks;
      int probes = bestProbes(perBlock);
      if (blockedFpp(perBlock, probes) <= fpp) {
        return new BlockedShape((int) blocks, probes);
      }
      blocks++; // only when rounding put the root a hair above the rate
    }
  }

  /**
   * The fewest bits per key (within {@link #RATE_SEARCH_PRECISION}) at which the best probe count
   * reaches {@code fpp}; {@link #MIN_BITS_PER_KEY_FOR_RATE} if that already does.
   */
  static double bitsPerKeyForRate(double fpp) {
    double lo = MIN_BITS_PER_KEY_FOR_RATE;
    double hi = MAX_BITS_PER_KEY_FOR_RATE;
    double target = Math.log(fpp);
    double fLo = Math.log(bestFpp(lo)) - target;
    if (fLo <= 0) {
      return lo;
    }
    double fHi = Math.log(bestFpp(hi)) - target;
    if (fHi > 0) {
      throw new IllegalArgumentException(
          "fpp " + fpp + " is below what the blocked layout reaches at "
              + MAX_BITS_PER_KEY_FOR_RATE + " bits per key: " + bestFpp(hi));
    }
    // Illinois regula falsi on log(rate), nearly linear in bits per key: a few evaluations.
    int side = 0;
    while (hi - lo > RATE_SEARCH_PRECISION * hi) {
      double mid = hi - fHi * (hi - lo) / (fHi - fLo);
      if (!(mid > lo && mid < hi)) {
        mid = (lo + hi) / 2;
      }
      double fMid = Math.log(bestFpp(mid)) - target;
      if (fMid > 0) {
        lo = mid;
        fLo = fMid;
        if (side == -1) {
          fHi /= 2;
        }
        side = -1;
      } else {
        hi = mid;
        fHi = fMid;
        if (side == 1) {
          fLo /= 2;
        }
        side = 1;
      }
    }
    return hi;
  }

  /** The model's rate at {@code bitsPerKey} with the best probe count for it. */
  private static double bestFpp(double bitsPerKey) {
    double perBlock = BloomFormat.BLOCK_BITS / bitsPerKey;
    return blockedFpp(perBlock, bestProbes(perBlock));
  }

  /**
   * The probe count with the lowest model rate at {@code keysPerBlock}: {@link #probesFor}'s
   * choice or a neighbour, compared exactly (the thresholds are rounded to 4 decimals).
   */
  private static int bestProbes(double keysPerBlock) {
    int chosen = probesFor(BloomFormat.BLOCK_BITS / keysPerBlock);
    int best = chosen;
    double bestFpp = blockedFpp(keysPerBlock, chosen);
    for (int probes = chosen - BloomFormat.BITS_PER_STEP;
        probes <= chosen + BloomFormat.BITS_PER_STEP;
        probes += 2 * BloomFormat.BITS_PER_STEP) {
      if (probes >= BloomFormat.MIN_PROBES && probes <= BloomFormat.MAX_PROBES) {
        double fpp = blockedFpp(keysPerBlock, probes);
        if (fpp < bestFpp) {
          best = probes;
          bestFpp = fpp;
        }
      }
    }
    return best;
  }

  /** The classic formula {@code (1 - e^{-kn/m})^k} for k bits spread over m bits. */
  public static double classicFpp(double bits, double keys, int numProbes) {
    if (keys <= 0) {
      return 0;
    }
    return Math.pow(-Math.expm1(-numProbes * keys / bits), numProbes);
  }

  /** Recomputes {@link #PROBE_THRESHOLDS} from the model; kept for the test and for review. */
  static double[] computeThresholds() {
    int maxSteps = BloomFormat.MAX_PROBES / BloomFormat.BITS_PER_STEP;
    double[] thresholds = new double[maxSteps - 1];
    for (int steps = 1; steps < maxSteps; steps++) {
      int fewer = steps * BloomFormat.BITS_PER_STEP;
      int more = fewer + BloomFormat.BITS_PER_STEP;
      double lo = 0.5;
      double hi = 64;
      for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        double perBlock = BloomFormat.BLOCK_BITS / mid;
        if (blockedFpp(perBlock, more) < blockedFpp(perBlock, fewer)) {
          hi = mid;
        } else {
          lo = mid;
        }
      }
      thresholds[steps - 1] = Math.round(hi * 1e4) / 1e4;
    }
    return thresholds;
  }

  /**
   * The lowest word offset, from the first step's word, that step {@code step} of a {@code
   * steps}-step probe may use. The offsets 1..7 are split into {@code steps - 1} consecutive ranges,
   * one per step after the first, so the steps of one key always land in distinct words.
   */
  static int stepOffsetLow(int steps, int step) {
    return step == 0 ? 0 : 1 + (WORDS - 1) * (step - 1) / (steps - 1);
  }

  /** How many offsets step {@code step} of a {@code steps}-step probe chooses from. */
  static int stepOffsetRange(int steps, int step) {
    return step == 0 ? 1 : (WORDS - 1) * step / (steps - 1) - (WORDS - 1) * (step - 1) / (steps - 1);
  }

  /**
   * The model for one step count. Only {@code lambda} (keys per block) varies between evaluations,
   * so every term's coefficient and exponent is computed once per step count: an evaluation is then
   * one {@code exp} per term, cheap enough for a root finder (sizing by rate) to call it freely.
   */
  private static final class BlockedModel {
    /** c(i): inclusion-exclusion coefficient for i clear bits among a step's 2 draws. */
    private static final double[] COEFFICIENT = {
      1, -(1.0 / WORD_BITS + 2 * (WORD_BITS - 1.0) / WORD_BITS), (WORD_BITS - 1.0) / WORD_BITS
    };
    /** u_i = P(one key's 2 bits in a word both miss i given bits). */
    private static final double[] CLEAR = {1, sq(1 - 1.0 / WORD_BITS), sq(1 - 2.0 / WORD_BITS)};

    /** The model of each step count, built on first use (the same values whoever builds it). */
    private static final AtomicReferenceArray<BlockedModel> BY_STEPS =
        new AtomicReferenceArray<>(BloomFormat.MAX_PROBES / BloomFormat.BITS_PER_STEP + 1);

    private final int steps;
    /** Every word pattern a probe can take relative to its first word: offsets per step. */
    private final int[][] patterns;
    /** Term t's prod_j c(i_j), divided by the number of query patterns it is averaged over. */
    private final double[] coefficient;
    /** Term t's E_S[prod_{w_j in S} u_{i_j}] - 1, the factor of lambda in its exponent. */
    private final double[] exponent;

    static BlockedModel forSteps(int steps) {
      BlockedModel model = BY_STEPS.get(steps);
      if (model == null) {
        BY_STEPS.compareAndSet(steps, null, new BlockedModel(steps));
        model = BY_STEPS.get(steps);
      }
      return model;
    }

    private BlockedModel(int steps) {
      this.steps = steps;
      this.patterns = patterns(steps);
      int combinations = (int) Math.round(Math.pow(COEFFICIENT.length, steps));
      this.coefficient = new double[patterns.length * combinations];
      this.exponent = new double[coefficient.length];
      int[] clearIndex = new int[steps];
      int t = 0;
      // By symmetry the query's first word can be taken as word 0; its pattern is uniform.
      for (int[] query : patterns) {
        for (int c = 0; c < combinations; c++) {
          double product = 1.0 / patterns.length;
          int rest = c;
          for (int s = 0; s < steps; s++) {
            clearIndex[s] = rest % COEFFICIENT.length;
            rest /= COEFFICIENT.length;
            product *= COEFFICIENT[clearIndex[s]];
          }
          coefficient[t] = product;
          exponent[t] = keyProductMean(query, clearIndex) - 1;
          t++;
        }
      }
    }

    double fpp(double lambda) {
      double total = 0;
      for (int t = 0; t < coefficient.length; t++) {
        total += coefficient[t] * Math.exp(lambda * exponent[t]);
      }
      return Math.max(0, Math.min(1, total));
    }

    /** E over one key's words S of prod over the query's words in S of u_{i}. */
    private double keyProductMean(int[] query, int[] clearIndex) {
      double[] perWord = new double[WORDS];
      java.util.Arrays.fill(perWord, 1);
      for (int s = 0; s < steps; s++) {
        perWord[query[s]] = CLEAR[clearIndex[s]];
      }
      double sum = 0;
      for (int first = 0; first < WORDS; first++) {
        for (int[] key : patterns) {
          double product = 1;
          for (int s = 0; s < steps; s++) {
            product *= perWord[(first + key[s]) & (WORDS - 1)];
          }
          sum += product;
        }
      }
      return sum / (WORDS * patterns.length);
    }

    /** All offset vectors (offset 0 for the first step), each equally likely. */
    private static int[][] patterns(int steps) {
      int count = 1;
      for (int s = 0; s < steps; s++) {
        count *= stepOffsetRange(steps, s);
      }
      int[][] out = new int[count][steps];
      for (int n = 0; n < count; n++) {
        int rest = n;
        for (int s = 0; s < steps; s++) {
          int range = stepOffsetRange(steps, s);
          out[n][s] = stepOffsetLow(steps, s) + rest % range;
          rest /= range;
        }
      }
      return out;
    }

    private static double sq(double x) {
      return x * x;
    }
  }
}
