package dev.strata.bench.readamp;

import java.util.Locale;

/**
 * The two row shapes of the benchmark: narrow rows hold one column each, wide rows {@code
 * --columns} columns each. Both hold the same number of cells ({@code --keys}), so they differ only
 * in how cells group into rows.
 *
 * <p>Immutable.
 */
enum Shape {
  NARROW,
  WIDE;

  /** Columns per row of this shape when wide rows hold {@code wideColumns}. */
  int columnsPerRow(int wideColumns) {
    return this == NARROW ? 1 : wideColumns;
  }

  /** The lower-case name used in the CSV and the plots. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
