package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Filters probed where a table read them, in direct memory ({@link BlockedBloomFilter#inPlace},
 * {@link RibbonFilter#offHeap}), as properties: for every filter kind and every size from 0 keys
 * up, a filter serialized, placed at an arbitrary offset of a direct buffer and read from there
 * reports every key it was built from (no false negatives), and answers and touches exactly as the
 * heap filter read from the same bytes does for random hashes; it serializes back to the same
 * bytes. A flipped bit anywhere in the placed bytes is refused.
 *
 * <p>The seed is new each run and printed; {@code -Dstrata.seed=N} replays a run.
 */
final class OffHeapFilterProperties {
  /** Random hashes each filter is compared on besides its own keys. */
  private static final int PROBES = 2_000;

  @Test
  void bloomInPlace_answersAsTheHeapFilter_everySize() {
    SplittableRandom random = random("bloomInPlace_answersAsTheHeapFilter_everySize");
    for (int count : sizes(random)) {
      long[] keys = random.longs(count).toArray();
      double bits = 1 + random.nextDouble() * 20;
      BlockedBloomFilter built = BlockedBloomFilter.create(count, bits);
      for (long k : keys) {
        built.putHash(k);
      }
      byte[] bytes = built.toByteArray();
      BlockedBloomFilter heap = BlockedBloomFilter.fromByteArray(bytes);
      BlockedBloomFilter direct = BlockedBloomFilter.inPlace(placed(bytes, random));
      String at = "count=" + count + " bits=" + bits;
      assertTrue(direct.offHeap(), at);
      assertFalse(heap.offHeap(), at);
      checkSame(at, keys, random, heap::mightContainHash, direct::mightContainHash, heap::touch, direct::touch);
      assertArrayEquals(bytes, direct.toByteArray(), at);
      assertEquals(heap.bitSize(), direct.bitSize(), at);
    }
  }

  @Test
  void ribbonOffHeap_answersAsTheHeapFilter_everySize() {
    SplittableRandom random = random("ribbonOffHeap_answersAsTheHeapFilter_everySize");
    for (int count : sizes(random)) {
      long[] keys = random.longs(count).toArray();
      // From 1 to 64 bits per key, so filters of one and two columns (the lower blocks' zero words)
      // and of many columns (the rest, an odd last column) all occur.
      double bits = 1 + random.nextDouble() * 63;
      byte[] bytes = RibbonFilter.build(keys, count, bits).toByteArray();
      RibbonFilter heap = RibbonFilter.fromByteArray(bytes);
      RibbonFilter direct = RibbonFilter.offHeap(placed(bytes, random));
      String at = "count=" + count + " bits=" + bits + " " + heap;
      assertEquals(count > 0, direct.offHeap(), at); // the filter of no keys needs no memory
      checkSame(at, keys, random, heap::mightContainHash, direct::mightContainHash, heap::touch, direct::touch);
      assertArrayEquals(bytes, direct.toByteArray(), at);
      assertEquals(heap.memoryWords(), direct.memoryWords(), at);
    }
  }

  /**
   * The off-heap filter reports every key, and answers and touches as the heap one for {@link
   * #PROBES} random hashes.
   */
  private static void checkSame(String at, long[] keys, SplittableRandom random, LongPredicate heap,
      LongPredicate direct, LongUnaryOperator heapTouch, LongUnaryOperator directTouch) {
    for (long k : keys) {
      assertTrue(direct.test(k), at + " key " + k);
    }
    for (int i = 0; i < PROBES; i++) {
      long h = random.nextLong();
      assertEquals(heap.test(h), direct.test(h), at + " hash " + h);
      assertEquals(heapTouch.applyAsLong(h), directTouch.applyAsLong(h), at + " touch " + h);
    }
  }

  /** A flipped bit anywhere in the placed bytes fails the checks before a word is trusted. */
  @Test
  void flippedBit_isRefusedOffHeap() {
    SplittableRandom random = random("flippedBit_isRefusedOffHeap");
    for (int trial = 0; trial < 200; trial++) {
      int count = 1 + random.nextInt(2_000);
      long[] keys = random.longs(count).toArray();
      boolean ribbon = random.nextBoolean();
      byte[] bytes = ribbon
          ? RibbonFilter.build(keys, count, 7).toByteArray()
          : bloomOf(keys).toByteArray();
      int bit = random.nextInt(bytes.length * 8);
      bytes[bit >>> 3] ^= (byte) (1 << (bit & 7));
      ByteBuffer placed = placed(bytes, random);
      String at = (ribbon ? "ribbon" : "bloom") + " count=" + count + " bit=" + bit;
      assertThrows(IllegalArgumentException.class,
          () -> {
            if (ribbon) {
              RibbonFilter.offHeap(placed);
            } else {
              BlockedBloomFilter.inPlace(placed);
            }
          },
          at);
    }
  }

  private static BlockedBloomFilter bloomOf(long[] keys) {
    BlockedBloomFilter f = BlockedBloomFilter.create(keys.length, 10);
    for (long k : keys) {
      f.putHash(k);
    }
    return f;
  }

  /**
   * {@code bytes} copied into a direct buffer between random other bytes, as a chunk lies in a
   * table's filter stretch; the result's position and limit bound exactly the copy.
   */
  private static ByteBuffer placed(byte[] bytes, SplittableRandom random) {
    int before = random.nextInt(3) == 0 ? 0 : random.nextInt(200);
    int after = random.nextInt(200);
    ByteBuffer b = ByteBuffer.allocateDirect(before + bytes.length + after);
    byte[] noise = new byte[before + after];
    random.nextBytes(noise);
    b.put(noise, 0, before).put(bytes).put(noise, before, after);
    return b.position(before).limit(before + bytes.length);
  }

  /** Every size from 0 to 300 keys, then a few larger ones. */
  private static int[] sizes(SplittableRandom random) {
    int[] out = new int[301 + 6];
    for (int i = 0; i <= 300; i++) {
      out[i] = i;
    }
    for (int i = 301; i < out.length; i++) {
      out[i] = 301 + random.nextInt(60_000);
    }
    return out;
  }

  private static SplittableRandom random(String test) {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("OffHeapFilterProperties." + test + " seed=" + seed);
    return new SplittableRandom(seed);
  }
}
