package dev.strata.sstable.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * The decompressor decodes with the plain decoder first and loads lz4-java's native one on a
 * thread of its own once enough blocks were decoded; before and after, the output is the input.
 */
final class Lz4DecompressorTest {
  @Test
  void loadsTheNativeDecoderAfterPlainDecodes_andDecodesAlike() throws InterruptedException {
    byte[] input = "a block of repeated text, a block of repeated text, a block of text"
        .repeat(20).getBytes(StandardCharsets.US_ASCII);
    byte[] compressed = LZ4Factory.safeInstance().fastCompressor().compress(input);
    byte[] out = new byte[input.length];
    for (int i = 0; i <= Lz4Decompressor.DECODES_BEFORE_LOAD; i++) {
      assertEquals(input.length, Lz4Decompressor.decompress(compressed, 0, compressed.length, out, 0, out.length));
      assertArrayEquals(input, out);
    }
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("strata-lz4-load")) {
        t.join();
      }
    }
    assertTrue(Lz4Decompressor.isLoaded(), "loaded after the plain decodes");
    java.util.Arrays.fill(out, (byte) 0);
    assertEquals(input.length, Lz4Decompressor.decompress(compressed, 0, compressed.length, out, 0, out.length));
    assertArrayEquals(input, out);
  }
}
