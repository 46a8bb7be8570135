package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * KeyHash is on disk: these vectors pin it to XXH3-64 (seed 0). The expected values come from the
 * reference C implementation (xxHash 0.8 via Debian's python3-xxhash), not from this code, and cover
 * every length class of XXH3 (0, 1-3, 4-8, 9-16, 17-128, 129-240, > 240 bytes).
 */
final class KeyHashTest {

  /** The test input of length n: bytes 0, 1, 2, ... (mod 251 past 250). */
  private static byte[] counting(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i % 251);
    }
    return b;
  }

  @ParameterizedTest(name = "length {0}")
  @CsvSource({
    "0, 2d06800538d394c2",
    "8, 3a1c2d7c85af88f8",
    "16, 8355e3a6f61770db",
    "17, 9ef341a99de37328",
    "32, 3523581fe96e4c05",
    "64, 6187eb9089b0ed55",
    "129, ec7642b431ba3e5a",
    "240, 375a384d957fe865",
    "241, 02e8cd95421c6d02",
    "1000, 33ef703fb2b20ed1",
  })
  void hash64_matchesReferenceXxh3(int length, String expectedHex) {
    byte[] input = counting(length);
    assertEquals(Long.parseUnsignedLong(expectedHex, 16), KeyHash.hash64(input, 0, length));
    assertEquals(Long.parseUnsignedLong(expectedHex, 16), KeyHash.hash64(input));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"a, e6c632b61e964e1f", "abc, 78af5f94892f3950", "strata, 4b61a1897bfc215f"})
  void hash64_matchesReferenceOnText(String text, String expectedHex) {
    byte[] input = text.getBytes(StandardCharsets.US_ASCII);
    assertEquals(Long.parseUnsignedLong(expectedHex, 16), KeyHash.hash64(input, 0, input.length));
  }

  @Test
  void hash64_rangeHashesOnlyTheRange() {
    byte[] padded = new byte[40];
    byte[] inner = counting(32);
    System.arraycopy(inner, 0, padded, 5, 32);
    padded[0] = 99;
    padded[39] = 99;
    assertEquals(KeyHash.hash64(inner), KeyHash.hash64(padded, 5, 32));
  }

  @Test
  void hash64_rejectsBadArguments() {
    assertThrows(NullPointerException.class, () -> KeyHash.hash64(null, 0, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> KeyHash.hash64(new byte[4], 2, 3));
    assertThrows(IndexOutOfBoundsException.class, () -> KeyHash.hash64(new byte[4], -1, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> KeyHash.hash64(new byte[4], 0, -1));
  }
}
