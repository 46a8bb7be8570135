package dev.strata.engine;

/**
 * What a table's Bloom filter indexes, with HBase's names and meaning. The type a table was written
 * with is recorded in the table itself, so changing this option never changes how an existing table
 * is read.
 *
 * <p>Immutable.
 */
public enum BloomType {
  /** No filter: every table whose key range covers a row is searched. */
  NONE,
  /** One entry per distinct row: skips tables that hold no cell of the row. */
  ROW,
  /**
   * One entry per (row, column) pair, plus one per distinct row: skips tables that hold no cell for
   * the pair, and answers whole-row reads too.
   */
  ROWCOL
}
