package dev.strata.sstable.key;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;

/**
 * The key of every entry in memtables and tables: (row, column, sequence number, kind).
 *
 * <p>Order (fixed, not pluggable, never stored as a class name): row ascending, then column
 * ascending, both unsigned lexicographic; then sequence number descending, so the newest version of a
 * cell comes first; then kind id ascending (two entries never share a sequence number and a cell, so
 * this only makes the order total). A row tombstone is stored under the empty column.
 *
 * <p>The arrays are not copied: callers hand over ownership. Immutable by convention.
 */
public record InternalKey(byte[] row, byte[] column, long sequence, ValueKind kind) {

  /** The largest sequence number: seeking to (row, column, MAX_SEQUENCE) lands on its newest entry. */
  public static final long MAX_SEQUENCE = (1L << 56) - 1;

  /** The one ordering of internal keys. */
  public static final Comparator<InternalKey> ORDER = InternalKey::compare;

  public InternalKey {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(kind, "kind");
    assert sequence >= 0 && sequence <= MAX_SEQUENCE : "sequence=" + sequence;
  }

  /** Compares by (row, column) unsigned, then sequence descending, then kind id. */
  public static int compare(InternalKey a, InternalKey b) {
    int c = UnsignedBytes.compare(a.row, b.row);
    if (c != 0) {
      return c;
    }
    c = UnsignedBytes.compare(a.column, b.column);
    if (c != 0) {
      return c;
    }
    c = Long.compare(b.sequence, a.sequence);
    if (c != 0) {
      return c;
    }
    return Integer.compare(a.kind.id(), b.kind.id());
  }

  /** True when both keys address the same (row, column) cell. */
  public boolean sameCell(InternalKey other) {
    return Arrays.equals(row, other.row) && Arrays.equals(column, other.column);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof InternalKey k
        && sequence == k.sequence
        && kind == k.kind
        && Arrays.equals(row, k.row)
        && Arrays.equals(column, k.column);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(row) + Arrays.hashCode(column)) + Long.hashCode(sequence);
  }

  @Override
  public String toString() {
    return "InternalKey[" + hex(row) + "/" + hex(column) + "@" + sequence + " " + kind + "]";
  }

  private static String hex(byte[] b) {
    StringBuilder s = new StringBuilder(b.length * 2);
    for (byte x : b) {
      s.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
    }
    return s.toString();
  }
}
