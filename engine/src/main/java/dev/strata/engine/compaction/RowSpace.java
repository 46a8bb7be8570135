package dev.strata.engine.compaction;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import java.util.Arrays;

/**
 * What a Get of an absent row meets in a tree, for rows drawn uniformly over the tree's row range:
 * each table's share of that range, the chance that such a row falls between the table's smallest
 * and largest row. A Get probes the filter of exactly those tables (each level-0 table whose range
 * holds the row, and in each deeper level the one table whose range holds it, or none when the row
 * falls between two tables), so an absent Get's expected false positives are the sum over the
 * tables of share times the table's rate.
 *
 * <p>Rows are bytes, so "uniform" needs a measure: a row maps to a fraction through its first 8
 * bytes after the prefix that the tree's smallest and largest rows share (missing bytes count as
 * zero), read as an unsigned number over 2^64; the tree's range is the interval between its
 * smallest and largest row's fractions, and a table's share is the length of its own interval over
 * the tree's. Random fixed-length keys (what {@code dbbench readmissing} asks for) are uniform in
 * this measure; keys whose first distinguishing bytes are skewed, such as text, are not, and the
 * expectation is then for a workload that is. A tree whose rows agree on all 8 bytes after their
 * common prefix has no measurable width: every table then counts whole.
 *
 * <p>Immutable.
 */
public final class RowSpace {
  /** Bytes of a row after the common prefix that place it. */
  private static final int PLACE_BYTES = Long.BYTES;

  /** A tree without tables: every share is 0. */
  private static final RowSpace EMPTY = new RowSpace(0, 0, 0);

  private final int prefixLength;
  private final double low;
  private final double width;

  private RowSpace(int prefixLength, double low, double width) {
    this.prefixLength = prefixLength;
    this.low = low;
    this.width = width;
  }

  /** The row space of the tables of {@code v}. */
  public static RowSpace of(Version v) {
    byte[] smallest = null;
    byte[] largest = null;
    for (int level = 0; level < Version.NUM_LEVELS; level++) {
      for (TableRef t : v.level(level)) {
        FileMetadata m = t.metadata();
        if (smallest == null || Arrays.compareUnsigned(m.smallest().row(), smallest) < 0) {
          smallest = m.smallest().row();
        }
        if (largest == null || Arrays.compareUnsigned(m.largest().row(), largest) > 0) {
          largest = m.largest().row();
        }
      }
    }
    return smallest == null ? EMPTY : between(smallest, largest);
  }

  /** The row space from {@code smallest} to {@code largest} (in order, unsigned). */
  static RowSpace between(byte[] smallest, byte[] largest) {
    int prefix = Arrays.mismatch(smallest, largest);
    if (prefix < 0) {
      prefix = smallest.length; // equal rows
    }
    double low = place(smallest, prefix);
    double width = place(largest, prefix) - low;
    return new RowSpace(prefix, low, width > 0 ? width : Double.NaN);
  }

  /**
   * The share of this tree's row range that {@code m}'s rows span, in [0, 1]: 1 when the tree has
   * no measurable width, 0 in a tree of no tables.
   */
  public double share(FileMetadata m) {
    return share(m.smallest().row(), m.largest().row());
  }

  /** The share of the range from {@code smallest} to {@code largest}, both rows of this tree. */
  double share(byte[] smallest, byte[] largest) {
    if (this == EMPTY) {
      return 0;
    }
    if (Double.isNaN(width)) {
      return 1;
    }
    double s = (place(largest, prefixLength) - place(smallest, prefixLength)) / width;
    return Math.max(0, Math.min(1, s));
  }

  /**
   * The fraction {@code row}'s first {@value #PLACE_BYTES} bytes from {@code offset} make, as an
   * unsigned number over 2^64; bytes past the row's end count as zero.
   */
  private static double place(byte[] row, int offset) {
    long u = 0;
    for (int i = 0; i < PLACE_BYTES; i++) {
      int at = offset + i;
      u = (u << 8) | (at < row.length ? row[at] & 0xFF : 0);
    }
    return (u >>> 11) * 0x1.0p-53; // the top 53 bits: all a double holds
  }
}
