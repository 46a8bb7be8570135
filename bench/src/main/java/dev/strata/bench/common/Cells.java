package dev.strata.bench.common;

import java.util.Locale;

/**
 * How a benchmark prints one result value, in CSV cells, reports and terminal tables alike: null
 * (the engine cannot report it) and non-finite numbers as an empty cell, whole numbers as they are,
 * other numbers with six significant digits and no trailing zeros.
 *
 * <p>Immutable (static methods only).
 */
public final class Cells {
  private Cells() {}

  /** The cell of {@code v}: empty for null, NaN and infinities. */
  public static String format(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        return "";
      }
      if (d == Math.rint(d) && Math.abs(d) < 1e15) {
        return Long.toString(d.longValue());
      }
      return String.format(Locale.ROOT, "%.6g", d).replaceFirst("(\\.\\d*?)0+(e|$)", "$1$2")
          .replaceFirst("\\.(e|$)", "$1");
    }
    return v.toString();
  }
}
