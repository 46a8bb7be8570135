package dev.strata.sstable.block;

import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Decodes one LZ4 block (the raw block format, no frame) with lz4-java's pure-Java decoder, which
 * checks every length and offset against both arrays: damaged input throws {@link LZ4Exception}
 * and never reads or writes out of bounds. It is {@link Lz4Decompressor}'s decoder until
 * lz4-java's native one has loaded: the Java instance needs a few classes from the jar, where the
 * native one needs a library extracted to a temporary file and loaded.
 *
 * <p>Stateless.
 */
final class Lz4BlockDecoder {
  private static final LZ4SafeDecompressor JAVA = LZ4Factory.safeInstance().safeDecompressor();

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
    if (srcLen == 0) {
      throw new LZ4Exception("empty input");
    }
    return JAVA.decompress(src, srcOff, srcLen, dest, destOff, maxDestLen);
  }
}
