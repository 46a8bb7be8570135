package dev.strata.sstable.index;

import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.util.Arrays;

/**
 * The keys of index entries (format version 3): not the last key of a data block but the shortest
 * internal key that still separates it from the next block, as LevelDB's {@code
 * FindShortestSeparator} does for plain byte strings.
 *
 * <p>A reader seeks the index for the first entry {@code >= target} and looks in that block, so an
 * entry's key S for a block ending at key L and followed by a block starting at key N must satisfy
 * {@code L <= S < N} in {@link InternalKey#ORDER}: every key of the block is {@code <= S}, every key
 * of the next one {@code > S}. A target between L and S lands in the earlier block, finds nothing
 * there and moves on, which costs a block but never a wrong answer.
 *
 * <p>The shortening works on the parts of the key, never on its encoded bytes: an encoded internal
 * key ends in an 8-byte trailer and starts with the row's length, so cutting its bytes would not
 * give an internal key at all, and the encoded order is not the key order (the row length comes
 * first). When the rows of L and N differ, S is the smallest internal key of the shortest row R with
 * {@code L.row <= R < N.row}: empty column, {@link InternalKey#MAX_SEQUENCE} and the smallest kind
 * id, which sorts before every key of row R. When that row cannot be shorter than L's, or the rows
 * are equal, the same is tried with the columns inside L's row. Otherwise S is L itself.
 *
 * <p>Thread-safe (stateless).
 */
public final class IndexSeparators {
  private static final byte[] EMPTY = new byte[0];

  /** The kind with the smallest id: it sorts first among keys of equal cell and sequence. */
  private static final ValueKind FIRST_KIND = ValueKind.PUT;

  private IndexSeparators() {}

  /** A key S with {@code last <= S < next}, as short as the rules of the class comment make it. */
  static InternalKey separator(InternalKey last, InternalKey next) {
    assert InternalKey.compare(last, next) < 0 : last + " >= " + next;
    byte[] row = shortestBetween(last.row(), next.row());
    if (row != last.row()) {
      return smallestOf(row, EMPTY);
    }
    if (Arrays.equals(last.row(), next.row())) {
      byte[] column = shortestBetween(last.column(), next.column());
      if (column != last.column()) {
        return smallestOf(last.row(), column);
      }
    }
    return last;
  }

  /**
   * A short key {@code >= last}, for the table's last block: the smallest key of the shortest row
   * after {@code last}'s (its first byte below 0xff incremented, the rest cut), or {@code last}
   * itself when no such row is shorter.
   */
  static InternalKey successor(InternalKey last) {
    byte[] row = last.row();
    for (int i = 0; i < row.length; i++) {
      if (row[i] != (byte) 0xff) {
        if (i + 1 >= row.length + last.column().length) {
          return last; // no shorter than the cell itself: nothing gained
        }
        byte[] r = Arrays.copyOf(row, i + 1);
        r[i]++;
        return smallestOf(r, EMPTY);
      }
    }
    return last;
  }

  /**
   * The shortest byte string s with {@code a <= s < b} (unsigned order, {@code a < b} or equal):
   * {@code a} itself (the same array) when none is shorter. With i the first index where they
   * differ, a candidate is a's first j bytes with its byte j incremented, for j >= i: it exceeds a
   * at byte j, and it stays below b because it equals a (so is below b) at byte i, or, when j = i,
   * because a[i] + 1 is still below b[i], or equals it and is then a proper prefix of b. The
   * smallest such j wins when it makes s shorter than a.
   */
  static byte[] shortestBetween(byte[] a, byte[] b) {
    int common = Arrays.mismatch(a, b);
    if (common < 0 || common >= a.length || common >= b.length) {
      return a; // equal, or a is a prefix of b: nothing shorter than a is >= a
    }
    for (int j = common; j + 1 < a.length; j++) {
      int x = a[j] & 0xff;
      boolean fits = j == common
          ? x + 1 < (b[j] & 0xff) || (x + 1 == (b[j] & 0xff) && b.length > j + 1)
          : x < 0xff;
      if (fits) {
        byte[] s = Arrays.copyOf(a, j + 1);
        s[j]++;
        return s;
      }
    }
    return a;
  }

  private static InternalKey smallestOf(byte[] row, byte[] column) {
    return new InternalKey(row, column, InternalKey.MAX_SEQUENCE, FIRST_KIND);
  }
}
