package dev.strata.sstable.format;

/**
 * Little-endian fixed-width and LEB128 varint codecs for the table format, on plain byte arrays.
 *
 * <p>Decoders here trust their caller to have checked the bounds (they {@code assert} them): the
 * block parsers verify every length against the block limit before calling in.
 *
 * <p>Thread-safe (stateless).
 */
public final class Bytes {
  /** The most bytes a varint32 takes. */
  public static final int MAX_VARINT32_BYTES = 5;

  private Bytes() {}

  public static void putU16(byte[] b, int off, int v) {
    assert (v & ~0xffff) == 0 : "u16 out of range: " + v;
    b[off] = (byte) v;
    b[off + 1] = (byte) (v >>> 8);
  }

  public static void putU32(byte[] b, int off, int v) {
    b[off] = (byte) v;
    b[off + 1] = (byte) (v >>> 8);
    b[off + 2] = (byte) (v >>> 16);
    b[off + 3] = (byte) (v >>> 24);
  }

  public static void putU64(byte[] b, int off, long v) {
    putU32(b, off, (int) v);
    putU32(b, off + 4, (int) (v >>> 32));
  }

  public static int getU16(byte[] b, int off) {
    return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8;
  }

  public static int getU32(byte[] b, int off) {
    return (b[off] & 0xff)
        | (b[off + 1] & 0xff) << 8
        | (b[off + 2] & 0xff) << 16
        | (b[off + 3] & 0xff) << 24;
  }

  public static long getU64(byte[] b, int off) {
    return (getU32(b, off) & 0xffffffffL) | ((long) getU32(b, off + 4)) << 32;
  }

  /** Bytes {@link #putVarint32} writes for {@code v} (treated as unsigned). */
  static int varint32Length(int v) {
    int n = 1;
    while ((v & ~0x7f) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /** Writes {@code v} as an unsigned LEB128 varint; returns the offset after it. */
  public static int putVarint32(byte[] b, int off, int v) {
    while ((v & ~0x7f) != 0) {
      b[off++] = (byte) ((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    b[off++] = (byte) v;
    return off;
  }

  /**
   * Decodes an unsigned LEB128 varint32 at {@code b[off]} that must end before {@code limit}.
   * Returns the value in the low 32 bits and the offset after it in the high 32 bits, or -1 when the
   * varint runs past {@code limit}, is longer than 5 bytes or does not fit in 31 bits (every length
   * in the format is a non-negative int).
   */
  public static long getVarint31(byte[] b, int off, int limit) {
    int result = 0;
    for (int shift = 0, i = off; shift < 35 && i < limit; shift += 7, i++) {
      int x = b[i] & 0xff;
      if (shift == 28 && (x & 0xf8) != 0) {
        return -1; // would not fit in 31 bits
      }
      result |= (x & 0x7f) << shift;
      if ((x & 0x80) == 0) {
        return ((long) (i + 1) << 32) | (result & 0xffffffffL);
      }
    }
    return -1;
  }
}
