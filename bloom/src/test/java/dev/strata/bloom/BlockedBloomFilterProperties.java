package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The filter's invariants as properties (QuickTheories, shrinking on failure). Each is stated so it
 * reads the same in any property framework: "for all key lists and bits/key, ...".
 */
final class BlockedBloomFilterProperties {

  /** Keys from empty to 4 KiB, mostly short, with runs of zero bytes likely. */
  private static final Gen<byte[]> KEYS =
      Generate.byteArrays(
          integers().between(0, 24).mix(integers().between(0, 4096), 15),
          Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0)
              .mix(Generate.constant((byte) 0), 30));

  private static final Gen<Integer> WHOLE_BITS_PER_KEY = integers().between(1, 24);

  /** For all keys and bits/key 1..24: every key put, by either form, is reported by either form. */
  @Test
  void noFalseNegatives_anyKeysAnyBitsPerKey() {
    qt().withExamples(300)
        .forAll(lists().of(KEYS).ofSizeBetween(0, 40), WHOLE_BITS_PER_KEY, integers().between(0, 7))
        .checkAssert(
            (keys, bits, pad) -> {
              BlockedBloomFilter filter = BlockedBloomFilter.create(keys.size(), bits);
              for (int i = 0; i < keys.size(); i++) {
                byte[] key = keys.get(i);
                if (i % 2 == 0) {
                  filter.put(key);
                } else {
                  filter.put(padded(key, pad), pad, key.length);
                }
              }
              assertAllPresent(filter, keys, pad);
              assertAllPresent(BlockedBloomFilter.fromByteArray(filter.toByteArray()), keys, pad);
            });
  }

  /**
   * For all hash sets, bits/key in [1, 64] and under- or over-sized filters: no false negatives,
   * before and after a round trip, and the round trip is byte-exact.
   */
  @Test
  void noFalseNegatives_manyHashesAnyBitsPerKeyAnySizing() {
    qt().withExamples(200)
        .forAll(
            lists().of(longs().all()).ofSizeBetween(0, 3000),
            doubles().between(1, 64),
            integers().between(0, 4000))
        .checkAssert(
            (hashes, bits, expected) -> {
              BlockedBloomFilter filter = BlockedBloomFilter.create(expected, bits);
              hashes.forEach(filter::putHash);
              BlockedBloomFilter reloaded = BlockedBloomFilter.fromByteArray(filter.toByteArray());
              for (long h : hashes) {
                assertTrue(filter.mightContainHash(h), () -> "lost hash " + h);
                assertTrue(reloaded.mightContainHash(h), () -> "lost hash after reload " + h);
              }
              assertArrayEquals(filter.toByteArray(), reloaded.toByteArray());
              assertEquals(filter.numProbes(), reloaded.numProbes());
              assertEquals(filter.bitSize(), reloaded.bitSize());
            });
  }

  /** For all sizes and bits/key: the bit size is a multiple of 512 and within one block of n*b. */
  @Test
  void bitSize_isWholeBlocksWithinOneBlockOfRequest() {
    qt().forAll(longs().between(0, 5_000_000), doubles().between(1, 64))
        .checkAssert(
            (keys, bits) -> {
              BlockedBloomFilter filter = BlockedBloomFilter.create(keys, bits);
              assertEquals(0, filter.bitSize() % 512);
              assertTrue(filter.bitSize() >= keys * bits - 1e-6);
              assertTrue(filter.bitSize() < Math.max(keys * bits, 1) + 512);
            });
  }

  private static void assertAllPresent(BlockedBloomFilter filter, List<byte[]> keys, int pad) {
    for (byte[] key : keys) {
      assertTrue(filter.mightContain(key), () -> "lost key of " + key.length + " bytes");
      assertTrue(filter.mightContain(padded(key, pad), pad, key.length));
      assertTrue(filter.mightContainHash(KeyHash.hash64(key)));
    }
  }

  /** The key inside a larger array with garbage around it, to exercise the offset forms. */
  private static byte[] padded(byte[] key, int pad) {
    byte[] out = new byte[key.length + 2 * pad];
    java.util.Arrays.fill(out, (byte) 0x5a);
    System.arraycopy(key, 0, out, pad, key.length);
    return out;
  }
}
