package dev.strata.sstable;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.Tables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TableReaderTest {
  private static final byte[] EMPTY = new byte[0];

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  private static Entry put(String row, String column, long seq, String value) {
    return new Entry(new InternalKey(b(row), b(column), seq, ValueKind.PUT), b(value));
  }

  private static Entry delete(String row, String column, long seq) {
    return new Entry(new InternalKey(b(row), b(column), seq, ValueKind.DELETE), EMPTY);
  }

  private static Entry deleteRow(String row, long seq) {
    return new Entry(new InternalKey(b(row), EMPTY, seq, ValueKind.DELETE_ROW), EMPTY);
  }

  private TableReader write(TableOptions options, ReadCounters counters, BlockCache cache, Entry... entries)
      throws IOException {
    Path file = dir.resolve(SstableFormat.fileName(1));
    Tables.write(file, options, List.of(entries));
    return TableReader.open(file, 1, cache, counters);
  }

  @Test
  void get_returnsNewestVersionAtOrBelowTheSnapshot() throws IOException {
    try (TableReader t = write(TableOptions.defaults(), new ReadCounters(), new ClockBlockCache(1 << 20),
        put("a", "c", 30, "v30"), delete("a", "c", 20), put("a", "c", 10, "v10"), put("b", "", 5, "kv"))) {
      FilterProbe ac = FilterProbe.of(b("a"), b("c"));
      assertArrayEquals(b("v30"), t.get(ac, InternalKey.MAX_SEQUENCE).value());
      assertArrayEquals(b("v30"), t.get(ac, 30).value());
      assertEquals(ValueKind.DELETE, t.get(ac, 29).cell().kind());
      assertArrayEquals(b("v10"), t.get(ac, 19).value());
      assertTrue(t.get(ac, 9).isAbsent());
      assertArrayEquals(b("kv"), t.get(FilterProbe.of(b("b"), EMPTY), 100).value());
    }
  }

  @Test
  void rowTombstone_underRowcol_isFoundForAColumnTheFilterNeverSaw() throws IOException {
    ReadCounters counters = new ReadCounters();
    try (TableReader t = write(TableOptions.defaults().withFilterType(FilterType.ROWCOL), counters,
        new ClockBlockCache(1 << 20),
        put("r", "", 50, "newer"), deleteRow("r", 40), put("r", "", 30, "older"), put("r", "x", 35, "x"),
        put("s", "y", 1, "y"))) {
      assertEquals(1, t.properties().rowTombstoneCount());
      assertEquals(0, counters.snapshot().filterChunksRead(), "the open reads no filter block");
      GetResult r = t.get(FilterProbe.of(b("r"), b("never-written")), InternalKey.MAX_SEQUENCE);
      assertNull(r.cell());
      assertEquals(40, r.rowTombstoneSequence());
      // The chunk said absent, so the Get probed the row-tombstone filter: a block of the cache.
      assertEquals(2, counters.snapshot().filterChunksRead());
      t.get(FilterProbe.of(b("r"), b("never-written-either")), InternalKey.MAX_SEQUENCE);
      assertEquals(2, counters.snapshot().filterChunksRead(), "both served by the cache now");
      // The empty column: the newest entry is the put at 50, the row tombstone at 40 is reported too.
      GetResult e = t.get(FilterProbe.of(b("r"), EMPTY), InternalKey.MAX_SEQUENCE);
      assertArrayEquals(b("newer"), e.value());
      assertEquals(40, e.rowTombstoneSequence());
      GetResult at45 = t.get(FilterProbe.of(b("r"), b("x")), 45);
      assertArrayEquals(b("x"), at45.value());
      assertEquals(40, at45.rowTombstoneSequence());
      assertEquals(GetResult.NO_ROW_TOMBSTONE, t.get(FilterProbe.of(b("r"), b("x")), 39).rowTombstoneSequence());
      // A row without a tombstone, an unwritten column: the filter skips the table.
      long skipped = counters.snapshot().tablesSkippedByFilter();
      assertTrue(t.get(FilterProbe.of(b("s"), b("zz")), InternalKey.MAX_SEQUENCE).isAbsent());
      assertEquals(skipped + 1, counters.snapshot().tablesSkippedByFilter());
    }
  }

  @Test
  void rowTombstone_underRow_isFoundForAnyColumn() throws IOException {
    try (TableReader t = write(TableOptions.defaults(), new ReadCounters(), new ClockBlockCache(0),
        deleteRow("r", 7), put("r", "a", 3, "a"))) {
      GetResult r = t.get(FilterProbe.of(b("r"), b("b")), InternalKey.MAX_SEQUENCE);
      assertEquals(7, r.rowTombstoneSequence());
      assertNull(r.cell());
    }
  }

  @Test
  void counters_areExact() throws IOException {
    ReadCounters counters = new ReadCounters();
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      entries.add(put(String.format("row%03d", i), "c", i + 1, "value" + i));
    }
    ClockBlockCache cache = new ClockBlockCache(1 << 20, 1);
    try (TableReader t = write(TableOptions.defaults(), counters, cache, entries.toArray(new Entry[0]))) {
      TableReadStats open = counters.snapshot();
      // The open pins the top level of the index and reads no partition through the cache.
      assertEquals(new TableReadStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, open.bytesReadAtOpen()), open);
      assertTrue(open.bytesReadAtOpen() > SstableFormat.FOOTER_BYTES + t.layout().pinnedIndexBytes() / 4, open.toString());
      assertTrue(t.layout().pinnedIndexBytes() > 0);
      t.get(FilterProbe.of(b("row007"), b("c")), InternalKey.MAX_SEQUENCE);
      TableReadStats one = counters.snapshot().minus(open);
      assertEquals(1, one.tablesConsulted());
      assertEquals(1, one.filterChunksRead());
      assertEquals(1, one.indexBlocksRead());
      assertEquals(0, one.indexBlockCacheHits());
      assertEquals(1, one.dataBlocksRead());
      assertEquals(0, one.filterFalsePositives());
      t.get(FilterProbe.of(b("row007"), b("c")), InternalKey.MAX_SEQUENCE);
      TableReadStats two = counters.snapshot().minus(open);
      assertEquals(new TableReadStats(2, 0, 0, 1, 1, 0, 1, 1, 1, 1, one.bytesRead(), 0), two);
      // Outside the row range: not consulted at all.
      t.get(FilterProbe.of(b("zzz"), b("c")), InternalKey.MAX_SEQUENCE);
      assertEquals(2, counters.snapshot().tablesConsulted());
      // Absent rows inside the range: skipped by the filter, or a counted false positive.
      for (int i = 0; i < 1000; i++) {
        t.get(FilterProbe.of(b(String.format("row%03d-%d", i % 99, i)), b("c")), InternalKey.MAX_SEQUENCE);
      }
      TableReadStats s = counters.snapshot().minus(open);
      assertEquals(1002, s.tablesConsulted());
      assertEquals(1000, s.tablesSkippedByFilter() + s.filterFalsePositives());
      assertTrue(s.filterFalsePositives() < 50, "fpp at 10 bits/key: " + s);
      assertEquals(s.filterChunksRead(), cache.stats().filter().misses());
      assertEquals(s.filterChunkCacheHits(), cache.stats().filter().hits());
      assertEquals(s.dataBlocksRead(), cache.stats().data().misses());
    }
  }

  @Test
  void filterNone_consultsEveryTableAndCountsNoFalsePositive() throws IOException {
    ReadCounters counters = new ReadCounters();
    try (TableReader t = write(TableOptions.defaults().withFilterType(FilterType.NONE), counters,
        new ClockBlockCache(1 << 20), put("a", "", 1, "x"), put("c", "", 2, "y"))) {
      assertTrue(t.get(FilterProbe.of(b("b"), EMPTY), InternalKey.MAX_SEQUENCE).isAbsent());
      assertTrue(t.mightContainRow(FilterProbe.of(b("b"), EMPTY)));
      TableReadStats s = counters.snapshot();
      assertEquals(1, s.tablesConsulted());
      assertEquals(0, s.tablesSkippedByFilter());
      assertEquals(0, s.filterFalsePositives());
      assertEquals(0, s.filterChunksRead());
      assertEquals(0, t.properties().filterChunkCount());
    }
  }

  @Test
  void mightContainRow_usesTheRowDomainUnderRowcol() throws IOException {
    try (TableReader t = write(TableOptions.defaults().withFilterType(FilterType.ROWCOL), new ReadCounters(),
        new ClockBlockCache(1 << 20), put("a", "x", 1, "1"), put("m", "y", 2, "2"), put("z", "", 3, "3"))) {
      assertTrue(t.mightContainRow(FilterProbe.of(b("m"), EMPTY)));
      assertFalse(t.mightContainRow(FilterProbe.of(b("0"), EMPTY)), "outside the range");
      int skipped = 0;
      for (int i = 0; i < 100; i++) {
        skipped += t.mightContainRow(FilterProbe.of(b("n" + i), EMPTY)) ? 0 : 1;
      }
      assertTrue(skipped > 90, "row-domain filter skips absent rows: " + skipped);
    }
  }

  @Test
  void iterator_seekAndScanAcrossBlocks() throws IOException {
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      entries.add(put("row" + (1000 + i), "c", i + 1, "v".repeat(i % 50)));
    }
    try (TableReader t = write(TableOptions.defaults().withBlockSizeBytes(128), new ReadCounters(),
        new ClockBlockCache(1 << 20), entries.toArray(new Entry[0]));
        TableIterator it = t.iterator()) {
      assertTrue(t.properties().dataBlockCount() > 50);
      assertFalse(it.isValid());
      it.seek(new InternalKey(b("row1250"), EMPTY, InternalKey.MAX_SEQUENCE, ValueKind.PUT));
      for (int i = 250; i < 500; i++, it.next()) {
        assertEquals(entries.get(i).key(), it.key());
      }
      assertFalse(it.isValid());
      assertThrows(IllegalStateException.class, it::key);
      it.seek(new InternalKey(b("row9"), EMPTY, 0, ValueKind.PUT));
      assertFalse(it.isValid());
      it.seekToFirst();
      assertSame(it.key(), it.key());
      assertEquals(entries.get(0).key(), it.key());
    }
  }

  @Test
  void closedReader_andIterator_rejectUse() throws IOException {
    TableReader t = write(TableOptions.defaults(), new ReadCounters(), new ClockBlockCache(0), put("a", "", 1, "x"));
    TableIterator it = t.iterator();
    it.close();
    it.close();
    assertThrows(IllegalStateException.class, it::seekToFirst);
    t.close();
    t.close();
    assertThrows(IllegalStateException.class, () -> t.get(FilterProbe.of(b("a"), EMPTY), 1));
    assertThrows(IllegalStateException.class, t::iterator);
  }

  @Test
  void get_rejectsBadSnapshot() throws IOException {
    try (TableReader t = write(TableOptions.defaults(), new ReadCounters(), new ClockBlockCache(0), put("a", "", 1, "x"))) {
      assertThrows(IllegalArgumentException.class, () -> t.get(FilterProbe.of(b("a"), EMPTY), -1));
      assertThrows(IllegalArgumentException.class,
          () -> t.get(FilterProbe.of(b("a"), EMPTY), InternalKey.MAX_SEQUENCE + 1));
    }
  }
}
