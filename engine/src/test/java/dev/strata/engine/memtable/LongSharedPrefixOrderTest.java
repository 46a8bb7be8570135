package dev.strata.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.GetResult;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.UnsignedBytes;
import dev.strata.sstable.key.ValueKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Rows that share long prefixes, where the skip list's fifteen-byte node prefix ({@link
 * RowPrefix}) ties or is decided by its second word: every row of 1 to 20 bytes of 0x01 with one
 * byte replaced by 0x00, 0x02 or 0xFF, and the runs of 0x01 themselves (rows shorter than the
 * prefix, rows differing only at byte 7, 8, 14, 15 or 16, rows that are another plus a byte), and
 * a Kafka store's rows ({@code 0x01 key-%08d}). The memtable must iterate them in row order, find
 * each by Get and by seek, whether they were inserted shuffled or as one sorted run.
 */
final class LongSharedPrefixOrderTest {
  private static final int LONGEST = RowPrefix.BYTES + 5;

  private static List<byte[]> rowsSharingPrefixes() {
    List<byte[]> rows = new ArrayList<>();
    for (int length = 1; length <= LONGEST; length++) {
      byte[] run = new byte[length];
      java.util.Arrays.fill(run, (byte) 0x01);
      rows.add(run);
      for (int at = 0; at < length; at++) {
        for (byte b : new byte[] {0x00, 0x02, (byte) 0xFF}) {
          byte[] row = run.clone();
          row[at] = b;
          rows.add(row);
        }
      }
    }
    return rows;
  }

  private static List<byte[]> kafkaRows() {
    List<byte[]> rows = new ArrayList<>();
    for (int k : new int[] {0, 1, 9, 10, 99, 100, 12_345, 99_999, 100_000, 3_999_999, 4_000_000,
        12_345_678, 99_999_999}) {
      byte[] key = String.format("key-%08d", k).getBytes(StandardCharsets.US_ASCII);
      byte[] row = new byte[key.length + 1];
      row[0] = 0x01;
      System.arraycopy(key, 0, row, 1, key.length);
      rows.add(row);
    }
    return rows;
  }

  @Test
  void rowsSharingLongPrefixes_iterateAndAreFoundInRowOrder_shuffled() {
    check(rowsSharingPrefixes(), false);
    check(kafkaRows(), false);
  }

  @Test
  void rowsSharingLongPrefixes_iterateAndAreFoundInRowOrder_insertedAsOneSortedRun() {
    check(rowsSharingPrefixes(), true);
    check(kafkaRows(), true);
  }

  private static void check(List<byte[]> rows, boolean sortedRun) {
    List<byte[]> expected = new ArrayList<>(rows);
    expected.sort(UnsignedBytes::compare);
    for (int i = 1; i < expected.size(); i++) {
      assertTrue(UnsignedBytes.compare(expected.get(i - 1), expected.get(i)) < 0, "distinct");
    }
    List<byte[]> order = new ArrayList<>(sortedRun ? expected : rows);
    if (!sortedRun) {
      Collections.shuffle(order, new Random(31));
    }
    MemTable mem = new MemTable();
    long seq = 1;
    for (byte[] row : order) {
      mem.add(ValueKind.PUT, row, new byte[0], seq++, row);
    }
    HexFormat hex = HexFormat.of();
    try (MemTableIterator it = mem.iterator()) {
      it.seekToFirst();
      for (byte[] row : expected) {
        assertTrue(it.isValid(), hex.formatHex(row));
        assertArrayEquals(row, it.key().row(), hex.formatHex(row));
        it.next();
      }
      assertFalse(it.isValid());
      for (byte[] row : expected) {
        it.seek(new InternalKey(row, new byte[0], InternalKey.MAX_SEQUENCE, ValueKind.PUT));
        assertTrue(it.isValid(), hex.formatHex(row));
        assertArrayEquals(row, it.key().row(), "seek " + hex.formatHex(row));
        it.seekForPrev(new InternalKey(row, new byte[0], 0, ValueKind.PUT));
        assertTrue(it.isValid(), hex.formatHex(row));
        assertArrayEquals(row, it.key().row(), "seekForPrev " + hex.formatHex(row));
      }
    }
    for (byte[] row : expected) {
      GetResult hit = mem.get(row, new byte[0], InternalKey.MAX_SEQUENCE);
      assertArrayEquals(row, hit.value(), "get " + hex.formatHex(row));
      byte[] longer = java.util.Arrays.copyOf(row, row.length + 1); // plus a zero: never added
      boolean added = expected.stream().anyMatch(r -> UnsignedBytes.compare(r, longer) == 0);
      assertEquals(added, mem.get(longer, new byte[0], InternalKey.MAX_SEQUENCE).value() != null,
          "get " + hex.formatHex(longer));
    }
    mem.release();
  }
}
