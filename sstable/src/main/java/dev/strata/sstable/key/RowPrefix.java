package dev.strata.sstable.key;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

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

  /**
   * The prefix of {@code row} after its first {@code shared} bytes: what a search compares among
   * rows that all start with the same {@code shared} bytes ({@link #sideOfShared} said 0), whose
   * first 8 bytes would tie.
   */
  public static long after(byte[] row, int shared) {
    return of(row, shared, row.length - shared);
  }

  /**
   * Where {@code row} sorts against the rows that start with {@code shared}: 0 when it starts with
   * it too; below 0 when it sorts below every such row (it is a proper prefix of {@code shared}, or
   * its first differing byte is smaller), above 0 when above.
   */
  public static int sideOfShared(byte[] row, byte[] shared) {
    int m = Arrays.mismatch(row, 0, Math.min(row.length, shared.length), shared, 0, shared.length);
    if (m < 0) {
      return 0;
    }
    return m == row.length ? -1 : Integer.compare(row[m] & 0xff, shared[m] & 0xff);
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
