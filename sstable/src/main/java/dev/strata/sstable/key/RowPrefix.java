package dev.strata.sstable.key;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A row's first 8 bytes as one long, big-endian and zero-padded, so that binary searches over row
 * boundaries compare longs first and bytes only on a tie: for any rows a and b, {@code
 * Long.compareUnsigned(of(a), of(b))} is negative only when a sorts before b in unsigned byte order,
 * and positive only when after. (At the first byte where the padded prefixes differ, both rows
 * have a real byte and that byte decides; or the row with the pad (0) there ended, and is a prefix
 * of the other, so it sorts first.) Equal prefixes say nothing: compare the bytes.
 *
 * <p>Thread-safe (static methods only).
 */
public final class RowPrefix {
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private RowPrefix() {}

  /** The prefix of {@code row}. */
  public static long of(byte[] row) {
    return of(row, 0, row.length);
  }

  /** The prefix of the row at {@code b[off, off + len)}. */
  public static long of(byte[] b, int off, int len) {
    if (len >= 8) {
      return (long) BIG_ENDIAN_LONG.get(b, off);
    }
    long p = 0;
    for (int i = 0; i < 8; i++) {
      p = (p << 8) | (i < len ? b[off + i] & 0xffL : 0);
    }
    return p;
  }
}
