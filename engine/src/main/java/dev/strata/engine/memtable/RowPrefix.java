package dev.strata.engine.memtable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A row's first {@value #BYTES} bytes as two longs, the copy of its row a skip-list node keeps so
 * that a search step decides on the node's own words and reads the entry only when the prefixes
 * are equal: {@link #high} holds bytes 0-7, {@link #low} bytes 8-14 in its upper seven bytes and
 * zero in its lowest byte (which the node gives its height). Both are big-endian and zero-padded
 * past the row's end.
 *
 * <p>Why fifteen bytes and not eight: keys of one application tend to share their first bytes (a
 * Kafka store's rows are {@code 0x01} and a key such as {@code key-00123456}; dbbench's are
 * zero-padded decimals), so eight-byte prefixes tie on nearly every step of a search and each tie
 * reads the entry, often a second cache miss. Fifteen bytes tell such keys apart unless they
 * differ only further on. The second word costs the node nothing: it replaces the entry's address,
 * which the height gives ({@link ArenaSkipList}).
 *
 * <p>Order: two rows whose prefixes differ are ordered as their prefixes are (unsigned, {@code
 * high} first), since the first byte where the prefixes differ is either the rows' first difference
 * or a padding zero against a real byte of the longer row, which a proper prefix precedes. Equal
 * prefixes say nothing (rows that differ only after byte 14, or a row and itself plus zero bytes).
 *
 * <p>The write path sorts a large write group by the same two words before it inserts it ({@link
 * SortedGroup}), for the same reason: most comparisons of such rows are decided without reading
 * them.
 *
 * <p>Immutable (static methods only).
 */
public final class RowPrefix {
  /** Bytes of a row the two words hold. */
  public static final int BYTES = 15;

  /** The bits of {@link #low} that hold row bytes; the lowest byte is the node's to use. */
  public static final long LOW_BITS = ~0xFFL;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private RowPrefix() {}

  /** Bytes 0-7 of the row {@code b[from, from + length)}, big-endian, zero-padded. */
  public static long high(byte[] b, int from, int length) {
    if (length >= Long.BYTES) {
      return (long) LONGS.get(b, from);
    }
    long p = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      p = p << 8 | (i < length ? b[from + i] & 0xFF : 0);
    }
    return p;
  }

  /**
   * Bytes 8-14 of the row {@code b[from, from + length)} in the upper seven bytes, big-endian,
   * zero-padded; the lowest byte zero.
   */
  public static long low(byte[] b, int from, int length) {
    if (length >= 2 * Long.BYTES) {
      return (long) LONGS.get(b, from + Long.BYTES) & LOW_BITS;
    }
    if (length <= Long.BYTES) {
      return 0;
    }
    // 9 to 15 bytes: the row's last eight bytes, shifted so that byte 8 leads; the shift (8 to 56
    // bits) brings in zeros behind the row's end, the lowest byte among them.
    return (long) LONGS.get(b, from + length - Long.BYTES) << (2 * Long.BYTES - length) * 8;
  }

  /**
   * Orders two prefixes ({@code low} words with their lowest byte cleared or ignored): the sign of
   * the comparison of their rows whenever it is not 0.
   */
  public static int compare(long aHigh, long aLow, long bHigh, long bLow) {
    if (aHigh != bHigh) {
      return Long.compareUnsigned(aHigh, bHigh);
    }
    return Long.compareUnsigned(aLow & LOW_BITS, bLow & LOW_BITS);
  }
}
