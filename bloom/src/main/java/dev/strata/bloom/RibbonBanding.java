package dev.strata.bloom;

/**
 * One attempt at building a {@link RibbonFilter}: the banded linear system over GF(2) (one
 * 128-bit coefficient row and one result per slot, filled by on-the-fly Gaussian elimination as
 * keys are added) and its back-substitution into the interleaved solution.
 *
 * <p>Temporary memory: {@value #BYTES_PER_SLOT} bytes per slot (two coefficient words and an int
 * result) plus {@value #BYTES_PER_KEY} per key (the remixed hashes in block order), allocated per
 * attempt and dropped when the filter is built.
 *
 * <p>Not thread-safe.
 */
final class RibbonBanding {
  /** Bytes of temporary memory per slot: 16 of coefficients, 4 of result. */
  static final int BYTES_PER_SLOT = 2 * Long.BYTES + Integer.BYTES;

  /** Bytes of temporary memory per key: its remixed hash, sorted by block. */
  static final int BYTES_PER_KEY = Long.BYTES;

  /** Slot i's coefficient row at [2i] (bits 0..63) and [2i+1]; [2i] == 0 means slot i is free. */
  private final long[] coefficients;

  /** Slot i's result row (fingerprint bits, XOR-combined like the coefficients). */
  private final int[] results;

  private final int numBlocks;
  private final long numStarts;
  private final int seed;
  private final int resultMask;

  /**
   * An empty system of {@code numBlocks} blocks of 64 slots whose results keep {@code columns}
   * bits, for rows derived under {@code seed}.
   */
  RibbonBanding(int numBlocks, int columns, int seed) {
    assert numBlocks >= RibbonFormat.MIN_BLOCKS && numBlocks <= RibbonFormat.MAX_BLOCKS
        : "numBlocks=" + numBlocks;
    assert columns >= 0 && columns <= RibbonFormat.MAX_COLUMNS : "columns=" + columns;
    int slots = numBlocks * RibbonFormat.BLOCK_SLOTS;
    this.coefficients = new long[2 * slots];
    this.results = new int[slots];
    this.numBlocks = numBlocks;
    this.numStarts = RibbonSizing.numStarts(numBlocks);
    this.seed = seed;
    this.resultMask = columns == Integer.SIZE ? -1 : (1 << columns) - 1;
  }

  /**
   * Adds every hash; false as soon as one makes the system inconsistent (try another seed).
   *
   * <p>The keys are added in the order of their start block (a counting sort of their remixed
   * hashes): elimination then sweeps the slots from first to last, so its reads stream through
   * the cache instead of each key missing on a random slot of a table larger than the L2.
   */
  boolean addAll(long[] hashes, int count) {
    long[] sorted = sortByBlock(hashes, count);
    long[] c = coefficients;
    int[] r = results;
    long starts = numStarts;
    int mask = resultMask;
    for (int k = 0; k < count; k++) {
      long x = sorted[k];
      if (!add(c, r, x, RibbonHash.start(x, starts), mask)) {
        return false;
      }
    }
    return true;
  }

  /** Adds one key's row; see {@link #add(long[], int[], long, int, int)}. */
  boolean add(long hash64) {
    long x = RibbonHash.remix(hash64, seed);
    return add(coefficients, results, x, RibbonHash.start(x, numStarts), resultMask);
  }

  /** The remixed hashes, ordered by start block. */
  private long[] sortByBlock(long[] hashes, int count) {
    long starts = numStarts;
    int s = seed;
    int[] next = new int[numBlocks + 1];
    for (int k = 0; k < count; k++) {
      next[(RibbonHash.start(RibbonHash.remix(hashes[k], s), starts) >>> 6) + 1]++;
    }
    for (int b = 0; b < numBlocks; b++) {
      next[b + 1] += next[b];
    }
    long[] sorted = new long[count];
    for (int k = 0; k < count; k++) {
      long x = RibbonHash.remix(hashes[k], s);
      sorted[next[RibbonHash.start(x, starts) >>> 6]++] = x;
    }
    return sorted;
  }

  /**
   * Adds the row of remixed hash {@code x} starting at {@code start}: eliminates it against the
   * pivots it meets until it lands on a free slot (true), or reduces to zero. A zero row with a
   * zero result is a key already implied by the others, such as a duplicate (true, nothing
   * stored); with a non-zero result the system has no solution under this seed (false). Static
   * over locals: the loop is the build's hot spot, and the JIT keeps it tight this way.
   */
  private static boolean add(long[] c, int[] r, long x, int start, int mask) {
    int slot = start;
    long lo = RibbonHash.coefficientLo(x);
    long hi = RibbonHash.coefficientHi(x);
    int result = RibbonHash.result(x) & mask;
    while (true) {
      int w = 2 * slot;
      long pivotLo = c[w];
      if (pivotLo == 0) {
        c[w] = lo;
        c[w + 1] = hi;
        r[slot] = result;
        return true;
      }
      // Both rows have bit 0 set (a stored pivot starts at its slot), so the XOR clears it and the
      // row moves on to its next set bit. It never leaves the filter: every row's bits lie inside
      // its slots, and so do those of any XOR of rows.
      lo ^= pivotLo;
      hi ^= c[w + 1];
      result ^= r[slot];
      if (lo != 0) {
        int shift = Long.numberOfTrailingZeros(lo);
        lo = (lo >>> shift) | (hi << (64 - shift));
        hi >>>= shift;
        slot += shift;
      } else if (hi != 0) {
        int shift = Long.numberOfTrailingZeros(hi);
        lo = hi >>> shift;
        hi = 0;
        slot += 64 + shift;
      } else {
        return result == 0;
      }
    }
  }

  /**
   * Words of a solution array in memory: the segments, then zero padding a query may read: one
   * segment per column for the block after the last (a row starting in the last start's block
   * reaches it with a zero mask) and one word for the pair of an odd last column.
   */
  static int solutionWords(int segments, int columns) {
    return segments + columns + 1;
  }

  /**
   * Back-substitution: the solution of every column, from the last slot to the first, in the
   * interleaved layout of {@link RibbonFormat}, followed by the zero padding of {@link
   * #solutionWords}.
   *
   * <p>Column j's solution bit at slot i is its pivot's result bit j XOR the parity of the pivot's
   * coefficients (beyond its first bit) AND the solution bits of the 127 slots above; a free slot
   * gets 0. The 128-bit window of those bits per column is shifted one slot per step, so when the
   * first slot of a block is done the window's low word is exactly that block's segment.
   */
  long[] solve(int columns, int lowerBlocks) {
    assert lowerBlocks >= 0 && lowerBlocks < Math.max(1, numBlocks) : "lowerBlocks=" + lowerBlocks;
    int segments = (int) RibbonFormat.numSegments(numBlocks, columns, lowerBlocks);
    long[] solution = new long[solutionWords(segments, columns)];
    long[] windowLo = new long[columns];
    long[] windowHi = new long[columns];
    long[] c = coefficients;
    int[] r = results;
    for (int block = numBlocks - 1; block >= 0; block--) {
      int first = block * RibbonFormat.BLOCK_SLOTS;
      for (int slot = first + RibbonFormat.BLOCK_SLOTS - 1; slot >= first; slot--) {
        long coeffLo = c[2 * slot];
        long coeffHi = c[2 * slot + 1];
        int result = r[slot];
        // Columns are independent chains: the inner loop over them keeps several in flight.
        for (int j = 0; j < columns; j++) {
          long hi = (windowHi[j] << 1) | (windowLo[j] >>> 63);
          long lo = windowLo[j] << 1;
          long bit = (Long.bitCount((lo & coeffLo) ^ (hi & coeffHi)) ^ (result >>> j)) & 1;
          windowLo[j] = lo | bit;
          windowHi[j] = hi;
        }
      }
      int segment = RibbonFormat.firstSegment(block, columns, lowerBlocks);
      int blockColumns = RibbonFormat.firstSegment(block + 1, columns, lowerBlocks) - segment;
      System.arraycopy(windowLo, 0, solution, segment, blockColumns);
    }
    return solution;
  }
}
