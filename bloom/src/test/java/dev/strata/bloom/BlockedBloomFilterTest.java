package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.checksum.Checksums;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class BlockedBloomFilterTest {

  private static BlockedBloomFilter filterOf(int keys, double bits, long seed) {
    BlockedBloomFilter f = BlockedBloomFilter.create(keys, bits);
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < keys; i++) {
      f.putHash(r.nextLong());
    }
    return f;
  }

  @Test
  void create_rejectsBadArgumentsNamingThem() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.create(-1, 10));
    assertTrue(e.getMessage().contains("expectedKeys"), e.getMessage());
    for (double bad : new double[] {0, 0.99, 64.01, -3, Double.NaN, Double.POSITIVE_INFINITY}) {
      e = assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.create(10, bad));
      assertTrue(e.getMessage().contains("bitsPerKey"), e.getMessage());
    }
    e =
        assertThrows(
            IllegalArgumentException.class, () -> BlockedBloomFilter.create(Long.MAX_VALUE, 10));
    assertTrue(e.getMessage().contains("too large"), e.getMessage());
  }

  @Test
  void create_acceptsTheBoundaries() {
    assertEquals(512, BlockedBloomFilter.create(0, 1).bitSize());
    assertEquals(512, BlockedBloomFilter.create(8, 64).bitSize());
    assertEquals(1024, BlockedBloomFilter.create(9, 64).bitSize());
  }

  @Test
  void put_andMightContain_rejectNullAndBadRanges() {
    BlockedBloomFilter f = BlockedBloomFilter.create(10, 10);
    assertThrows(NullPointerException.class, () -> f.put(null));
    assertThrows(NullPointerException.class, () -> f.put(null, 0, 0));
    assertThrows(NullPointerException.class, () -> f.mightContain(null));
    assertThrows(NullPointerException.class, () -> f.mightContain(null, 0, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> f.put(new byte[3], 2, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> f.put(new byte[3], -1, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> f.mightContain(new byte[3], 0, 4));
    assertThrows(IndexOutOfBoundsException.class, () -> f.mightContain(new byte[3], 1, -1));
  }

  @Test
  void emptyFilter_containsNothing() {
    BlockedBloomFilter f = BlockedBloomFilter.create(1000, 10);
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 10_000; i++) {
      assertFalse(f.mightContainHash(r.nextLong()));
    }
    assertFalse(f.mightContain(new byte[0]));
  }

  @Test
  void numProbes_followsBloomSizing() {
    assertEquals(6, BlockedBloomFilter.create(100, 10).numProbes());
    assertEquals(BloomSizing.probesFor(20), BlockedBloomFilter.create(100, 20).numProbes());
  }

  @Test
  void expectedFpp_growsWithKeysAndRejectsNegative() {
    BlockedBloomFilter f = BlockedBloomFilter.create(100_000, 10);
    assertEquals(0, f.expectedFpp(0));
    assertTrue(f.expectedFpp(50_000) < f.expectedFpp(100_000));
    assertTrue(f.expectedFpp(100_000) < f.expectedFpp(200_000));
    assertThrows(IllegalArgumentException.class, () -> f.expectedFpp(-1));
  }

  @Test
  void toByteArray_hasTheDocumentedLayout() {
    BlockedBloomFilter f = filterOf(1000, 10, 7);
    byte[] bytes = f.toByteArray();
    int blocks = (int) (f.bitSize() / 512);
    assertEquals(blocks * 64L + 16, bytes.length);
    ByteBuffer trailer =
        ByteBuffer.wrap(bytes, bytes.length - 16, 16).slice().order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(blocks, trailer.getInt(0));
    assertEquals(f.numProbes(), trailer.get(4));
    assertEquals(BloomFormat.HASH_XXH3_64, trailer.get(5));
    assertEquals(BloomFormat.VERSION_CURRENT, trailer.getShort(6));
    assertEquals(BloomFormat.MAGIC, trailer.getInt(8));
    assertEquals(Checksums.maskedCrc32c(bytes, 0, bytes.length - 4), trailer.getInt(12));
    assertEquals('S', bytes[bytes.length - 8]);
    assertEquals('B', bytes[bytes.length - 7]);
  }

  @Test
  void persistedSize_isWithinOnePercentOfRequestedBitsPerKey() {
    for (double bits : new double[] {6, 8, 10, 10.5, 12, 16, 20}) {
      int keys = 1_000_000;
      long bytes = BlockedBloomFilter.create(keys, bits).toByteArray().length;
      double bitsPerKeyOnDisk = (bytes - BloomFormat.TRAILER_BYTES) * 8.0 / keys;
      assertEquals(bits, bitsPerKeyOnDisk, bits * 0.01, "bits/key " + bits);
    }
  }

  @Test
  void fromBytes_readsAChunkInsideALargerArray() {
    BlockedBloomFilter f = filterOf(500, 10, 3);
    byte[] chunk = f.toByteArray();
    byte[] file = new byte[chunk.length + 100];
    System.arraycopy(chunk, 0, file, 37, chunk.length);
    BlockedBloomFilter g = BlockedBloomFilter.fromBytes(file, 37, chunk.length);
    assertArrayEquals(chunk, g.toByteArray());
  }

  @Test
  void fromByteArray_rejectsNullEmptyAndGarbage() {
    assertThrows(NullPointerException.class, () -> BlockedBloomFilter.fromByteArray(null));
    assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.fromByteArray(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.fromByteArray(new byte[80]));
    SplittableRandom r = new SplittableRandom(42);
    for (int n = 0; n < 2000; n++) {
      byte[] garbage = new byte[r.nextInt(0, 400)];
      r.nextBytes(garbage);
      assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.fromByteArray(garbage));
    }
  }

  @Test
  void fromByteArray_rejectsEveryTruncation() {
    byte[] bytes = filterOf(200, 10, 5).toByteArray();
    for (int len = 0; len < bytes.length; len++) {
      byte[] cut = Arrays.copyOf(bytes, len);
      assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.fromByteArray(cut));
    }
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 64);
    assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.fromByteArray(longer));
  }

  @Test
  void fromByteArray_rejectsEverySingleBitFlip() {
    byte[] bytes = filterOf(100, 10, 6).toByteArray();
    for (int bit = 0; bit < bytes.length * 8; bit++) {
      byte[] flipped = bytes.clone();
      flipped[bit >>> 3] ^= (byte) (1 << (bit & 7));
      assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.fromByteArray(flipped));
    }
  }

  /** A well-formed trailer (valid crc) whose fields are wrong is still rejected, field by field. */
  @ParameterizedTest
  @ValueSource(strings = {"blocks", "probesOdd", "probesHigh", "probesZero", "hash", "version"})
  void fromByteArray_rejectsInconsistentFieldsWithValidCrc(String field) {
    byte[] bytes = filterOf(100, 10, 8).toByteArray();
    ByteBuffer t = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int base = bytes.length - 16;
    switch (field) {
      case "blocks" -> t.putInt(base, t.getInt(base) + 1);
      case "probesOdd" -> t.put(base + 4, (byte) 5);
      case "probesHigh" -> t.put(base + 4, (byte) 18);
      case "probesZero" -> t.put(base + 4, (byte) 0);
      case "hash" -> t.put(base + 5, (byte) 2);
      case "version" -> t.putShort(base + 6, (short) (BloomFormat.VERSION_CURRENT + 1));
      default -> throw new AssertionError(field);
    }
    t.putInt(base + 12, Checksums.maskedCrc32c(bytes, 0, bytes.length - 4));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.fromByteArray(bytes));
    assertFalse(e.getMessage().contains("crc"), e.getMessage());
  }
}
