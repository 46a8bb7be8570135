package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.block.PointSearch;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.Seeded;
import dev.strata.sstable.testing.TableModel;
import dev.strata.sstable.testing.Tables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-place search of {@link TableReader#get} ({@link PointSearch}) against {@link TableModel}, on
 * the keys where comparing stored bytes without decoding them can go wrong: rows and columns that are
 * prefixes of each other (and a column that continues where a row stops), a cell's many versions
 * running across restart points and data blocks (blocks of 64 bytes hold a few entries), sequences
 * that share their low or their high trailer bytes (the trailer then lies partly in the shared prefix
 * of the previous key), deletes and row tombstones, under every filter type. Every cell of the
 * universe, present or not, is read at every snapshot that matters.
 */
final class PointSearchTest {
  private static final String[] ROWS = {"a", "ab", "abc", "b", "b\0", "bc"};
  private static final String[] COLUMNS = {"", "c", "cd", "d", "\u00ff"};
  /** Cells never written: rows and columns between and beyond the written ones. */
  private static final String[] ABSENT_ROWS = {"aa", "abcd", "abd", "c", "\0"};
  private static final String[] ABSENT_COLUMNS = {"bcd", "ce", "e"};
  private static final int[] BLOCK_SIZES = {64, 128, 4096};

  @TempDir Path dir;

  @Test
  void get_matchesModel_atPrefixesRestartsAndBlockBoundaries() {
    int[] fileNumber = {0};
    Seeded.run("point search", 6, random -> {
      List<Entry> entries = entries(random);
      TableModel model = new TableModel(entries);
      TreeSet<Long> snapshots = new TreeSet<>(List.of(0L, InternalKey.MAX_SEQUENCE));
      for (Entry e : entries) {
        long s = e.key().sequence();
        snapshots.add(s);
        snapshots.add(s + 1);
        snapshots.add(Math.max(0, s - 1));
      }
      for (FilterType filter : FilterType.values()) {
        int blockSize = BLOCK_SIZES[random.nextInt(BLOCK_SIZES.length)];
        long number = ++fileNumber[0];
        Path file = dir.resolve(SstableFormat.fileName(number));
        Tables.write(file, new TableOptions(blockSize, filter, 10, 128, BlockCompression.NONE), entries);
        try (TableReader reader = TableReader.open(file, number, new ClockBlockCache(1 << 20, 1))) {
          for (String row : concat(ROWS, ABSENT_ROWS)) {
            for (String column : concat(COLUMNS, ABSENT_COLUMNS)) {
              for (long snapshot : snapshots) {
                TableRoundTripProperties.checkGet(model, reader, bytes(row), bytes(column), snapshot);
              }
            }
          }
        }
        Files.delete(file);
      }
    });
  }

  /**
   * A key the index sends to a block but that block does not hold is absent without reading the next
   * block: the index key S of a block ending at L and followed by one starting at N has {@code L <= S
   * < N}, so a target in (L, S] has no entry in N, and a target below L meets a larger key in its own
   * block. Before, a target in the block's last restart interval scanned to the block's end and read
   * the next block too: with a filter false positive, two data blocks for a key the table lacks.
   */
  @Test
  void get_absentKey_readsOneDataBlock() throws Exception {
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < 2000; i += 2) {
      entries.add(new Entry(new InternalKey(bytes(String.format("key%05d", i)), bytes(""), 1 + i,
          ValueKind.PUT), bytes("value-" + i)));
    }
    Path file = dir.resolve(SstableFormat.fileName(1));
    Tables.write(file, new TableOptions(256, FilterType.NONE, 10, 128, BlockCompression.NONE), entries);
    ReadCounters counters = new ReadCounters();
    try (TableReader reader = TableReader.open(file, 1, new ClockBlockCache(1 << 20, 1), counters)) {
      for (int i = 1; i < 1998; i += 2) {
        TableReadStats before = counters.snapshot();
        GetResult r = reader.get(FilterProbe.of(bytes(String.format("key%05d", i)), bytes("")),
            InternalKey.MAX_SEQUENCE);
        TableReadStats d = counters.snapshot().minus(before);
        assertNull(r.cell(), "key " + i);
        assertEquals(1, d.dataBlocksRead() + d.dataBlockCacheHits(),
            "data blocks touched for absent key " + i);
      }
    }
  }

  /**
   * Each cell of ROWS x COLUMNS gets 0 to 40 versions (a run of 40 spans restart points and blocks),
   * puts and deletes, and row tombstones under the empty column; sequences are drawn so that
   * neighbours often share low bytes (consecutive numbers), or only high ones (multiples of 2^16 and
   * 2^40 apart).
   */
  private static List<Entry> entries(Random random) {
    TreeSet<Long> used = new TreeSet<>();
    List<Entry> out = new ArrayList<>();
    for (String row : ROWS) {
      for (String column : COLUMNS) {
        int versions = random.nextInt(4) == 0 ? 0 : random.nextInt(random.nextBoolean() ? 5 : 41);
        long base = 1 + random.nextInt(1000);
        long step = new long[] {1, 3, 1L << 16, 1L << 40}[random.nextInt(4)];
        for (int v = 0; v < versions; v++) {
          long sequence = base + v * step;
          while (!used.add(sequence)) {
            sequence++;
          }
          ValueKind kind = switch (random.nextInt(column.isEmpty() ? 3 : 2)) {
            case 0 -> ValueKind.PUT;
            case 1 -> ValueKind.DELETE;
            default -> ValueKind.DELETE_ROW;
          };
          byte[] value = kind == ValueKind.PUT ? new byte[random.nextInt(30)] : new byte[0];
          random.nextBytes(value);
          out.add(new Entry(new InternalKey(bytes(row), bytes(column), sequence, kind), value));
        }
      }
    }
    if (out.isEmpty()) {
      out.add(new Entry(new InternalKey(bytes("a"), bytes("c"), 7, ValueKind.PUT), new byte[] {1}));
    }
    out.sort((a, b) -> InternalKey.compare(a.key(), b.key()));
    return out;
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }
}
