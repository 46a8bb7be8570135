package dev.strata.sstable.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** {@link RowPrefix} orders rows as their bytes do, wherever the prefixes differ. */
final class RowPrefixProperties {

  /** Rows of 0 to 12 bytes over 0, 1 and 255, so that ties, pads and sign bits are common. */
  private static Gen<byte[]> rows() {
    return Generate.byteArrays(Generate.range(0, 12), Generate.pick(java.util.List.of((byte) 0, (byte) 1, (byte) -1)));
  }

  @Test
  void differingPrefixes_orderRowsAsTheirBytes_equalPrefixesOnlyForEqualFirstBytes() {
    qt().withExamples(2000).forAll(rows(), rows()).checkAssert((a, b) -> {
      int bytes = Integer.signum(Arrays.compareUnsigned(a, b));
      int prefixes = Integer.signum(Long.compareUnsigned(RowPrefix.of(a), RowPrefix.of(b)));
      assertTrue(prefixes == 0 || prefixes == bytes, "prefixes " + prefixes + ", bytes " + bytes);
      byte[] a8 = Arrays.copyOf(a, 8);
      byte[] b8 = Arrays.copyOf(b, 8);
      assertEquals(Arrays.equals(a8, b8), prefixes == 0, "a tie exactly when the padded first 8 bytes agree");
    });
  }

  @Test
  void prefixOfASlice_isThePrefixOfTheCopy() {
    qt().withExamples(500).forAll(rows(), Generate.range(0, 4)).checkAssert((row, skip) -> {
      byte[] framed = new byte[skip + row.length + 3];
      System.arraycopy(row, 0, framed, skip, row.length);
      assertEquals(RowPrefix.of(row), RowPrefix.of(framed, skip, row.length));
    });
  }
}
