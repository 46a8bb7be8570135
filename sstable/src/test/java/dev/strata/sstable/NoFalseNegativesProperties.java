package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.RandomCells;
import dev.strata.sstable.testing.Seeded;
import dev.strata.sstable.testing.Tables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every key written passes its table's filter, for every filter type and chunk size: a Get of any
 * written cell is never skipped, a row read of any written row is never skipped, and under {@code
 * ROWCOL} a Get of a never-written column of a row with a row tombstone still finds the tombstone.
 */
final class NoFalseNegativesProperties {
  @TempDir Path dir;

  @Test
  void everyWrittenKey_passesTheFilter_everyTypeAndKind() {
    int[] number = {0};
    Seeded.run("no false negatives", 30, random -> {
      for (FilterType type : FilterType.values()) {
        FilterKind kind = FilterKind.values()[number[0] % FilterKind.values().length];
        List<Entry> entries = new RandomCells(random).tombstones(0.2, 0.1).maxValueBytes(8)
            .entries(500 + random.nextInt(3000));
        TableOptions options = TableRoundTripProperties.randomOptions(random).withFilterType(type).withFilterKind(kind);
        Path file = dir.resolve(SstableFormat.fileName(++number[0]));
        Tables.write(file, options, entries);
        ReadCounters counters = new ReadCounters();
        try (TableReader t = TableReader.open(file, number[0], new ClockBlockCache(8 << 20), counters)) {
          for (Entry e : entries) {
            FilterProbe probe = FilterProbe.of(e.key().row(), e.key().column());
            assertTrue(t.get(probe, InternalKey.MAX_SEQUENCE).cell() != null, "written cell not found: " + e);
            assertTrue(t.mightContainRow(probe), "row skipped: " + e);
          }
          assertEquals(0, counters.snapshot().tablesSkippedByFilter(), type + " " + kind + ": a written cell was skipped");
          byte[] odd = {(byte) 0xfe, 0x01, 0x7f};
          for (Entry e : entries) {
            if (e.key().kind() == ValueKind.DELETE_ROW) {
              GetResult other = t.get(FilterProbe.of(e.key().row(), odd), InternalKey.MAX_SEQUENCE);
              assertTrue(other.hasRowTombstone(), type + ": row tombstone skipped for " + e);
            }
          }
        }
        Files.delete(file);
      }
    });
  }
}
