package dev.strata.sstable;

/**
 * What a table's row range and filters say a point lookup must look for in it ({@link
 * FilterReader#admit}): nothing, because the row lies outside the table or the filters exclude both
 * the cell and a row tombstone of its row; or the cell, a row tombstone of the row, or both. A
 * table whose filters exclude the cell can still hold a row tombstone that hides it (see {@link
 * FilterReader} on row tombstones under {@code ROWCOL}).
 *
 * <p>Immutable.
 */
enum Admission {
  /** The row lies outside the table's row range: the table is not consulted. */
  OUT_OF_RANGE(false, false),
  /** The table is consulted, and its filters exclude both the cell and a row tombstone. */
  SKIPPED(false, false),
  /** The cell may be present; no row tombstone of the row is. */
  CELL(true, false),
  /** The filter excludes the cell, but a row tombstone of the row may be present. */
  ROW_TOMBSTONE(false, true),
  /** Both the cell and a row tombstone of the row may be present. */
  CELL_AND_ROW_TOMBSTONE(true, true);

  private final boolean cell;
  private final boolean rowTombstone;

  Admission(boolean cell, boolean rowTombstone) {
    this.cell = cell;
    this.rowTombstone = rowTombstone;
  }

  /** The admission of a lookup in range whose filters said {@code cell} and {@code rowTombstone}. */
  static Admission of(boolean cell, boolean rowTombstone) {
    if (cell) {
      return rowTombstone ? CELL_AND_ROW_TOMBSTONE : CELL;
    }
    return rowTombstone ? ROW_TOMBSTONE : SKIPPED;
  }

  /** Whether the cell must be looked up. */
  boolean cellMaybe() {
    return cell;
  }

  /** Whether a row tombstone of the row must be looked up. */
  boolean rowTombstoneMaybe() {
    return rowTombstone;
  }
}
