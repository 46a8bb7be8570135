package dev.strata.sstable.key;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Lexicographic order of unsigned byte ranges, eight bytes at a time: the comparison every key
 * search makes (a memtable lookup some 25 times, a block search some 10 per table).
 * {@code Arrays.compareUnsigned} on ranges checks both ranges and calls the JDK's vectorized
 * mismatch stub, which costs more than the comparison itself on keys of tens of bytes (figures in
 * docs/OPERATING.md). Guava's {@code UnsignedBytes.lexicographicalComparator} reads longs for the
 * same reason.
 *
 * <p>Thread-safe (stateless).
 */
public final class UnsignedBytes {
  /** Big-endian: an unsigned comparison of two such longs orders their bytes as the bytes do. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private UnsignedBytes() {}

  /** Compares {@code a} with {@code b}: {@link #compare(byte[], int, int, byte[], int, int)}. */
  public static int compare(byte[] a, byte[] b) {
    return compare(a, 0, a.length, b, 0, b.length);
  }

  /**
   * Compares {@code a[aFrom, aFrom + aLength)} with {@code b[bFrom, bFrom + bLength)}, bytes
   * unsigned, a proper prefix first: the sign of {@code Arrays.compareUnsigned} on the same ranges.
   */
  public static int compare(byte[] a, int aFrom, int aLength, byte[] b, int bFrom, int bLength) {
    int n = Math.min(aLength, bLength);
    int i = 0;
    for (; i + Long.BYTES <= n; i += Long.BYTES) {
      long x = (long) LONGS.get(a, aFrom + i);
      long y = (long) LONGS.get(b, bFrom + i);
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    if (i < n) {
      if (n >= Long.BYTES) {
        // The last eight bytes of the common length: those before i are equal, so the first
        // difference, if any, is the first in this word.
        long x = (long) LONGS.get(a, aFrom + n - Long.BYTES);
        long y = (long) LONGS.get(b, bFrom + n - Long.BYTES);
        if (x != y) {
          return Long.compareUnsigned(x, y);
        }
      } else {
        for (; i < n; i++) {
          int c = (a[aFrom + i] & 0xFF) - (b[bFrom + i] & 0xFF);
          if (c != 0) {
            return c;
          }
        }
      }
    }
    return Integer.compare(aLength, bLength);
  }
}
