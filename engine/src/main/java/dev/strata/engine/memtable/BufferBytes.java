package dev.strata.engine.memtable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Lexicographic order of unsigned bytes between a range of a memtable chunk and a range of an
 * array, eight bytes at a time, as {@code UnsignedBytes} orders two arrays: the comparison a
 * memtable search makes at every node it passes.
 *
 * <p>Thread-safe (stateless).
 */
final class BufferBytes {
  /** Big-endian: an unsigned comparison of two such longs orders their bytes as the bytes do. */
  private static final VarHandle CHUNK_LONGS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private static final VarHandle ARRAY_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private BufferBytes() {}

  /**
   * Compares {@code a[aFrom, aFrom + aLength)} with {@code b[bFrom, bFrom + bLength)}, bytes
   * unsigned, a proper prefix first: the sign of {@code Arrays.compareUnsigned} on the same ranges.
   */
  static int compare(ByteBuffer a, int aFrom, int aLength, byte[] b, int bFrom, int bLength) {
    int n = Math.min(aLength, bLength);
    int i = 0;
    for (; i + Long.BYTES <= n; i += Long.BYTES) {
      long x = (long) CHUNK_LONGS.get(a, aFrom + i);
      long y = (long) ARRAY_LONGS.get(b, bFrom + i);
      if (x != y) {
        return Long.compareUnsigned(x, y);
      }
    }
    if (i < n) {
      if (n >= Long.BYTES) {
        // The last eight bytes of the common length: those before i are equal, so the first
        // difference, if any, is the first in this word.
        long x = (long) CHUNK_LONGS.get(a, aFrom + n - Long.BYTES);
        long y = (long) ARRAY_LONGS.get(b, bFrom + n - Long.BYTES);
        if (x != y) {
          return Long.compareUnsigned(x, y);
        }
      } else {
        for (; i < n; i++) {
          int c = (a.get(aFrom + i) & 0xFF) - (b[bFrom + i] & 0xFF);
          if (c != 0) {
            return c;
          }
        }
      }
    }
    return Integer.compare(aLength, bLength);
  }
}
