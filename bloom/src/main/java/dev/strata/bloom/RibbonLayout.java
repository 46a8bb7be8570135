package dev.strata.bloom;

import java.nio.LongBuffer;

/**
 * Where a {@link RibbonFilter} keeps its solution segments in memory, and the conversion to and
 * from the persisted order of {@link RibbonFormat}.
 *
 * <pre>
 * lead(c)  := min(c, 4)                                    columns of a block kept in the lead
 * words    := leads rest padding
 * leads    := (columns 0 .. lead-1 of block b) for b in 0..numBlocks   lead * (numBlocks + 1) words
 * rest     := columns lead.. of every block, interleaved column-major as in RibbonFormat
 * padding  := columns + 4 zero words
 * restFirst(b) = leadWords + b * (columns - lead) - min(b, lowerBlocks)    (column j at + j - lead)
 * </pre>
 *
 * Why not query the persisted order in place: a negative query is decided by its first four
 * columns fifteen times in sixteen, and there they are the segments of three consecutive blocks.
 * In the persisted order those twelve words are a block's columns apart (three cache lines at
 * seven columns); here they are consecutive (two lines at most), so a query of a filter that is
 * not in the cache waits for fewer lines, and a query evaluates all four without a branch: a
 * branch per pair of columns was taken by one negative query in four, a misprediction each time.
 * A column a block lacks (the last one of a lower block, when the filter has at most four
 * columns) is a zero word in the leads, and the query ignores its result bit; a query also reads
 * four columns' positions when the lead is narrower, words of the next block or of the padding
 * whose bits it ignores. Block {@code numBlocks} is zero padding for a row that starts in the last
 * start's block (it reads the block after with a zero mask), as are the words after the rest
 * (the last block's rest, read the same way, the pair of an odd last column, and the narrow
 * lead's overreach). Converting costs one pass over the solution when a filter is built,
 * serialized or loaded.
 *
 * <p>Thread-safe (static methods only).
 */
final class RibbonLayout {
  /** Most columns a block keeps in the lead; a query reads this many columns without a branch. */
  static final int LEAD_COLUMNS = 4;

  private RibbonLayout() {}

  /** Words of the in-memory solution of a filter of this shape, padding included. */
  static int words(int numBlocks, int columns, int lowerBlocks) {
    return leadWords(numBlocks, columns) + restSegments(numBlocks, columns, lowerBlocks)
        + columns + LEAD_COLUMNS;
  }

  /** Columns of every block kept in the lead (the lower blocks' lack is a zero word there). */
  static int lead(int columns) {
    return Math.min(columns, LEAD_COLUMNS);
  }

  /** Index of block {@code block}'s column 0 in the leads; its other lead columns follow. */
  static int leadFirst(int block, int columns) {
    return lead(columns) * block;
  }

  /** Index of block {@code block}'s column {@code lead} (meaningful when the block has more). */
  static int restFirst(int block, int numBlocks, int columns, int lowerBlocks) {
    return leadWords(numBlocks, columns)
        + block * (columns - lead(columns))
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
    int lead = lead(columns);
    int first = leadFirst(block, columns);
    int rest = restFirst(block, numBlocks, columns, lowerBlocks) - lead;
    for (int j = 0; j < count; j++) {
      words.set(j < lead ? first + j : rest + j, segments[j]);
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
      int lead = lead(columns);
      int first = leadFirst(block, columns);
      int rest = restFirst(block, numBlocks, columns, lowerBlocks) - lead;
      for (int j = 0; j < count; j++) {
        out.put(words.get(j < lead ? first + j : rest + j));
      }
    }
  }

  private static int leadWords(int numBlocks, int columns) {
    return lead(columns) * (numBlocks + 1);
  }

  private static int restSegments(int numBlocks, int columns, int lowerBlocks) {
    return columns <= LEAD_COLUMNS
        ? 0
        : numBlocks * (columns - LEAD_COLUMNS) - lowerBlocks;
  }
}
