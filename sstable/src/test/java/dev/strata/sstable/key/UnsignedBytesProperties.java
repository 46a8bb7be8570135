package dev.strata.sstable.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** {@link UnsignedBytes#compare} orders byte ranges as {@code Arrays.compareUnsigned} does. */
final class UnsignedBytesProperties {

  /**
   * Arrays of 0 to 40 bytes over 0, 1, 127, 128 and 255: long runs of ties (so the words and the
   * overlapping last word are exercised at every length), sign bits, and lengths on both sides of
   * each multiple of eight.
   */
  private static Gen<byte[]> arrays() {
    return Generate.byteArrays(Generate.range(0, 40),
        Generate.pick(List.of((byte) 0, (byte) 1, (byte) 127, (byte) -128, (byte) -1)));
  }

  @Test
  void compare_hasTheSignOfArraysCompareUnsigned_atAnyOffsets() {
    qt().withExamples(20_000)
        .forAll(arrays(), arrays(), Generate.range(0, 9), Generate.range(0, 9))
        .checkAssert((a, b, aSkip, bSkip) -> {
          // Mostly a prefix of a, or a with one byte changed: ranges that share long prefixes.
          byte[] other = switch (b.length % 3) {
            case 0 -> Arrays.copyOf(a, Math.min(a.length, b.length));
            case 1 -> changedAt(a, b.length);
            default -> b;
          };
          byte[] framedA = framed(a, aSkip);
          byte[] framedB = framed(other, bSkip);
          int expected = Integer.signum(Arrays.compareUnsigned(a, other));
          int actual = Integer.signum(
              UnsignedBytes.compare(framedA, aSkip, a.length, framedB, bSkip, other.length));
          assertEquals(expected, actual, Arrays.toString(a) + " vs " + Arrays.toString(other));
        });
  }

  /** A copy of {@code bytes} with the byte at {@code at} (modulo its length) changed. */
  private static byte[] changedAt(byte[] bytes, int at) {
    byte[] copy = bytes.clone();
    if (copy.length > 0) {
      copy[at % copy.length] ^= (byte) 0x81;
    }
    return copy;
  }

  /** {@code bytes} at {@code skip}, between bytes that would change the order if they were read. */
  private static byte[] framed(byte[] bytes, int skip) {
    byte[] framed = new byte[skip + bytes.length + 8];
    Arrays.fill(framed, (byte) 0x5A);
    System.arraycopy(bytes, 0, framed, skip, bytes.length);
    return framed;
  }

  @Test
  void compare_ofARangeBeyondTheArray_throws() {
    byte[] a = new byte[12];
    assertThrows(IndexOutOfBoundsException.class, () -> UnsignedBytes.compare(a, 8, 8, a, 0, 8));
    assertThrows(IndexOutOfBoundsException.class, () -> UnsignedBytes.compare(a, 10, 3, a, 0, 3));
  }
}
