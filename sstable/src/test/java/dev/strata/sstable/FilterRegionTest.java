package dev.strata.sstable;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.Seeded;
import dev.strata.sstable.testing.TableModel;
import dev.strata.sstable.testing.Tables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From format version 6 a table's filter chunks are one stretch of the file after its last data
 * block, in filter-index order, with nothing between them but alignment padding; the chunks of a
 * version-5 table lie between its data blocks, which the same check tells apart.
 */
final class FilterRegionTest {
  @TempDir Path dir;

  @Test
  void chunks_followTheLastDataBlock_oneAfterAnother() {
    Seeded.run("filter region", 12, random -> {
      FilterType type = random.nextBoolean() ? FilterType.ROW : FilterType.ROWCOL;
      FilterKind kind = random.nextInt(3) == 0 ? FilterKind.RIBBON : FilterKind.BLOOM;
      TableOptions options = new TableOptions(64 << random.nextInt(5), type, 4 + random.nextInt(12),
          64 << random.nextInt(4), random.nextBoolean() ? BlockCompression.LZ4 : BlockCompression.NONE,
          random.nextInt(3), kind);
      List<Entry> entries = entries(random, 1 + random.nextInt(3000));
      Path file = Files.createTempFile(dir, "t", ".sst");
      Files.delete(file);
      TableMetadata meta = Tables.write(file, options, entries);
      assertEquals(SstableFormat.VERSION_CURRENT, meta.properties().formatVersion());
      assertTrue(isOneStretchAfterTheData(TableRegions.of(file)), "chunks not one stretch after the data");
      // And the table reads back as written, through the chunks at their new place.
      TableModel model = new TableModel(entries);
      try (TableReader t = TableReader.open(file, 1, new ClockBlockCache(1 << 20))) {
        t.verifyChecksums();
        for (Entry e : entries) {
          TableRoundTripProperties.checkGet(model, t, e.key().row(), e.key().column(), InternalKey.MAX_SEQUENCE);
        }
      }
    });
  }

  /**
   * An open that pins the metadata loads a format-6 table's filter chunks with one read: the open
   * of a table of many chunks and few index partitions takes a handful of reads in all, where one
   * read per chunk took more than the table has chunks.
   */
  @Test
  void pinningOpen_readsTheChunksAtOnce() throws Exception {
    // A filter of about 50 KiB in 1 KiB chunks: larger than the tail the open reads first.
    TableOptions options = new TableOptions(4096, FilterType.ROW, 10, 1024, BlockCompression.LZ4);
    List<Entry> entries = entries(new java.util.Random(5), 40_000);
    Path file = dir.resolve("000001.sst");
    Tables.write(file, options, entries);
    ClockBlockCache cache = new ClockBlockCache(4 << 20);
    try (TableReader t = TableReader.open(file, 1, cache, new ReadCounters(), true, TableReadOptions.defaults())) {
      long chunks = t.properties().filterChunkCount();
      assertTrue(chunks >= 40, chunks + " chunks");
      assertTrue(t.fileReads() <= 8, t.fileReads() + " reads for " + chunks + " chunks");
      assertTrue(t.pinnedBlocks() > chunks, t.pinnedBlocks() + " pinned");
      TableModel model = new TableModel(entries);
      long before = t.fileReads();
      for (int i = 0; i < entries.size(); i += 37) {
        Entry e = entries.get(i);
        TableRoundTripProperties.checkGet(model, t, e.key().row(), e.key().column(), InternalKey.MAX_SEQUENCE);
        TableRoundTripProperties.checkGet(model, t, e.key().row(), "absent".getBytes(UTF_8), InternalKey.MAX_SEQUENCE);
      }
      assertTrue(t.fileReads() - before > 0, "the Gets read data blocks");
    }
  }

  @Test
  void goldenTables_ofVersion6HaveTheRegion_andOfVersion5DoNot() throws Exception {
    for (GoldenFiles.Golden g : GoldenFiles.goldens(SstableFormat.VERSION_FILTER_REGION)) {
      if (g.options().filterType() != FilterType.NONE) {
        assertTrue(isOneStretchAfterTheData(TableRegions.of(GoldenTableTest.golden(6, g.fileName()))), g.fileName());
      }
    }
    // Version 5 wrote each chunk as it filled: its many-rows table has chunks between data blocks.
    assertFalse(isOneStretchAfterTheData(TableRegions.of(GoldenTableTest.golden(5, "000007.sst"))));
  }

  /**
   * Whether the filter chunks, in filter-index order, start after every data block and follow one
   * another with at most the alignment padding between them.
   */
  static boolean isOneStretchAfterTheData(TableRegions regions) {
    long dataEnd = 0;
    List<TableRegions.Region> chunks = new ArrayList<>();
    for (TableRegions.Region r : regions.regions()) {
      if (r.type() == BlockType.DATA) {
        dataEnd = Math.max(dataEnd, r.end());
      } else if (r.type() == BlockType.FILTER_CHUNK) {
        chunks.add(r); // in filter-index order
      }
    }
    long previousEnd = -1;
    for (TableRegions.Region c : chunks) {
      if (c.offset() < dataEnd) {
        return false;
      }
      if (previousEnd >= 0
          && (c.offset() < previousEnd || c.offset() - previousEnd >= SstableFormat.FILTER_ALIGNMENT)) {
        return false;
      }
      previousEnd = c.end();
    }
    return true;
  }

  private static List<Entry> entries(java.util.Random random, int rows) {
    TreeSet<String> names = new TreeSet<>();
    while (names.size() < rows) {
      names.add("row" + random.nextInt(1_000_000));
    }
    List<Entry> out = new ArrayList<>();
    long sequence = 1;
    for (String row : names) {
      int columns = 1 + random.nextInt(3);
      for (int c = 0; c < columns; c++) {
        byte[] value = new byte[random.nextInt(40)];
        random.nextBytes(value);
        out.add(new Entry(new InternalKey(row.getBytes(UTF_8), ("c" + c).getBytes(UTF_8), sequence++,
            ValueKind.PUT), value));
      }
    }
    out.sort((x, y) -> InternalKey.compare(x.key(), y.key()));
    return out;
  }
}
