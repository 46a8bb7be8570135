package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.testing.CorruptFiles;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.RandomCells;
import dev.strata.sstable.testing.TableModel;
import dev.strata.sstable.testing.Tables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open reads a table's end in one read of a guessed size ({@link TableOpener#TAIL_GUESS_BYTES})
 * and one more when the blocks it keeps begin before that: with guesses from the footer alone to
 * more than the file, the table opens and reads as it was written, and damage in the part of its
 * tail the second read brings still fails the open, naming the file.
 */
final class TableTailTest {
  @TempDir Path dir;

  private Path table;
  private List<Entry> entries;
  private TableModel model;
  private TableRegions regions;

  @BeforeEach
  void writeTableWithALargeTail() throws IOException {
    entries = new RandomCells(new Random(11)).maxValueBytes(4).entries(60_000);
    model = new TableModel(entries);
    table = dir.resolve("000001.sst");
    // 64-byte filter chunks: many, so the filter index is larger than the small guesses
    Tables.write(table, new TableOptions(4096, FilterType.ROW, 10, 64, BlockCompression.LZ4), entries);
    regions = TableRegions.of(table);
  }

  @Test
  void everyGuess_opensAndReadsAsWritten() throws Exception {
    long tail = regions.fileSize() - region("filter index").offset();
    for (int guess : new int[] {64, 100, (int) tail - 1, (int) tail, TableOpener.TAIL_GUESS_BYTES,
        (int) regions.fileSize() + 1}) {
      checkReads(guess);
    }
  }

  private void checkReads(int guess) throws Exception {
    try (TableReader reader = TableOpener.open(table, 1, new ClockBlockCache(1 << 22), new ReadCounters(),
        MetadataPins.NONE, TableReadOptions.defaults(), guess)) {
      try (TableIterator it = reader.iterator()) {
        int i = 0;
        for (it.seekToFirst(); it.isValid(); it.next(), i++) {
          assertEquals(entries.get(i).key(), it.key());
          assertArrayEquals(entries.get(i).value(), it.value());
        }
        assertEquals(entries.size(), i);
      }
      for (int i = 0; i < entries.size(); i += 97) {
        Entry e = entries.get(i);
        TableRoundTripProperties.checkGet(model, reader, e.key().row(), e.key().column(), InternalKey.MAX_SEQUENCE);
        TableRoundTripProperties.checkGet(model, reader, e.key().row(), new byte[] {9, 9, 9}, InternalKey.MAX_SEQUENCE);
      }
    }
  }

  @Test
  void damageBeforeTheGuess_inTheFilterIndex_failsTheOpen() throws IOException {
    TableRegions.Region filterIndex = region("filter index");
    Path copy = CorruptFiles.copy(table, dir.resolve("000002.sst"));
    CorruptFiles.flipBit(copy, filterIndex.offset() + 3, 2);
    CorruptTableException e = assertThrows(CorruptTableException.class,
        () -> TableOpener.open(copy, 2, new ClockBlockCache(1 << 22), new ReadCounters(), MetadataPins.NONE,
            TableReadOptions.defaults(), 128).close());
    assertTrue(e.getMessage().contains(copy.toString()), e.getMessage());
  }

  private TableRegions.Region region(String name) {
    return regions.regions().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }
}
