package dev.strata.sstable.block;

import net.jpountz.lz4.LZ4Exception;

/**
 * Decodes one LZ4 block (the raw block format: sequences of a token, literals, a two-byte match
 * offset and a match length; no frame, no checksum) in plain Java, checking every length and
 * offset against both arrays, so damaged input throws {@link LZ4Exception} and never reads or
 * writes out of bounds. It is {@link Lz4Decompressor}'s decoder until lz4-java's native one has
 * loaded: it needs one small class, where the native one needs a library extracted and loaded.
 *
 * <p>The format, as the LZ4 block specification has it: a token's high four bits are the literal
 * count and its low four bits the match length minus 4, each continued by bytes added while they
 * are 255 when the four bits are 15; the last sequence ends after its literals, and a match copies
 * from {@code offset} bytes back in the output (1 to 65535, never before its start), overlapping
 * its own output when the offset is shorter than the match.
 *
 * <p>Stateless.
 */
final class Lz4BlockDecoder {
  private static final int MIN_MATCH = 4;

  private Lz4BlockDecoder() {}

  /**
   * Decodes {@code src[srcOff, srcOff + srcLen)} into {@code dest} from {@code destOff}, writing at
   * most {@code maxDestLen} bytes; returns how many it wrote.
   *
   * @throws LZ4Exception when the input is not one whole LZ4 block or decodes to more than
   *     {@code maxDestLen} bytes
   */
  static int decode(byte[] src, int srcOff, int srcLen, byte[] dest, int destOff, int maxDestLen) {
    if (srcOff < 0 || srcLen < 0 || srcOff > src.length - srcLen
        || destOff < 0 || maxDestLen < 0 || destOff > dest.length - maxDestLen) {
      throw new IllegalArgumentException("ranges outside the arrays");
    }
    int sp = srcOff;
    int srcEnd = srcOff + srcLen;
    int dp = destOff;
    int destEnd = destOff + maxDestLen;
    if (srcLen == 0) {
      throw new LZ4Exception("empty input");
    }
    while (true) {
      int token = src[sp++] & 0xff;
      int literals = token >>> 4;
      if (literals == 15) {
        int[] at = {sp};
        literals = extend(src, at, srcEnd, literals);
        sp = at[0];
      }
      if (literals > srcEnd - sp || literals > destEnd - dp) {
        throw new LZ4Exception("literals run past the input or the output at " + (sp - srcOff));
      }
      System.arraycopy(src, sp, dest, dp, literals);
      sp += literals;
      dp += literals;
      if (sp == srcEnd) {
        return dp - destOff; // the last sequence: literals only
      }
      if (srcEnd - sp < 2) {
        throw new LZ4Exception("truncated match offset at " + (sp - srcOff));
      }
      int offset = (src[sp] & 0xff) | (src[sp + 1] & 0xff) << 8;
      sp += 2;
      if (offset == 0 || offset > dp - destOff) {
        throw new LZ4Exception("match offset " + offset + " outside the output at " + (sp - srcOff));
      }
      int length = token & 0xf;
      if (length == 15) {
        int[] at = {sp};
        length = extend(src, at, srcEnd, length);
        sp = at[0];
      }
      length += MIN_MATCH;
      if (length > destEnd - dp) {
        throw new LZ4Exception("match runs past the output at " + (sp - srcOff));
      }
      int from = dp - offset;
      if (offset >= length) {
        System.arraycopy(dest, from, dest, dp, length);
        dp += length;
      } else {
        for (int end = dp + length; dp < end; ) {
          dest[dp++] = dest[from++]; // overlapping: repeats the last offset bytes
        }
      }
      if (sp == srcEnd) {
        throw new LZ4Exception("block ends with a match, not literals");
      }
    }
  }

  /** Adds the continuation bytes at {@code at[0]} to {@code base}; leaves {@code at[0]} after them. */
  private static int extend(byte[] src, int[] at, int srcEnd, int base) {
    int p = at[0];
    long n = base;
    int b;
    do {
      if (p >= srcEnd) {
        throw new LZ4Exception("truncated length at " + p);
      }
      b = src[p++] & 0xff;
      n += b;
      if (n > Integer.MAX_VALUE / 2) {
        throw new LZ4Exception("length overflows at " + p);
      }
    } while (b == 255);
    at[0] = p;
    return (int) n;
  }
}
