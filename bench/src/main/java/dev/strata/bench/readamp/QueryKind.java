package dev.strata.bench.readamp;

import java.util.Locale;

/**
 * The four kinds of read the benchmark measures, each over keys of the same format and range as the
 * loaded ones, so a table's key-range check cannot do the filter's work.
 *
 * <p>Immutable.
 */
enum QueryKind {
  /** {@code get(row, column)} of a row that no table holds. */
  ABSENT_ROW,
  /** {@code get(row, column)} of a loaded row and a column it does not hold. */
  ABSENT_COLUMN,
  /** {@code get(row, column)} of a loaded cell. */
  PRESENT_CELL,
  /** {@code getRow(row)} of a loaded row (RocksDB: a prefix iterator over the row). */
  GET_ROW;

  /** The name used in the CSV: {@code absent_row}, {@code absent_column}, ... */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True for the kinds answered by a point Get (the others read a whole row). */
  boolean isPointGet() {
    return this != GET_ROW;
  }
}
