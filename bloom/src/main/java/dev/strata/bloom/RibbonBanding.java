package dev.strata.bloom;

import java.util.Arrays;

/**
 * The banded linear system over GF(2) of a {@link RibbonFilter} attempt (one 128-bit coefficient
 * row and one result per slot, filled by on-the-fly Gaussian elimination as keys are added) and
 * its back-substitution into the interleaved solution.
 *
 * <p>Temporary memory: {@value #BYTES_PER_SLOT} bytes per slot (two coefficient words and an int
 * result) plus {@value #BYTES_PER_KEY} per key (the remixed hashes in block order). The arrays are
 * reused from one attempt to the next, and from one filter to the next when a {@link
 * RibbonBuilder} keeps the banding: they grow to the largest system seen and are never zeroed
 * wholesale, because back-substitution clears every slot as it reads it (a successful attempt
 * leaves them all zero) and {@link #reset} clears only what a failed attempt left behind.
 *
 * <p>Not thread-safe.
 */
final class RibbonBanding {
  /** Bytes of temporary memory per slot: 16 of coefficients, 4 of result. */
  static final int BYTES_PER_SLOT = 2 * Long.BYTES + Integer.BYTES;

  /** Bytes of temporary memory per key: its remixed hash, sorted by block. */
  static final int BYTES_PER_KEY = Long.BYTES;

  /**
   * Slot i's coefficient row at [2i] (bits 0..63) and [2i+1]; [2i] == 0 means slot i is free.
   * Zero from {@link #reset} on beyond the current system too.
   */
  private long[] coefficients = new long[0];

  /** Slot i's result row (fingerprint bits, XOR-combined like the coefficients); 0 when free. */
  private int[] results = new int[0];

  /** The remixed hashes of the keys being added, ordered by start block. */
  private long[] sorted = new long[0];

  /** Slots from the first that may hold rows: what {@link #reset} has to clear. */
  private int dirtySlots;

  private int numBlocks;
  private long numStarts;
  private int seed;
  private int resultMask;

  /** An empty banding of no capacity: {@link #reset} sizes it. */
  RibbonBanding() {}

  /**
   * An empty system of {@code numBlocks} blocks of 64 slots whose results keep {@code columns}
   * bits, for rows derived under {@code seed}.
   */
  RibbonBanding(int numBlocks, int columns, int seed) {
    reset(numBlocks, columns, seed);
  }

  /**
   * Empties the system and shapes it for {@code numBlocks} blocks of 64 slots, results of {@code
   * columns} bits and rows derived under {@code seed}, growing the arrays when they are too small.
   */
  void reset(int numBlocks, int columns, int seed) {
    assert numBlocks >= RibbonFormat.MIN_BLOCKS && numBlocks <= RibbonFormat.MAX_BLOCKS
        : "numBlocks=" + numBlocks;
    assert columns >= 0 && columns <= RibbonFormat.MAX_COLUMNS : "columns=" + columns;
    int slots = numBlocks * RibbonFormat.BLOCK_SLOTS;
    if (results.length < slots) {
      coefficients = new long[2 * slots];
      results = new int[slots];
    } else if (dirtySlots > 0) {
      Arrays.fill(coefficients, 0, 2 * dirtySlots, 0L);
      Arrays.fill(results, 0, dirtySlots, 0);
    }
    dirtySlots = 0;
    this.numBlocks = numBlocks;
    this.numStarts = RibbonSizing.numStarts(numBlocks);
    this.seed = seed;
    this.resultMask = columns == Integer.SIZE ? -1 : (1 << columns) - 1;
  }

  /** Bytes the arrays hold now: the temporary memory this banding keeps between builds. */
  long scratchBytes() {
    return (long) coefficients.length * Long.BYTES
        + (long) results.length * Integer.BYTES
        + (long) sorted.length * Long.BYTES;
  }

  /**
   * Adds every hash; false as soon as one makes the system inconsistent (try another seed).
   *
   * <p>The keys are added in the order of their start block (a counting sort of their remixed
   * hashes): elimination then sweeps the slots from first to last, so its reads stream through
   * the cache instead of each key missing on a random slot of a table larger than the L2.
   *
   * <p>Each elimination step waits for the pivot its previous step chose (a load, an XOR, a count
   * of trailing zeros), so one row at a time leaves the processor mostly idle. Three rows are
   * eliminated in lockstep instead, one from each third of the sorted keys, so the latencies of
   * their steps overlap; when one third is done, the others finish alone. The order does not
   * change the outcome: every step reduces a row by a pivot of the same system, a stored pivot
   * never changes, and the slots that end up with a pivot (the leading slots of the row space),
   * hence the solution {@link #solve} computes, are the same for every order of the keys.
   */
  boolean addAll(long[] hashes, int count) {
    dirtySlots = numBlocks * RibbonFormat.BLOCK_SLOTS;
    long[] sorted = sortByBlock(hashes, count);
    long[] c = coefficients;
    int[] r = results;
    long starts = numStarts;
    int mask = resultMask;
    int endA = count / 3;
    int endB = 2 * endA;
    if (endA == 0) {
      return addRun(c, r, sorted, 0, count, starts, mask);
    }
    // Rows A, B and C come from sorted[0, endA), [endA, endB) and [endB, count); each is (slot,
    // lo, hi, res) with bit 0 of lo at slot, as in eliminate. A step that reduces a row and leaves
    // it a set bit in its low word is done in the loop; any other (the row lands on a free slot,
    // or its low word cancels) is finished by eliminate, and the chain takes its next key.
    int nextA = 0;
    int nextB = endA;
    int nextC = endB;
    long x = sorted[nextA++];
    int slotA = RibbonHash.start(x, starts);
    long loA = RibbonHash.coefficientLo(x);
    long hiA = RibbonHash.coefficientHi(x);
    int resA = RibbonHash.result(x) & mask;
    x = sorted[nextB++];
    int slotB = RibbonHash.start(x, starts);
    long loB = RibbonHash.coefficientLo(x);
    long hiB = RibbonHash.coefficientHi(x);
    int resB = RibbonHash.result(x) & mask;
    x = sorted[nextC++];
    int slotC = RibbonHash.start(x, starts);
    long loC = RibbonHash.coefficientLo(x);
    long hiC = RibbonHash.coefficientHi(x);
    int resC = RibbonHash.result(x) & mask;
    while (true) {
      int w = 2 * slotA;
      long pivot = c[w];
      if (pivot != 0 && loA != pivot) {
        loA ^= pivot;
        hiA ^= c[w + 1];
        resA ^= r[slotA];
        int shift = Long.numberOfTrailingZeros(loA);
        loA = (loA >>> shift) | (hiA << (64 - shift));
        hiA >>>= shift;
        slotA += shift;
      } else {
        if (!eliminate(c, r, slotA, loA, hiA, resA) || nextA == endA) {
          break;
        }
        x = sorted[nextA++];
        slotA = RibbonHash.start(x, starts);
        loA = RibbonHash.coefficientLo(x);
        hiA = RibbonHash.coefficientHi(x);
        resA = RibbonHash.result(x) & mask;
      }
      w = 2 * slotB;
      pivot = c[w];
      if (pivot != 0 && loB != pivot) {
        loB ^= pivot;
        hiB ^= c[w + 1];
        resB ^= r[slotB];
        int shift = Long.numberOfTrailingZeros(loB);
        loB = (loB >>> shift) | (hiB << (64 - shift));
        hiB >>>= shift;
        slotB += shift;
      } else {
        if (!eliminate(c, r, slotB, loB, hiB, resB) || nextB == endB) {
          break;
        }
        x = sorted[nextB++];
        slotB = RibbonHash.start(x, starts);
        loB = RibbonHash.coefficientLo(x);
        hiB = RibbonHash.coefficientHi(x);
        resB = RibbonHash.result(x) & mask;
      }
      w = 2 * slotC;
      pivot = c[w];
      if (pivot != 0 && loC != pivot) {
        loC ^= pivot;
        hiC ^= c[w + 1];
        resC ^= r[slotC];
        int shift = Long.numberOfTrailingZeros(loC);
        loC = (loC >>> shift) | (hiC << (64 - shift));
        hiC >>>= shift;
        slotC += shift;
      } else {
        if (!eliminate(c, r, slotC, loC, hiC, resC) || nextC == count) {
          break;
        }
        x = sorted[nextC++];
        slotC = RibbonHash.start(x, starts);
        loC = RibbonHash.coefficientLo(x);
        hiC = RibbonHash.coefficientHi(x);
        resC = RibbonHash.result(x) & mask;
      }
    }
    // One chain stopped: its run is done (its last row added) or its row made the system
    // inconsistent. Re-adding a row that is already in is harmless (it reduces to zero with a
    // zero result), so every chain finishes its current row and the rest of its run alone; an
    // inconsistent row fails again.
    return eliminate(c, r, slotA, loA, hiA, resA)
        && addRun(c, r, sorted, nextA, endA, starts, mask)
        && eliminate(c, r, slotB, loB, hiB, resB)
        && addRun(c, r, sorted, nextB, endB, starts, mask)
        && eliminate(c, r, slotC, loC, hiC, resC)
        && addRun(c, r, sorted, nextC, count, starts, mask);
  }

  /** Adds one key's row: true if the system stays consistent. */
  boolean add(long hash64) {
    dirtySlots = numBlocks * RibbonFormat.BLOCK_SLOTS;
    long x = RibbonHash.remix(hash64, seed);
    return addRun(coefficients, results, new long[] {x}, 0, 1, numStarts, resultMask);
  }

  /** Adds the rows of remixed hashes {@code sorted[from, to)} one after the other. */
  private static boolean addRun(
      long[] c, int[] r, long[] sorted, int from, int to, long starts, int mask) {
    for (int k = from; k < to; k++) {
      long x = sorted[k];
      int start = RibbonHash.start(x, starts);
      long lo = RibbonHash.coefficientLo(x);
      long hi = RibbonHash.coefficientHi(x);
      if (!eliminate(c, r, start, lo, hi, RibbonHash.result(x) & mask)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Eliminates the row whose coefficient bits 0..63 are {@code lo} (bit 0 set, at {@code slot}) and
   * 64..127 {@code hi}, with result {@code result}, against the pivots it meets until it lands on
   * a free slot (true), or reduces to zero. A zero row with a zero result is a key already implied
   * by the others, such as a duplicate (true, nothing stored); with a non-zero result the system
   * has no solution under this seed (false). Static over locals: the loop is the build's hot spot,
   * and the JIT keeps it tight this way.
   */
  private static boolean eliminate(long[] c, int[] r, int slot, long lo, long hi, int result) {
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
      if (lo == 0) {
        return settle(c, r, slot, hi, result);
      }
      int shift = Long.numberOfTrailingZeros(lo);
      lo = (lo >>> shift) | (hi << (64 - shift));
      hi >>>= shift;
      slot += shift;
    }
  }

  /**
   * Finishes a row whose low 64 coefficient bits (from {@code slot}) the last XOR cleared: it
   * continues from the first set bit of {@code hi}, or, if none, it vanished and is consistent
   * when its result is zero.
   */
  private static boolean settle(long[] c, int[] r, int slot, long hi, int result) {
    if (hi == 0) {
      return result == 0;
    }
    int shift = Long.numberOfTrailingZeros(hi);
    return eliminate(c, r, slot + 64 + shift, hi >>> shift, 0, result);
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
    if (sorted.length < count) {
      sorted = new long[count];
    }
    long[] sorted = this.sorted;
    for (int k = 0; k < count; k++) {
      long x = RibbonHash.remix(hashes[k], s);
      sorted[next[RibbonHash.start(x, starts) >>> 6]++] = x;
    }
    return sorted;
  }

  /**
   * Back-substitution: the solution of every column, from the last slot to the first, in the
   * in-memory layout of {@link RibbonLayout}; the system is empty afterwards (every slot is
   * cleared as it is read).
   *
   * <p>Column j's solution bit at slot i is its pivot's result bit j XOR the parity of the pivot's
   * coefficients (beyond its first bit) AND the solution bits of the 127 slots above; a free slot
   * gets 0. The 128-bit window of those bits per column is shifted one slot per step, so when the
   * first slot of a block is done the window's low word is exactly that block's segment.
   */
  long[] solve(int columns, int lowerBlocks) {
    assert lowerBlocks >= 0 && lowerBlocks < Math.max(1, numBlocks) : "lowerBlocks=" + lowerBlocks;
    long[] solution = new long[RibbonLayout.words(numBlocks, columns, lowerBlocks)];
    FilterWords out = FilterWords.of(solution);
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
        c[2 * slot] = 0;
        c[2 * slot + 1] = 0;
        r[slot] = 0;
        // Columns are independent chains: the inner loop over them keeps several in flight.
        for (int j = 0; j < columns; j++) {
          long hi = (windowHi[j] << 1) | (windowLo[j] >>> 63);
          long lo = windowLo[j] << 1;
          long bit = (Long.bitCount((lo & coeffLo) ^ (hi & coeffHi)) ^ (result >>> j)) & 1;
          windowLo[j] = lo | bit;
          windowHi[j] = hi;
        }
      }
      RibbonLayout.storeBlock(out, windowLo, block, numBlocks, columns, lowerBlocks);
    }
    dirtySlots = 0;
    return solution;
  }
}
