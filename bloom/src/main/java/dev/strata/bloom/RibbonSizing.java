package dev.strata.bloom;

/**
 * The sizing of a {@link RibbonFilter}: how many slots a key count needs for its construction to
 * succeed, how many solution columns a bits-per-key budget or a false-positive rate asks for, and
 * the false-positive model of a built filter.
 *
 * <h2>Slots</h2>
 *
 * Standard Ribbon's on-the-fly elimination fails when some 128-slot window receives more
 * independent rows than it can hold; the slots needed per key grow slowly with the filter's size.
 * {@link #OVERHEAD_BY_LOG2_SLOTS} is the number of slots per key at which one attempt fails with
 * probability at most 1/20: the 5th percentile, over many random key sets, of the keys added
 * before the first failure ({@code RibbonOccupancySimulation} in the tests regenerates it; the
 * figures are in docs/PERFORMANCE.md). A failed attempt is retried under another seed, so builds
 * succeed in about 1.05 attempts on average. Between the table's powers of two the factor is
 * interpolated in log2(slots); beyond it, it grows by {@link #OVERHEAD_PER_DOUBLING} per doubling,
 * the slope RocksDB's ribbon_config.cc uses for the same width.
 *
 * <p>The filter gets {@link #SPARE_SLOTS} more slots than that. The table marks where attempts
 * begin to fail, and elimination slows down steeply as the load approaches it: a row travels
 * further before it meets a free slot, and the build's time is mostly that travel. A little
 * spare memory there buys a markedly faster build (and fewer retries); docs/PERFORMANCE.md has
 * the measured trade.
 *
 * <h2>Columns</h2>
 *
 * Each column is one fingerprint bit: a query whose start lies in a block of c columns passes
 * with probability 2^-c whatever the key set, so the model is exact given uniform hashing: {@code
 * fpp = (lowerStarts * 2^-(columns - 1) + upperStarts * 2^-columns) / numStarts}, where the first
 * {@code lowerBlocks} blocks have one column fewer. Mixing two adjacent column counts is the
 * cheapest way to spend a fractional number of bits per slot (2^-c is convex, so any other mix of
 * counts with the same average costs more false positives).
 *
 * <p>Thread-safe (stateless).
 */
public final class RibbonSizing {
  /**
   * Slots per key at which one construction attempt fails with probability at most 1/20, for
   * 128 * 2^0 .. 128 * 2^14 slots (simulated; see the class comment).
   */
  static final double[] OVERHEAD_BY_LOG2_SLOTS = {
    1.041, 1.029, 1.025, 1.023, 1.023, 1.023, 1.024, 1.027, 1.030, 1.033, 1.037, 1.041, 1.044,
    1.047, 1.051,
  };

  /**
   * Slots a filter gets beyond the failure-chance sizing, as a fraction of it: 2% more memory for
   * a markedly faster elimination at chunk sizes (see the class comment). 0 gives the sizing of
   * the failure chance alone.
   */
  static final double SPARE_SLOTS = 0.02;

  /** Growth of the overhead per doubling of slots beyond the table. */
  static final double OVERHEAD_PER_DOUBLING = 0.004;

  /** Construction attempts at the sized slot count, each under its own seed, before adding slots. */
  static final int ATTEMPTS_AT_SIZE = 4;

  /** Each attempt after those adds this fraction of the sized block count (at least a block). */
  static final double GROWTH_PER_ATTEMPT = 1.0 / 64;

  /** Attempts before giving up on a real filter: the chance of reaching it is below 1e-20. */
  static final int MAX_ATTEMPTS = 32;

  private RibbonSizing() {}

  /** A filter's layout: blocks, the columns of the upper blocks, and the blocks with one fewer. */
  record Shape(int numBlocks, int columns, int lowerBlocks) {
    Shape {
      assert numBlocks == 0 || numBlocks >= RibbonFormat.MIN_BLOCKS : "numBlocks=" + numBlocks;
      assert numBlocks >= 0 && columns >= 0 && columns <= RibbonFormat.MAX_COLUMNS;
      assert lowerBlocks >= 0 && (lowerBlocks < numBlocks || lowerBlocks == 0);
      assert columns > 0 || lowerBlocks == 0;
    }

    /** The model's false-positive rate of a filter of this shape. */
    double fpp() {
      return RibbonSizing.fpp(numBlocks, columns, lowerBlocks);
    }
  }

  /**
   * Start slots of a filter of {@code numBlocks} blocks: a row's 128 slots must lie inside the
   * filter, so the last start is 128 slots before its end.
   */
  static long numStarts(long numBlocks) {
    return numBlocks == 0
        ? 0
        : numBlocks * RibbonFormat.BLOCK_SLOTS - RibbonFormat.COEFFICIENT_BITS + 1;
  }

  /** Slots per key needed at {@code slots} slots for a 1/20 chance of failure per attempt. */
  static double overhead(double slots) {
    double log2 =
        Math.log(Math.max(1, slots / RibbonFormat.COEFFICIENT_BITS)) / Math.log(2);
    int last = OVERHEAD_BY_LOG2_SLOTS.length - 1;
    if (log2 >= last) {
      return OVERHEAD_BY_LOG2_SLOTS[last] + (log2 - last) * OVERHEAD_PER_DOUBLING;
    }
    int below = (int) log2;
    double fraction = log2 - below;
    return OVERHEAD_BY_LOG2_SLOTS[below] * (1 - fraction)
        + OVERHEAD_BY_LOG2_SLOTS[below + 1] * fraction;
  }

  /** Slots per key a filter of {@code slots} slots is sized at: the overhead and the spare. */
  static double slotsPerKey(double slots) {
    return overhead(slots) * (1 + SPARE_SLOTS);
  }

  /**
   * The fewest blocks that hold {@code keys} keys at the sized failure chance and spare: the
   * smallest count of at least {@link RibbonFormat#MIN_BLOCKS} with {@code slots >= keys *
   * slotsPerKey(slots)} (found by fixed-point iteration from below, which never overshoots while
   * the overhead does not fall).
   * 0 for no keys.
   */
  static long blocksFor(long keys) {
    if (keys == 0) {
      return 0;
    }
    long blocks = Math.max(RibbonFormat.MIN_BLOCKS, ceilDiv(keys, RibbonFormat.BLOCK_SLOTS));
    while (slots(blocks) < keys * slotsPerKey(slots(blocks))) {
      double needed = keys * slotsPerKey(slots(blocks)) / RibbonFormat.BLOCK_SLOTS;
      blocks = Math.max(blocks + 1, (long) Math.ceil(needed));
    }
    return blocks;
  }

  private static double slots(long blocks) {
    return (double) blocks * RibbonFormat.BLOCK_SLOTS;
  }

  /** The block count of attempt {@code attempt} of a build sized at {@code blocks} blocks. */
  static long blocksForAttempt(long blocks, int attempt) {
    if (attempt < ATTEMPTS_AT_SIZE) {
      return blocks;
    }
    long step = Math.max(1, (long) Math.ceil(blocks * GROWTH_PER_ATTEMPT));
    return blocks + step * (attempt - ATTEMPTS_AT_SIZE + 1);
  }

  /**
   * The shape that spends {@code bitsPerKey} bits per key on a filter of {@code keys} keys in
   * {@code numBlocks} blocks: the average columns per slot is {@code bitsPerKey} divided by the
   * overhead the key count needs, and the filter gets the rate of that average, {@code 2^-c (1 + c
   * - average)} for {@code c = ceil(average)}. A large filter so uses {@code keys * bitsPerKey}
   * bits (within a block); a tiny or retried one keeps the same rate at some extra memory. At most
   * {@link RibbonFormat#MAX_COLUMNS} columns.
   */
  static Shape shapeForBitsPerKey(long keys, int numBlocks, double bitsPerKey) {
    double average = averageColumns(keys, bitsPerKey);
    if (average >= RibbonFormat.MAX_COLUMNS) {
      return new Shape(numBlocks, RibbonFormat.MAX_COLUMNS, 0);
    }
    int columns = (int) Math.ceil(average);
    return new Shape(numBlocks, columns, lowerBlocks(numBlocks, columns, columns - average, false));
  }

  /** Columns per slot that {@code bitsPerKey} buys a filter of {@code keys} keys at its slots. */
  private static double averageColumns(long keys, double bitsPerKey) {
    return bitsPerKey / slotsPerKey(slots(blocksFor(keys)));
  }

  /**
   * The model's rate of a filter of {@code keys} keys built at {@code bitsPerKey} bits per key, as
   * {@link #shapeForBitsPerKey} sizes it (without the rounding to whole blocks): {@code 2^-c (1 + c
   * - average)} for the average columns per slot and {@code c} its ceiling, at least 2^-{@value
   * RibbonFormat#MAX_COLUMNS}.
   */
  static double fppAtBitsPerKey(long keys, double bitsPerKey) {
    double average = Math.max(0, averageColumns(keys, bitsPerKey));
    if (average >= RibbonFormat.MAX_COLUMNS) {
      return Math.scalb(1.0, -RibbonFormat.MAX_COLUMNS);
    }
    int columns = (int) Math.ceil(average);
    return Math.scalb(1.0, -columns) * (1 + columns - average);
  }

  /**
   * The smallest shape of {@code numBlocks} blocks whose model rate is at most {@code fpp}: the
   * fewest columns c with 2^-c <= fpp, then as many blocks with c - 1 columns as the rate allows.
   *
   * @throws IllegalArgumentException if {@code fpp} is below 2^-{@value RibbonFormat#MAX_COLUMNS}
   */
  static Shape shapeForRate(int numBlocks, double fpp) {
    int columns = columnsForRate(fpp);
    double excess = fpp * Math.scalb(1.0, columns) - 1;
    int lower = lowerBlocks(numBlocks, columns, excess, true);
    while (lower > 0 && fpp(numBlocks, columns, lower) > fpp) {
      lower--; // guards the floating-point rounding of the excess
    }
    return new Shape(numBlocks, columns, lower);
  }

  /**
   * The fewest columns c with 2^-c <= {@code fpp}.
   *
   * @throws IllegalArgumentException if {@code fpp} is below 2^-{@value RibbonFormat#MAX_COLUMNS}
   */
  static int columnsForRate(double fpp) {
    int columns = Math.max(1, (int) Math.ceil(-Math.log(fpp) / Math.log(2)));
    while (columns > 1 && Math.scalb(1.0, -(columns - 1)) <= fpp) {
      columns--; // guards the logarithm's rounding at exact powers of two
    }
    while (Math.scalb(1.0, -columns) > fpp) {
      columns++;
    }
    if (columns > RibbonFormat.MAX_COLUMNS) {
      throw new IllegalArgumentException(
          "fpp must be at least 2^-" + RibbonFormat.MAX_COLUMNS + ": " + fpp);
    }
    return columns;
  }

  /**
   * How many of the first blocks get one column fewer so that {@code excess} of the start slots
   * lie in them: the rate is then {@code 2^-columns (1 + excess)}. The lower blocks are counted in
   * start slots, not blocks, because the last blocks hold fewer starts (the last one none): in a
   * small filter that matters. Rounded down ({@code floor}, for an upper bound on the rate) or to
   * the nearest block.
   */
  private static int lowerBlocks(int numBlocks, int columns, double excess, boolean floor) {
    if (columns == 0 || excess <= 0) {
      return 0;
    }
    double blocks = excess * numStarts(numBlocks) / RibbonFormat.BLOCK_SLOTS;
    long lower = floor ? (long) Math.floor(blocks) : Math.round(blocks);
    return (int) Math.min(lower, numBlocks - 1);
  }

  /** The model's false-positive rate of a filter of this shape (see the class comment). */
  static double fpp(long numBlocks, int columns, long lowerBlocks) {
    if (numBlocks == 0) {
      return 0;
    }
    if (columns == 0) {
      return 1;
    }
    double starts = numStarts(numBlocks);
    double lowerStarts = Math.min(starts, (double) lowerBlocks * RibbonFormat.BLOCK_SLOTS);
    double upper = Math.scalb(1.0, -columns);
    return (lowerStarts * 2 * upper + (starts - lowerStarts) * upper) / starts;
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
