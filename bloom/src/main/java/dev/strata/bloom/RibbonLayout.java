package dev.strata.bloom;

import java.nio.LongBuffer;

/**
 * Where a {@link RibbonFilter} keeps its solution segments in memory, and the conversion to and
 * from the persisted order of {@link RibbonFormat}.
 *
 * <pre>
 * words    := pairs rest
 * pairs    := (column 0, column 1 of block b) for b in 0..numBlocks   2 * (numBlocks + 1) words
 * rest     := columns 2.. of every block, interleaved column-major as in RibbonFormat,
 *             then {@code columns} zero words
 * restFirst(b) = pairWords + b * (columns - 2) - min(b, lowerBlocks)    (column j at + j - 2)
 * </pre>
 *
 * Why not query the persisted order in place: a negative query is decided by its first two
 * columns three times in four, and there they are the segments of three consecutive blocks. In
 * the persisted order those six words are a block's columns apart (two or three cache lines at
 * seven columns); here they are six consecutive words (one or two lines), so a query of a filter
 * that is not in the cache waits for fewer lines, and the JIT checks their bounds once. A column
 * a block lacks (the last one of a lower block, when the filter has at most two columns) is a
 * zero word in the pairs, and the query ignores its result bit. Block {@code numBlocks} is zero
 * padding for a row that starts in the last start's block (it reads the block after with a zero
 * mask), as are the {@code columns} words after the rest (the last block's rest, read the same
 * way, and the pair of an odd last column). Converting costs one pass over the solution when a
 * filter is built, serialized or loaded.
 *
 * <p>Thread-safe (static methods only).
 */
final class RibbonLayout {
  /** Columns held in the pairs region; the rest follow per block. */
  static final int PAIR_COLUMNS = 2;

  private RibbonLayout() {}

  /** Words of the in-memory solution of a filter of this shape, padding included. */
  static int words(int numBlocks, int columns, int lowerBlocks) {
    return pairWords(numBlocks) + restSegments(numBlocks, columns, lowerBlocks) + columns;
  }

  /** Index of block {@code block}'s column 0 in the pairs; column 1 follows. */
  static int pair(int block) {
    return PAIR_COLUMNS * block;
  }

  /** Index of block {@code block}'s column 2 (meaningful when the block has more than two). */
  static int restFirst(int block, int numBlocks, int columns, int lowerBlocks) {
    return pairWords(numBlocks)
        + block * (columns - PAIR_COLUMNS)
        - Math.min(block, lowerBlocks);
  }

  /** Columns of block {@code block}. */
  static int columnsOf(int block, int columns, int lowerBlocks) {
    return block < lowerBlocks ? columns - 1 : columns;
  }

  /**
   * Stores block {@code block}'s segments, {@code segments[0, columnsOf(block))}, into {@code
   * words}.
   */
  static void storeBlock(
      FilterWords words, long[] segments, int block, int numBlocks, int columns, int lowerBlocks) {
    int count = columnsOf(block, columns, lowerBlocks);
    int pair = pair(block);
    int rest = restFirst(block, numBlocks, columns, lowerBlocks) - PAIR_COLUMNS;
    for (int j = 0; j < count; j++) {
      words.set(j < PAIR_COLUMNS ? pair + j : rest + j, segments[j]);
    }
  }

  /**
   * Lays out into {@code words} (zeroed, {@link #words} long) the solution whose segments {@code
   * persisted} holds in file order.
   */
  static void fromPersisted(
      LongBuffer persisted, FilterWords words, int numBlocks, int columns, int lowerBlocks) {
    long[] segments = new long[Math.max(columns, 1)];
    for (int block = 0; block < numBlocks; block++) {
      persisted.get(segments, 0, columnsOf(block, columns, lowerBlocks));
      storeBlock(words, segments, block, numBlocks, columns, lowerBlocks);
    }
  }

  /** Writes the segments of in-memory {@code words} to {@code out} in file order. */
  static void toPersisted(
      FilterWords words, int numBlocks, int columns, int lowerBlocks, LongBuffer out) {
    for (int block = 0; block < numBlocks; block++) {
      int count = columnsOf(block, columns, lowerBlocks);
      int pair = pair(block);
      int rest = restFirst(block, numBlocks, columns, lowerBlocks) - PAIR_COLUMNS;
      for (int j = 0; j < count; j++) {
        out.put(words.get(j < PAIR_COLUMNS ? pair + j : rest + j));
      }
    }
  }

  private static int pairWords(int numBlocks) {
    return PAIR_COLUMNS * (numBlocks + 1);
  }

  private static int restSegments(int numBlocks, int columns, int lowerBlocks) {
    return columns <= PAIR_COLUMNS
        ? 0
        : numBlocks * (columns - PAIR_COLUMNS) - lowerBlocks;
  }
}
