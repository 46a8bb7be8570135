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

final class RibbonFilterTest {

  private static long[] randomHashes(int count, long seed) {
    return new SplittableRandom(seed).longs(count).toArray();
  }

  private static void assertAllPresent(RibbonFilter filter, long[] hashes, int count) {
    for (int i = 0; i < count; i++) {
      assertTrue(filter.mightContainHash(hashes[i]), "lost hash " + i + " of " + filter);
    }
  }

  @Test
  void build_rejectsBadArgumentsNamingThem() {
    long[] hashes = randomHashes(10, 1);
    assertThrows(NullPointerException.class, () -> RibbonFilter.build(null, 0, 7));
    assertThrows(NullPointerException.class, () -> RibbonFilter.forFalsePositiveRate(null, 0, 0.01));
    for (int bad : new int[] {-1, 11, Integer.MIN_VALUE}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> RibbonFilter.build(hashes, bad, 7));
      assertTrue(e.getMessage().contains("count"), e.getMessage());
      e =
          assertThrows(
              IllegalArgumentException.class,
              () -> RibbonFilter.forFalsePositiveRate(hashes, bad, 0.01));
      assertTrue(e.getMessage().contains("count"), e.getMessage());
    }
    for (double bad : new double[] {0, 0.99, 64.01, -3, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> RibbonFilter.build(hashes, 10, bad));
      assertTrue(e.getMessage().contains("bitsPerKey"), e.getMessage());
    }
    for (double bad : new double[] {0, 1, -0.1, 1e-10, Double.NaN, Double.NEGATIVE_INFINITY}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> RibbonFilter.forFalsePositiveRate(hashes, 10, bad));
      assertTrue(e.getMessage().contains("fpp"), e.getMessage());
      assertThrows(
          IllegalArgumentException.class, () -> RibbonFilter.forFalsePositiveRate(hashes, 0, bad));
    }
  }

  @Test
  void emptyFilter_answersAbsentForEverythingAndRoundTrips() {
    RibbonFilter built = RibbonFilter.build(new long[0], 0, 7);
    RibbonFilter byRate = RibbonFilter.forFalsePositiveRate(randomHashes(5, 2), 0, 0.01);
    for (RibbonFilter f : new RibbonFilter[] {built, byRate, reload(built)}) {
      assertEquals(0, f.bitSize());
      assertEquals(0, f.expectedFpp());
      assertEquals(RibbonFormat.TRAILER_BYTES, f.toByteArray().length);
      for (long h : randomHashes(1000, 3)) {
        assertFalse(f.mightContainHash(h));
        assertEquals(0, f.touch(h));
      }
    }
  }

  /** Every count from 1 to 300 (one and two blocks, the smallest shapes) keeps every key. */
  @Test
  void build_tinyCounts_keepEveryKeyAndTheRateOfTheBudget() {
    for (int count = 1; count <= 300; count++) {
      long[] hashes = randomHashes(count, 100 + count);
      RibbonFilter f = RibbonFilter.build(hashes, count, 7);
      assertAllPresent(f, hashes, count);
      assertAllPresent(reload(f), hashes, count);
      assertTrue(f.numBlocks() >= RibbonFormat.MIN_BLOCKS, f.toString());
      // The model's rate at 7 bits per key (about 1.1% at these sizes), within the rounding of
      // the lower blocks to the nearest whole block: half a block of starts at 2^-7 more.
      double model = RibbonSizing.fppAtBitsPerKey(count, 7);
      double rounding =
          0.5 * RibbonFormat.BLOCK_SLOTS / RibbonSizing.numStarts(f.numBlocks()) / 128;
      assertTrue(model < 0.0112, count + " keys: model " + model);
      assertTrue(f.expectedFpp() <= model + rounding, count + " keys: " + f.expectedFpp());
    }
  }

  @Test
  void build_duplicatesAreOneKey() {
    long[] distinct = randomHashes(1000, 4);
    long[] tripled = new long[3000];
    for (int i = 0; i < tripled.length; i++) {
      tripled[i] = distinct[i % distinct.length];
    }
    RibbonFilter f = RibbonFilter.build(tripled, tripled.length, 8);
    assertAllPresent(f, distinct, distinct.length);
    long[] same = new long[5000];
    Arrays.fill(same, 0x1234_5678_9abc_def0L);
    RibbonFilter one = RibbonFilter.build(same, same.length, 8);
    assertTrue(one.mightContainHash(same[0]));
    assertEquals(0, one.seed(), "equal hashes never make a system inconsistent");
  }

  /** The sizing targets of the filters issue: at most 7.2 bits per key at 1%. */
  @ParameterizedTest(name = "{0} keys")
  @ValueSource(ints = {10_000, 100_000, 300_000})
  void forFalsePositiveRate_onePercent_atMost7point2BitsPerKey(int count) {
    long[] hashes = randomHashes(count, 5);
    RibbonFilter f = RibbonFilter.forFalsePositiveRate(hashes, count, 0.01);
    double bitsPerKey = (double) f.bitSize() / count;
    assertTrue(f.expectedFpp() <= 0.01, f.toString());
    assertTrue(bitsPerKey <= 7.2, bitsPerKey + " bits/key: " + f);
    assertAllPresent(f, hashes, count);
  }

  /** By rate: one more block with one column fewer would miss the rate (least memory). */
  @ParameterizedTest(name = "fpp {0}")
  @ValueSource(doubles = {0.5, 0.3, 0.1, 0.01, 0.004, 1e-3, 1e-5, 1e-9})
  void forFalsePositiveRate_isTheSmallestShapeThatReachesTheRate(double fpp) {
    for (int count : new int[] {1, 50, 1000, 20_000}) {
      RibbonFilter f = RibbonFilter.forFalsePositiveRate(randomHashes(count, 6), count, fpp);
      assertTrue(f.expectedFpp() <= fpp, f + " at " + fpp);
      int lower = f.lowerBlocks() + 1;
      if (lower < f.numBlocks()) {
        assertTrue(RibbonSizing.fpp(f.numBlocks(), f.columns(), lower) > fpp, f + " at " + fpp);
      }
      if (f.columns() > 1) {
        assertTrue(RibbonSizing.fpp(f.numBlocks(), f.columns() - 1, 0) > fpp, f + " at " + fpp);
      }
    }
  }

  @Test
  void build_bitsPerKeyIsSpentOnLargeFilters() {
    int count = 200_000;
    long[] hashes = randomHashes(count, 7);
    for (double bits : new double[] {1, 4.5, 7, 10, 20}) {
      RibbonFilter f = RibbonFilter.build(hashes, count, bits);
      double spent = (double) f.bitSize() / count;
      assertTrue(Math.abs(spent - bits) < 0.01 * bits, bits + " asked, " + spent + " spent");
    }
    RibbonFilter capped = RibbonFilter.build(hashes, count, 64);
    assertEquals(RibbonFormat.MAX_COLUMNS, capped.columns());
    assertEquals(0, capped.lowerBlocks());
  }

  /** When every attempt fails the filter answers "maybe" for every key: never a false negative. */
  @Test
  void build_withoutASuccessfulAttempt_passesEverything() {
    long[] hashes = randomHashes(500, 8);
    RibbonFilter f =
        RibbonFilter.build(
            hashes, hashes.length, blocks -> RibbonSizing.shapeForBitsPerKey(500, blocks, 7), 0);
    assertEquals(1, f.expectedFpp());
    assertEquals(0, f.bitSize());
    RibbonFilter back = reload(f);
    for (long h : randomHashes(1000, 9)) {
      assertTrue(f.mightContainHash(h));
      assertTrue(back.mightContainHash(h));
    }
  }

  /**
   * Hashes 0..999 all have a zero high half, so under seed 0 (the key hash as it is) every row
   * starts at slot 0: 1000 rows in 128 slots cannot all hold, and the build retries under a seed
   * that remixes them.
   */
  @Test
  void build_sequentialHashes_retryUnderAnotherSeed() {
    long[] hashes = new long[1000];
    Arrays.setAll(hashes, i -> i);
    RibbonFilter f = RibbonFilter.build(hashes, hashes.length, 7);
    assertTrue(f.seed() > 0, f.toString());
    assertAllPresent(f, hashes, hashes.length);
    assertAllPresent(reload(f), hashes, hashes.length);
    assertTrue(f.expectedFpp() < 0.011, f.toString());
  }

  @Test
  void toByteArray_hasTheDocumentedLayout() {
    long[] hashes = randomHashes(1000, 10);
    RibbonFilter f = RibbonFilter.build(hashes, hashes.length, 7);
    byte[] bytes = f.toByteArray();
    long segments = RibbonFormat.numSegments(f.numBlocks(), f.columns(), f.lowerBlocks());
    assertEquals(segments * 8 + RibbonFormat.TRAILER_BYTES, bytes.length);
    assertEquals(segments * 64, f.bitSize());
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int t = bytes.length - RibbonFormat.TRAILER_BYTES;
    assertEquals(f.numBlocks(), b.getInt(t));
    assertEquals(f.lowerBlocks(), b.getInt(t + 4));
    assertEquals(f.seed(), b.getShort(t + 8));
    assertEquals(f.columns(), b.get(t + 10));
    assertEquals(RibbonFormat.KIND_STANDARD_128, b.get(t + 11));
    assertEquals(1, b.get(t + 12), "hash id of XXH3-64");
    assertEquals(0, b.get(t + 13));
    assertEquals(RibbonFormat.VERSION_CURRENT, b.getShort(t + 14));
    assertEquals(0x4E425253, b.getInt(t + 16));
    assertEquals('S', bytes[t + 16]);
    assertEquals('R', bytes[t + 17]);
    assertEquals(Checksums.maskedCrc32c(bytes, 0, t + 20), b.getInt(t + 20));
  }

  /**
   * The in-memory layout (RibbonLayout) answers exactly as FORMAT.md section 2b defines a query
   * over the persisted bytes, for members and absent keys, at every column count from 1 to 32
   * (with and without lower blocks, so at one and two columns too), built and reloaded.
   */
  @ParameterizedTest
  @ValueSource(doubles = {1.0, 1.6, 2.3, 3.1, 4.5, 7.0, 7.3, 9.9, 12.2, 16.0, 23.7, 31.5, 33.5})
  void mightContainHash_answersAsTheFormatDefinesTheQuery(double bitsPerKey) {
    SplittableRandom random = new SplittableRandom(Double.doubleToLongBits(bitsPerKey));
    for (int count : new int[] {1, 3, 130, 4000}) {
      long[] hashes = random.longs(count).toArray();
      RibbonFilter built = RibbonFilter.build(hashes, count, bitsPerKey);
      byte[] bytes = built.toByteArray();
      RibbonFilter reloaded = RibbonFilter.fromByteArray(bytes);
      for (int i = 0; i < 3000; i++) {
        long h = i < count ? hashes[i] : random.nextLong();
        boolean expected = formatDefinitionAnswer(bytes, h);
        assertEquals(expected, built.mightContainHash(h), built + " for hash " + h);
        assertEquals(expected, reloaded.mightContainHash(h), reloaded + " for hash " + h);
      }
    }
  }

  /** FORMAT.md section 2b's query, bit by bit over the persisted bytes, with its constants. */
  private static boolean formatDefinitionAnswer(byte[] bytes, long h) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int t = bytes.length - RibbonFormat.TRAILER_BYTES;
    long numBlocks = Integer.toUnsignedLong(b.getInt(t));
    long lower = Integer.toUnsignedLong(b.getInt(t + 4));
    int seed = Short.toUnsignedInt(b.getShort(t + 8));
    int columns = Byte.toUnsignedInt(b.get(t + 10));
    if (numBlocks == 0) {
      return false;
    }
    long x = h;
    if (seed != 0) {
      x = h + seed * 0x9e3779b97f4a7c15L;
      x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
      x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
      x = x ^ (x >>> 31);
    }
    long numStarts = 64 * numBlocks - 127;
    long start = ((x >>> 32) * numStarts) >>> 32;
    long lo = (x * 0xd6e8feb86659fd93L) | 1;
    long hi = (x ^ (x >>> 32)) * 0x9fb21c651e98df25L;
    long r = (x * 0xa0761d6478bd642fL) >>> 32;
    long cols = (start >>> 6) < lower ? columns - 1 : columns;
    for (int j = 0; j < cols; j++) {
      long parity = 0;
      for (int i = 0; i < 128; i++) {
        long rowBit = i < 64 ? lo >>> i : hi >>> (i - 64);
        long s = start + i;
        long segment = (s >>> 6) * columns - Math.min(s >>> 6, lower) + j;
        parity ^= rowBit & (b.getLong((int) (segment * 8)) >>> (s & 63)) & 1;
      }
      if (parity != ((r >>> j) & 1)) {
        return false;
      }
    }
    return true;
  }

  @Test
  void fromBytes_readsAChunkInsideALargerArray() {
    long[] hashes = randomHashes(777, 11);
    byte[] bytes = RibbonFilter.build(hashes, hashes.length, 9).toByteArray();
    byte[] larger = new byte[bytes.length + 100];
    Arrays.fill(larger, (byte) 0x5a);
    System.arraycopy(bytes, 0, larger, 37, bytes.length);
    RibbonFilter f = RibbonFilter.fromBytes(larger, 37, bytes.length);
    assertAllPresent(f, hashes, hashes.length);
    assertArrayEquals(bytes, f.toByteArray());
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> RibbonFilter.fromBytes(larger, larger.length - 10, 20));
  }

  @Test
  void fromByteArray_rejectsNullEmptyGarbageAndTheBlockedFormat() {
    assertThrows(NullPointerException.class, () -> RibbonFilter.fromByteArray(null));
    assertThrows(IllegalArgumentException.class, () -> RibbonFilter.fromByteArray(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> RibbonFilter.fromByteArray(new byte[64]));
    byte[] garbage = new byte[1000];
    new SplittableRandom(12).nextBytes(garbage);
    assertThrows(IllegalArgumentException.class, () -> RibbonFilter.fromByteArray(garbage));
    BlockedBloomFilter blocked = BlockedBloomFilter.create(100, 10);
    assertThrows(
        IllegalArgumentException.class, () -> RibbonFilter.fromByteArray(blocked.toByteArray()));
    byte[] ribbon = RibbonFilter.build(randomHashes(100, 13), 100, 7).toByteArray();
    assertThrows(IllegalArgumentException.class, () -> BlockedBloomFilter.fromByteArray(ribbon));
  }

  @Test
  void fromByteArray_rejectsEveryTruncationAndExtension() {
    byte[] bytes = RibbonFilter.build(randomHashes(50, 14), 50, 7).toByteArray();
    for (int length = 0; length < bytes.length; length++) {
      byte[] cut = Arrays.copyOf(bytes, length);
      assertThrows(IllegalArgumentException.class, () -> RibbonFilter.fromByteArray(cut));
      byte[] tail = Arrays.copyOfRange(bytes, bytes.length - length, bytes.length);
      assertThrows(IllegalArgumentException.class, () -> RibbonFilter.fromByteArray(tail));
    }
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 8);
    assertThrows(IllegalArgumentException.class, () -> RibbonFilter.fromByteArray(longer));
  }

  @Test
  void fromByteArray_rejectsEverySingleBitFlip() {
    byte[] bytes = RibbonFilter.build(randomHashes(40, 15), 40, 7).toByteArray();
    for (int bit = 0; bit < bytes.length * 8; bit++) {
      byte[] flipped = bytes.clone();
      flipped[bit / 8] ^= (byte) (1 << (bit % 8));
      assertThrows(IllegalArgumentException.class, () -> RibbonFilter.fromByteArray(flipped));
    }
  }

  /** Trailer fields a writer never produces, behind a valid checksum, are rejected. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "numBlocks+1", "numBlocks=1", "numBlocks=0", "lowerBlocks=numBlocks", "columns=33",
        "columns=0", "kind=2", "hashId=2", "reserved=1", "version=0", "version=2", "magic"
      })
  void fromByteArray_rejectsInconsistentFieldsWithValidCrc(String field) {
    byte[] bytes = RibbonFilter.build(randomHashes(300, 16), 300, 7).toByteArray();
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int t = bytes.length - RibbonFormat.TRAILER_BYTES;
    switch (field) {
      case "numBlocks+1" -> b.putInt(t, b.getInt(t) + 1);
      case "numBlocks=1" -> b.putInt(t, 1);
      case "numBlocks=0" -> b.putInt(t, 0);
      case "lowerBlocks=numBlocks" -> b.putInt(t + 4, b.getInt(t));
      case "columns=33" -> b.put(t + 10, (byte) 33);
      case "columns=0" -> b.put(t + 10, (byte) 0);
      case "kind=2" -> b.put(t + 11, (byte) 2);
      case "hashId=2" -> b.put(t + 12, (byte) 2);
      case "reserved=1" -> b.put(t + 13, (byte) 1);
      case "version=0" -> b.putShort(t + 14, (short) 0);
      case "version=2" -> b.putShort(t + 14, (short) 2);
      case "magic" -> b.putInt(t + 16, BloomFormat.MAGIC);
      default -> throw new AssertionError(field);
    }
    b.putInt(t + 20, Checksums.maskedCrc32c(bytes, 0, t + 20));
    assertThrows(IllegalArgumentException.class, () -> RibbonFilter.fromByteArray(bytes));
  }

  @Test
  void touch_readsTheFirstWordOfTheProbe() {
    long[] hashes = randomHashes(5000, 17);
    RibbonFilter f = RibbonFilter.build(hashes, hashes.length, 7);
    long any = 0;
    for (long h : hashes) {
      any |= f.touch(h);
    }
    assertTrue(any != 0, "touch reads solution words");
  }

  private static RibbonFilter reload(RibbonFilter f) {
    RibbonFilter back = RibbonFilter.fromByteArray(f.toByteArray());
    assertArrayEquals(f.toByteArray(), back.toByteArray());
    return back;
  }
}
