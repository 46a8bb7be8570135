package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strata.checksum.Checksums;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The persisted filter parser against arbitrary bytes: it returns a filter or throws {@link
 * IllegalArgumentException}, never anything else, and what it accepts is exactly what {@code
 * toByteArray} writes. Under {@code mvn verify} each target runs its checked-in inputs ({@code
 * BloomFormatFuzzTestInputs/}); {@code JAZZER_FUZZ=1} fuzzes (see README).
 */
final class BloomFormatFuzzTest {

  @FuzzTest
  void fromByteArray_anyBytes_filterOrIllegalArgument(byte[] bytes) {
    parseAndCheck(bytes);
  }

  /**
   * A trailer built from fuzzed fields behind a correct checksum, so the fuzzer reaches the field
   * checks that a random checksum would stop.
   */
  @FuzzTest
  void fromByteArray_validChecksum_filterOrIllegalArgument(FuzzedDataProvider data) {
    int blocks = data.consumeInt(0, 4);
    boolean honestCount = data.consumeBoolean();
    int numBlocksField = honestCount ? blocks : data.consumeInt();
    byte numProbes = data.consumeByte();
    byte hashId = data.consumeBoolean() ? (byte) BloomFormat.HASH_XXH3_64 : data.consumeByte();
    short version = data.consumeBoolean() ? (short) BloomFormat.VERSION_CURRENT : data.consumeShort();
    int magic = data.consumeBoolean() ? BloomFormat.MAGIC : data.consumeInt();
    byte[] bits = data.consumeBytes(blocks * BloomFormat.BLOCK_BYTES);
    ByteBuffer b =
        ByteBuffer.allocate(bits.length + BloomFormat.TRAILER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.put(bits).putInt(numBlocksField).put(numProbes).put(hashId).putShort(version).putInt(magic);
    b.putInt(Checksums.maskedCrc32c(b.array(), 0, b.position()));
    parseAndCheck(b.array());
  }

  private static void parseAndCheck(byte[] bytes) {
    BlockedBloomFilter filter;
    try {
      filter = BlockedBloomFilter.fromByteArray(bytes);
    } catch (IllegalArgumentException expected) {
      return;
    }
    assertArrayEquals(bytes, filter.toByteArray(), "accepted bytes must be canonical");
    assertTrue(filter.bitSize() % BloomFormat.BLOCK_BITS == 0);
    filter.mightContain(bytes); // any key, any accepted filter: an answer, not an exception
  }
}
