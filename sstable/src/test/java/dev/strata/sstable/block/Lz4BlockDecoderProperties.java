package dev.strata.sstable.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.testing.Seeded;
import java.util.Arrays;
import java.util.Random;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * The plain-Java LZ4 decoder (lz4-java's Java instance behind the range checks): every block lz4-java's fast and high-compression
 * compressors write (random, repetitive and mixed inputs of 0 to 70,000 bytes, so literal and match
 * lengths cross their 15- and 255-byte continuations and matches overlap their output) decodes to
 * the input, through offsets into both arrays; damaged blocks (bytes changed, cut short, an output
 * too small) throw {@link LZ4Exception} or decode to something, and never read or write outside
 * the ranges given.
 */
final class Lz4BlockDecoderProperties {
  private static final LZ4Compressor FAST = LZ4Factory.safeInstance().fastCompressor();
  private static final LZ4Compressor HIGH = LZ4Factory.safeInstance().highCompressor();

  @Test
  void decodesWhatLz4JavaEncodes() {
    Seeded.run("lz4 round trip", 300, random -> {
      byte[] input = input(random);
      byte[] compressed = (random.nextBoolean() ? FAST : HIGH).compress(input);
      int srcOff = random.nextInt(8);
      byte[] src = new byte[srcOff + compressed.length + random.nextInt(8)];
      System.arraycopy(compressed, 0, src, srcOff, compressed.length);
      int destOff = random.nextInt(8);
      byte[] dest = new byte[destOff + input.length + random.nextInt(8)];
      int n = Lz4BlockDecoder.decode(src, srcOff, compressed.length, dest, destOff, input.length);
      assertEquals(input.length, n);
      assertArrayEquals(input, Arrays.copyOfRange(dest, destOff, destOff + n));
      assertEquals(n, Lz4Decompressor.decompress(src, srcOff, compressed.length, dest, destOff, input.length));
      assertArrayEquals(input, Arrays.copyOfRange(dest, destOff, destOff + n));
    });
  }

  @Test
  void damagedBlocks_throwLz4Exception_andStayInsideTheirRanges() {
    Seeded.run("lz4 damaged", 300, random -> {
      byte[] input = input(random);
      if (input.length == 0) {
        return;
      }
      byte[] compressed = FAST.compress(input);
      int srcLen = compressed.length;
      switch (random.nextInt(3)) {
        case 0 -> {
          for (int i = 1 + random.nextInt(4); i > 0; i--) {
            compressed[random.nextInt(compressed.length)] = (byte) random.nextInt(256);
          }
        }
        case 1 -> srcLen = random.nextInt(compressed.length);
        default -> { }
      }
      int maxOut = random.nextInt(3) == 0 ? random.nextInt(input.length) : input.length;
      byte[] src = Arrays.copyOf(compressed, compressed.length + 16);
      byte[] guardedSrc = src.clone();
      byte[] dest = new byte[maxOut + 16];
      Arrays.fill(dest, maxOut, dest.length, (byte) 0x5a);
      try {
        int n = Lz4BlockDecoder.decode(src, 0, srcLen, dest, 0, maxOut);
        assertTrue(n >= 0 && n <= maxOut, "wrote " + n + " of at most " + maxOut);
      } catch (LZ4Exception e) {
        // damage detected
      }
      assertArrayEquals(guardedSrc, src, "the input is never written");
      for (int i = maxOut; i < dest.length; i++) {
        assertEquals((byte) 0x5a, dest[i], "wrote past the output range at " + i);
      }
    });
  }

  @Test
  void rejectsEmptyInputAndBadOffsets() {
    byte[] out = new byte[64];
    assertThrows(LZ4Exception.class, () -> Lz4BlockDecoder.decode(new byte[0], 0, 0, out, 0, 64));
    // token: one literal, match length 4; offset 2 points before the output's start
    byte[] badOffset = {0x10, 'a', 0x02, 0x00, 0x00};
    assertThrows(LZ4Exception.class, () -> Lz4BlockDecoder.decode(badOffset, 0, badOffset.length, out, 0, 64));
    byte[] zeroOffset = {0x10, 'a', 0x00, 0x00, 0x00};
    assertThrows(LZ4Exception.class, () -> Lz4BlockDecoder.decode(zeroOffset, 0, zeroOffset.length, out, 0, 64));
    byte[] endsInMatch = {0x10, 'a', 0x01, 0x00};
    assertThrows(LZ4Exception.class, () -> Lz4BlockDecoder.decode(endsInMatch, 0, endsInMatch.length, out, 0, 64));
  }

  /** Random, repetitive (short periods: overlapping matches) or mixed bytes, sometimes long runs. */
  private static byte[] input(Random random) {
    int length = random.nextInt(5) == 0 ? random.nextInt(70_000) : random.nextInt(5_000);
    byte[] b = new byte[length];
    int i = 0;
    while (i < length) {
      int run = Math.min(length - i, 1 + random.nextInt(random.nextBoolean() ? 40 : 2_000));
      switch (random.nextInt(3)) {
        case 0 -> {
          for (int j = 0; j < run; j++) {
            b[i + j] = (byte) random.nextInt(256);
          }
        }
        case 1 -> {
          int period = 1 + random.nextInt(8);
          for (int j = 0; j < run; j++) {
            b[i + j] = (byte) ('a' + (j % period));
          }
        }
        default -> {
          if (i > 0) {
            int from = random.nextInt(i);
            for (int j = 0; j < run; j++) {
              b[i + j] = b[from + j % (i - from)];
            }
          }
        }
      }
      i += run;
    }
    return b;
  }
}
