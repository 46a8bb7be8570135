package dev.strata.engine.memtable;

import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.util.Arrays;

/**
 * The entries of a write group in the memtable's order ({@link InternalKey#ORDER}), each with its
 * sequence number, for {@link MemTable#addSorted}: a large group (a restored batch, a {@code
 * putAll}) goes into the memtable so, and each insert then starts from the splice the previous one
 * left instead of searching from the head (a group of a thousand random keys in a memtable of a
 * hundred thousand entries lands about a hundred entries apart). The order of the inserts within a
 * group is free: readers see none of the group's entries before the engine publishes its sequence
 * numbers, after the last insert.
 *
 * <p>Entries are added in the group's order, entry i with sequence {@code firstSequence + i}, and
 * {@link #sort} ranks them: rank 0 is the smallest key. The sort compares indices in primitive
 * arrays, by the rows' {@link RowPrefix} words first (rows of one application often share their
 * first eight bytes, as a Kafka store's {@code 0x01 key-…} do, and a comparison the two words
 * decide reads neither row), so a group costs no object per entry. Among entries of one cell the
 * later (newer) one ranks first; sequence numbers of a group are distinct, so the kind never
 * decides.
 *
 * <p>The arrays given to {@link #add} are kept, not copied, until {@link #clear}: the caller must
 * not change them meanwhile. Not thread-safe: the group's writer fills, sorts and inserts it, then
 * clears it for the next group.
 */
public final class SortedGroup {
  /** Entries below which a group is inserted as it comes: sorting would cost more. */
  public static final int MIN_ENTRIES = 64;

  /** Runs this short are sorted by insertion before they are merged. */
  private static final int INSERTION_SORT_ENTRIES = 16;

  private ValueKind[] kinds = new ValueKind[MIN_ENTRIES];
  private byte[][] rows = new byte[MIN_ENTRIES][];
  private byte[][] columns = new byte[MIN_ENTRIES][];
  private byte[][] values = new byte[MIN_ENTRIES][];
  private long[] highs = new long[MIN_ENTRIES];
  private long[] lows = new long[MIN_ENTRIES];

  /** Entry indices by rank once sorted; {@link #scratch} is the merge's other half. */
  private int[] order = new int[MIN_ENTRIES];

  private int[] scratch = new int[MIN_ENTRIES];

  /** The sort's longs: an entry's prefix bits and, in the lowest bits, its index. */
  private long[] keys = new long[MIN_ENTRIES];
  private long firstSequence;
  private int size;
  private boolean sorted;

  /** Empties the group, letting go of the arrays it held, for entries numbered from the given. */
  public void clear(long firstSequence) {
    Arrays.fill(rows, 0, size, null);
    Arrays.fill(columns, 0, size, null);
    Arrays.fill(values, 0, size, null);
    this.firstSequence = firstSequence;
    size = 0;
    sorted = false;
  }

  /**
   * Adds the next entry of the group, with sequence {@code firstSequence + size()}. Tombstones
   * carry an empty value, row tombstones the empty column.
   */
  public void add(ValueKind kind, byte[] row, byte[] column, byte[] value) {
    if (size == kinds.length) {
      grow();
    }
    kinds[size] = kind;
    rows[size] = row;
    columns[size] = column;
    values[size] = value;
    highs[size] = RowPrefix.high(row, 0, row.length);
    lows[size] = RowPrefix.low(row, 0, row.length);
    size++;
    sorted = false;
  }

  /**
   * Ranks the entries in the memtable's order: by a primitive sort of one long per entry, its
   * prefix's first 64 bits after the bits every prefix of the group shares (rows of one application
   * share their first bytes) with the entry's index in place of the lowest bits; entries whose longs
   * tie above the index (the same row, or rows that differ only further on) are then ordered by the
   * full comparison.
   */
  public void sort() {
    if (keys.length < size) {
      keys = new long[kinds.length];
    }
    long diffHigh = 0;
    long diffLow = 0;
    for (int i = 1; i < size; i++) {
      diffHigh |= highs[i] ^ highs[0];
      diffLow |= lows[i] ^ lows[0];
    }
    if (size < INSERTION_SORT_ENTRIES || (diffHigh | diffLow) == 0) {
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      sort(0, size); // every prefix alike: the rows decide
      sorted = true;
      return;
    }
    long indexBits = (1L << (Integer.SIZE - Integer.numberOfLeadingZeros(size - 1))) - 1;
    for (int i = 0; i < size; i++) {
      // The sign bit flipped: the signed sort then orders the longs as unsigned.
      keys[i] = ((sortBits(highs[i], lows[i], diffHigh, diffLow) & ~indexBits) | i)
          ^ Long.MIN_VALUE;
    }
    Arrays.sort(keys, 0, size);
    for (int r = 0; r < size; r++) {
      order[r] = (int) (keys[r] & indexBits);
    }
    for (int r = 0; r < size; ) {
      int end = r + 1;
      while (end < size && ((keys[end] ^ keys[r]) & ~indexBits) == 0) {
        end++;
      }
      if (end - r > 1) {
        sort(r, end);
      }
      r = end;
    }
    sorted = true;
  }

  /**
   * The 64 bits of the prefix ({@code high}, {@code low}) after the leading bits that no prefix of
   * the group differs in ({@code diffHigh} and {@code diffLow} hold the bits some do): ordered as
   * the prefixes are wherever they differ.
   */
  private static long sortBits(long high, long low, long diffHigh, long diffLow) {
    if (diffHigh == 0) {
      return low << Long.numberOfLeadingZeros(diffLow);
    }
    int shared = Long.numberOfLeadingZeros(diffHigh);
    return shared == 0 ? high : high << shared | low >>> (Long.SIZE - shared);
  }

  /** The entries added. */
  public int size() {
    return size;
  }

  /** The sequence number of the first entry added. */
  public long firstSequence() {
    return firstSequence;
  }

  /** The largest sequence number of the group. */
  public long lastSequence() {
    return firstSequence + size - 1;
  }

  /** The entry index of rank {@code rank}; {@link #sort} first. */
  int entry(int rank) {
    assert sorted : "group not sorted";
    return order[rank];
  }

  ValueKind kind(int entry) {
    return kinds[entry];
  }

  byte[] row(int entry) {
    return rows[entry];
  }

  byte[] column(int entry) {
    return columns[entry];
  }

  byte[] value(int entry) {
    return values[entry];
  }

  long sequence(int entry) {
    return firstSequence + entry;
  }

  /** Sorts {@code order[from, to)}: halves merged, short runs by insertion. */
  private void sort(int from, int to) {
    if (to - from <= INSERTION_SORT_ENTRIES) {
      for (int i = from + 1; i < to; i++) {
        int e = order[i];
        int j = i - 1;
        while (j >= from && compare(order[j], e) > 0) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = e;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    sort(from, mid);
    sort(mid, to);
    if (compare(order[mid - 1], order[mid]) <= 0) {
      return; // already in order: a group that came sorted costs a comparison per run
    }
    System.arraycopy(order, from, scratch, from, to - from);
    int a = from;
    int b = mid;
    for (int i = from; i < to; i++) {
      if (b >= to || (a < mid && compare(scratch[a], scratch[b]) <= 0)) {
        order[i] = scratch[a++];
      } else {
        order[i] = scratch[b++];
      }
    }
  }

  /** {@link InternalKey#ORDER} of entries {@code a} and {@code b}: the later entry is newer. */
  private int compare(int a, int b) {
    int cmp = RowPrefix.compare(highs[a], lows[a], highs[b], lows[b]);
    if (cmp == 0) {
      cmp = Arrays.compareUnsigned(rows[a], rows[b]);
    }
    if (cmp == 0) {
      cmp = Arrays.compareUnsigned(columns[a], columns[b]);
    }
    return cmp != 0 ? cmp : Integer.compare(b, a);
  }

  private void grow() {
    int n = kinds.length * 2;
    kinds = Arrays.copyOf(kinds, n);
    rows = Arrays.copyOf(rows, n);
    columns = Arrays.copyOf(columns, n);
    values = Arrays.copyOf(values, n);
    highs = Arrays.copyOf(highs, n);
    lows = Arrays.copyOf(lows, n);
    order = new int[n];
    scratch = new int[n];
  }
}
