package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strata.checksum.Checksums;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The persisted Ribbon filter parser against arbitrary bytes: it returns a filter or throws {@link
 * IllegalArgumentException}, never anything else; what it accepts is exactly what {@code
 * toByteArray} writes, and any accepted filter answers a query without failing. Under {@code mvn
 * verify} each target runs its checked-in inputs ({@code RibbonFormatFuzzTestInputs/}); {@code
 * JAZZER_FUZZ=1} fuzzes (see README).
 */
final class RibbonFormatFuzzTest {

  @FuzzTest
  void fromByteArray_anyBytes_filterOrIllegalArgument(byte[] bytes) {
    parseAndCheck(bytes, 0);
  }

  /**
   * A trailer built from fuzzed fields behind a correct checksum (each field either the writer's
   * value or arbitrary), so the fuzzer reaches the shape checks that a random checksum would stop.
   */
  @FuzzTest
  void fromByteArray_validChecksum_filterOrIllegalArgument(FuzzedDataProvider data) {
    int numBlocks = data.consumeBoolean() ? data.consumeInt(0, 6) : data.consumeInt();
    int lowerBlocks = data.consumeBoolean() ? data.consumeInt(0, 6) : data.consumeInt();
    short seed = data.consumeShort();
    byte columns = data.consumeBoolean() ? (byte) data.consumeInt(0, 33) : data.consumeByte();
    byte kind = data.consumeBoolean() ? (byte) RibbonFormat.KIND_STANDARD_128 : data.consumeByte();
    byte hashId = data.consumeBoolean() ? (byte) RibbonFormat.HASH_XXH3_64 : data.consumeByte();
    byte reserved = data.consumeBoolean() ? 0 : data.consumeByte();
    short version =
        data.consumeBoolean() ? (short) RibbonFormat.VERSION_CURRENT : data.consumeShort();
    int magic = data.consumeBoolean() ? RibbonFormat.MAGIC : data.consumeInt();
    long query = data.consumeLong();
    long segments = (long) numBlocks * Byte.toUnsignedInt(columns) - lowerBlocks;
    boolean honest = data.consumeBoolean() && segments >= 0 && segments <= 6 * 33;
    byte[] solution = data.consumeBytes(honest ? (int) segments * 8 : data.consumeInt(0, 8 * 6 * 33));
    ByteBuffer b =
        ByteBuffer.allocate(solution.length + RibbonFormat.TRAILER_BYTES)
            .order(ByteOrder.LITTLE_ENDIAN);
    b.put(solution).putInt(numBlocks).putInt(lowerBlocks).putShort(seed).put(columns).put(kind);
    b.put(hashId).put(reserved).putShort(version).putInt(magic);
    b.putInt(Checksums.maskedCrc32c(b.array(), 0, b.position()));
    parseAndCheck(b.array(), query);
  }

  private static void parseAndCheck(byte[] bytes, long query) {
    RibbonFilter filter;
    try {
      filter = RibbonFilter.fromByteArray(bytes);
    } catch (IllegalArgumentException expected) {
      return;
    }
    assertArrayEquals(bytes, filter.toByteArray(), "accepted bytes must be canonical");
    assertTrue(filter.bitSize() % Long.SIZE == 0);
    assertTrue(filter.expectedFpp() >= 0 && filter.expectedFpp() <= 1);
    // Any key, any accepted filter: an answer, not an exception.
    filter.mightContainHash(query);
    filter.mightContainHash(~query);
    filter.touch(query);
  }
}
