package dev.strata.bench.dbbench;

import dev.strata.bench.common.Cells;
import java.util.EnumMap;
import java.util.Map;

/**
 * One row of {@code results.csv}: the cells of a measured phase, as text, keyed by {@link Column}.
 * Children fill it and write it; the parent reads it back, adds the ratios and reports it. A column
 * never set is an empty cell.
 *
 * <p>Not thread-safe.
 */
final class Result {
  private final Map<Column, String> cells = new EnumMap<>(Column.class);

  /** Sets {@code column} to {@code value}, printed by {@link Cells#format}; null leaves it empty. */
  Result set(Column column, Object value) {
    String s = Cells.format(value);
    if (s.isEmpty()) {
      cells.remove(column);
    } else {
      cells.put(column, s);
    }
    return this;
  }

  /** The cell of {@code column}, "" when empty. */
  String get(Column column) {
    return cells.getOrDefault(column, "");
  }

  /** The cell of {@code column} as a number, or null when empty. */
  Double number(Column column) {
    String s = cells.get(column);
    return s == null ? null : Double.valueOf(s);
  }

  EngineKind engine() {
    return EngineKind.parse(get(Column.ENGINE));
  }

  Benchmark benchmark() {
    return Benchmark.parse(get(Column.BENCHMARK));
  }

  int threads() {
    return Integer.parseInt(get(Column.THREADS));
  }

  String cacheState() {
    return get(Column.CACHE_STATE);
  }

  /** Whether {@code other} measured the same point (step, benchmark, threads, cache state). */
  boolean samePoint(Result other) {
    return get(Column.STEP).equals(other.get(Column.STEP))
        && get(Column.BENCHMARK).equals(other.get(Column.BENCHMARK))
        && get(Column.THREADS).equals(other.get(Column.THREADS))
        && get(Column.CACHE_STATE).equals(other.get(Column.CACHE_STATE));
  }

  /** Sets the cell of {@code column} to its raw text (as read from a file). */
  void setRaw(Column column, String text) {
    if (text.isEmpty()) {
      cells.remove(column);
    } else {
      cells.put(column, text);
    }
  }
}
