package dev.strata.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class ChecksumsTest {
  private static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);

  @Test
  void maskedCrc32c_isTheMaskOfTheStandardCheckValue() {
    // 0xe3069283 is CRC-32C's published check value for "123456789".
    assertEquals(0xe3069283, Checksums.unmask(Checksums.maskedCrc32c(CHECK, 0, CHECK.length)));
    assertEquals(
        Checksums.mask(0xe3069283), Checksums.maskedCrc32c(ByteBuffer.wrap(CHECK)));
  }

  @Test
  void mask_roundTripsAndChangesTheValue() {
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 10_000; i++) {
      int crc = r.nextInt();
      assertEquals(crc, Checksums.unmask(Checksums.mask(crc)));
      assertNotEquals(crc, Checksums.mask(crc));
    }
  }

  @Test
  void trailingByteForm_equalsCrcOfTheConcatenation() {
    byte[] withType = new byte[CHECK.length + 1];
    System.arraycopy(CHECK, 0, withType, 0, CHECK.length);
    withType[CHECK.length] = 7;
    assertEquals(
        Checksums.maskedCrc32c(withType, 0, withType.length),
        Checksums.maskedCrc32c(CHECK, 0, CHECK.length, (byte) 7));
  }

  @Test
  void bufferForm_doesNotMoveThePosition() {
    ByteBuffer b = ByteBuffer.wrap(CHECK);
    b.position(2);
    int crc = Checksums.maskedCrc32c(b);
    assertEquals(2, b.position());
    assertEquals(Checksums.maskedCrc32c(CHECK, 2, CHECK.length - 2), crc);
  }
}
