package dev.strata.engine.read;

import dev.strata.sstable.key.RowPrefix;
import dev.strata.sstable.key.UnsignedBytes;
import java.util.Arrays;

/**
 * The sort of a batch's keys by cell ({@link BatchedGets}): the input indices in (row, column)
 * order, equal cells in input order, on primitive arrays so a batch boxes nothing.
 *
 * <p>Keys of a batch often share a long prefix ("user000012..."), so each row is reduced to its
 * head: the 8 bytes after the prefix all rows share, zero-padded. Where two heads differ they order
 * the rows (every earlier byte being the shared prefix). Each head, its low bits replaced by the
 * key's index, is one long, so one sort of longs ({@link Arrays#sort(long[], int, int)}: no
 * comparator, no indirection) orders the keys by head and, among equal heads, by index. Only keys
 * whose heads agree in all but those low bits still need the whole cell compared: each run of them
 * (in input order after the sort) is merge-sorted by cell, stably. Random keys of a batch of 64
 * have no such run; the merge sort this replaced, comparing through the index arrays, cost about 50
 * ns per key.
 *
 * <p>Not thread-safe: one per batch ({@link BatchedGets}'s per-thread state), reused by each.
 */
final class CellOrder {
  private byte[][] rows;
  private byte[][] columns;
  /** Each key's head, at its input index. */
  private long[] heads = new long[0];
  /** The heads with the index in their low bits, sorted. */
  private long[] packed = new long[0];
  private int[] scratch = new int[0];

  /**
   * Fills {@code order[0, rows.length)} with the input indices in (row, column) order, equal cells
   * in input order. {@code columns} is as long as {@code rows}.
   */
  void sort(byte[][] rows, byte[][] columns, int[] order) {
    int n = rows.length;
    if (heads.length < n) {
      heads = new long[n];
      packed = new long[n];
      scratch = new int[n];
    }
    this.rows = rows;
    this.columns = columns;
    int shared = sharedPrefix(rows);
    int bits = n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    long indexMask = (1L << bits) - 1;
    for (int i = 0; i < n; i++) {
      long h = RowPrefix.after(rows[i], shared);
      heads[i] = h;
      // The sign bit flipped: a signed sort of these orders the heads unsigned.
      packed[i] = ((h ^ Long.MIN_VALUE) & ~indexMask) | i;
    }
    Arrays.sort(packed, 0, n);
    int start = 0;
    for (int k = 0; k < n; k++) {
      order[k] = (int) (packed[k] & indexMask);
      if ((packed[k] & ~indexMask) != (packed[start] & ~indexMask)) {
        sortRun(order, start, k);
        start = k;
      }
    }
    sortRun(order, start, n);
    this.rows = null;
    this.columns = null;
  }

  /** The length of the prefix every row shares. */
  private static int sharedPrefix(byte[][] rows) {
    int shared = rows.length == 0 ? 0 : rows[0].length;
    for (int i = 1; i < rows.length && shared > 0; i++) {
      int m = Arrays.mismatch(rows[0], 0, shared, rows[i], 0, Math.min(shared, rows[i].length));
      if (m >= 0) {
        shared = m;
      }
    }
    return shared;
  }

  /** Sorts {@code order[from, to)}, a run of keys in input order whose heads agree, by cell. */
  private void sortRun(int[] order, int from, int to) {
    if (to - from > 1) {
      mergeSort(order, from, to);
    }
  }

  /** A stable merge sort of {@code a[from, to)} by cell; an already sorted run costs one comparison per merge. */
  private void mergeSort(int[] a, int from, int to) {
    if (to - from < 2) {
      return;
    }
    int mid = (from + to) >>> 1;
    mergeSort(a, from, mid);
    mergeSort(a, mid, to);
    if (compare(a[mid - 1], a[mid]) <= 0) {
      return;
    }
    System.arraycopy(a, from, scratch, from, to - from);
    int i = from;
    int j = mid;
    for (int k = from; k < to; k++) {
      boolean takeLeft = j >= to || (i < mid && compare(scratch[i], scratch[j]) <= 0);
      a[k] = takeLeft ? scratch[i++] : scratch[j++];
    }
  }

  private int compare(int a, int b) {
    int c = Long.compareUnsigned(heads[a], heads[b]);
    if (c != 0) {
      return c;
    }
    c = UnsignedBytes.compare(rows[a], rows[b]);
    return c != 0 ? c : UnsignedBytes.compare(columns[a], columns[b]);
  }
}
