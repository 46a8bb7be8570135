package dev.strata.sstable.testing;

import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.util.List;

/**
 * The oracle for table reads: answers lookups and seeks over a sorted entry list by plain binary
 * search, the way a table must.
 *
 * <p>Immutable.
 */
public final class TableModel {
  private static final byte[] EMPTY = new byte[0];
  private final List<Entry> entries;

  /** A model of {@code entries}, which must be sorted and duplicate-free. */
  public TableModel(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  public List<Entry> entries() {
    return entries;
  }

  /** The index of the first entry whose key is {@code >= target} ({@code size()} when none). */
  public int seek(InternalKey target) {
    int lo = 0;
    int hi = entries.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (InternalKey.compare(entries.get(mid).key(), target) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The newest entry of cell (row, column) with sequence {@code <= snapshot}, or null. */
  public Entry newest(byte[] row, byte[] column, long snapshot) {
    int i = seek(new InternalKey(row, column, snapshot, ValueKind.PUT));
    if (i < entries.size()) {
      InternalKey k = entries.get(i).key();
      if (java.util.Arrays.equals(k.row(), row) && java.util.Arrays.equals(k.column(), column)) {
        return entries.get(i);
      }
    }
    return null;
  }

  /** The sequence of the newest row tombstone of {@code row} with sequence {@code <= snapshot}, or -1. */
  public long rowTombstone(byte[] row, long snapshot) {
    for (int i = seek(new InternalKey(row, EMPTY, snapshot, ValueKind.PUT)); i < entries.size(); i++) {
      InternalKey k = entries.get(i).key();
      if (!java.util.Arrays.equals(k.row(), row) || k.column().length != 0) {
        break;
      }
      if (k.kind() == ValueKind.DELETE_ROW) {
        return k.sequence();
      }
    }
    return -1;
  }

  /** The largest sequence number of any entry. */
  public long maxSequence() {
    return entries.stream().mapToLong(e -> e.key().sequence()).max().orElse(0);
  }
}
