package dev.strata.sstable.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.filter.FilterKeys;
import dev.strata.sstable.filter.FilterProbe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

final class SstableFormatTest {
  @Test
  void fileName_isSixDigitsAndExtension() {
    assertEquals("000012.sst", SstableFormat.fileName(12));
    assertEquals("1234567.sst", SstableFormat.fileName(1_234_567));
    assertEquals("000000.sst", SstableFormat.fileName(0));
    assertEquals("999999.sst", SstableFormat.fileName(999_999));
    assertEquals(String.format("%06d", Long.MAX_VALUE), SstableFormat.fileNumberDigits(Long.MAX_VALUE));
    assertEquals(Path.of("d", "000003.sst"), SstableFormat.tablePath(Path.of("d"), 3));
    assertThrows(IllegalArgumentException.class, () -> SstableFormat.fileName(-1));
  }

  @Test
  void parseFileNumber_roundTripsAndRejectsOthers() {
    assertEquals(12, SstableFormat.parseFileNumber("000012.sst"));
    assertEquals(-1, SstableFormat.parseFileNumber("12.sst"));
    assertEquals(-1, SstableFormat.parseFileNumber("000012.log"));
    assertEquals(-1, SstableFormat.parseFileNumber("00001a.sst"));
  }

  @Test
  void footer_isSixtyFourBytes_magicLast() {
    assertEquals(64, SstableFormat.FOOTER_BYTES);
    assertEquals(SstableFormat.FOOTER_BYTES, SstableFormat.FOOTER_MAGIC_OFFSET + SstableFormat.MAGIC_BYTES);
    byte[] footer = new byte[SstableFormat.FOOTER_BYTES];
    SstableFormat.putMagic(footer, SstableFormat.FOOTER_MAGIC_OFFSET);
    assertEquals("STRATSST", new String(footer, SstableFormat.FOOTER_MAGIC_OFFSET, SstableFormat.MAGIC_BYTES, StandardCharsets.US_ASCII));
    assertTrue(SstableFormat.hasMagic(footer, SstableFormat.FOOTER_MAGIC_OFFSET));
    footer[SstableFormat.FOOTER_BYTES - 1] ^= 1;
    assertFalse(SstableFormat.hasMagic(footer, SstableFormat.FOOTER_MAGIC_OFFSET));
  }

  @Test
  void filterKeys_areCanonical_rowLengthFirst_domainsApart() {
    byte[] ab = "ab".getBytes(StandardCharsets.US_ASCII);
    byte[] a = "a".getBytes(StandardCharsets.US_ASCII);
    byte[] c = "c".getBytes(StandardCharsets.US_ASCII);
    byte[] bc = "bc".getBytes(StandardCharsets.US_ASCII);
    assertNotEquals(FilterKeys.cellHash(ab, c), FilterKeys.cellHash(a, bc));
    assertNotEquals(FilterKeys.rowHash(ab), FilterKeys.cellHash(ab, new byte[0]));
    assertEquals(FilterKeys.cellHash(a, bc), FilterProbe.of(a, bc).cellHash());
    assertEquals(FilterKeys.rowHash(a), FilterProbe.of(a, bc).rowHash());
    assertThrows(IllegalArgumentException.class,
        () -> FilterProbe.of(new byte[SstableFormat.MAX_ROW_LENGTH + 1], new byte[0]));
  }

  @Test
  void varint31_rejectsOverlongAndTruncated() {
    byte[] b = new byte[8];
    int end = Bytes.putVarint32(b, 0, Integer.MAX_VALUE);
    assertEquals(5, end);
    long v = Bytes.getVarint31(b, 0, end);
    assertEquals(Integer.MAX_VALUE, (int) v);
    assertEquals(5, (int) (v >>> 32));
    assertEquals(-1, Bytes.getVarint31(b, 0, 4));
    byte[] tooBig = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f};
    assertEquals(-1, Bytes.getVarint31(tooBig, 0, 5));
    byte[] endless = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0};
    assertEquals(-1, Bytes.getVarint31(endless, 0, 6));
  }
}
