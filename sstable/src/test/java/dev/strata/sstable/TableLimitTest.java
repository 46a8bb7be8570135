package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing the writer produces is something the reader rejects: a batch of 16,382
 * puts of 32 KiB rows and 32 KiB columns built a 1 GiB index that no open accepted. Here the same
 * batch, scaled down against a 4 KiB block limit instead of 1 GiB, through the writer's own guard.
 * Since format version 3 the index has two levels and the limit binds the top level, the block an
 * open reads whole; partitions stay near the block size.
 */
final class TableLimitTest {
  @TempDir Path dir;

  private static final int LIMIT = 4 << 10;

  private static InternalKey key(int i, int rowBytes, int columnBytes) {
    byte[] row = new byte[rowBytes];
    byte[] column = new byte[columnBytes];
    Arrays.fill(row, (byte) 'r');
    Arrays.fill(column, (byte) 'c');
    byte[] id = String.format("%06d", i).getBytes();
    System.arraycopy(id, 0, row, 0, id.length); // distinct rows, in order
    return new InternalKey(row, column, i + 1, ValueKind.PUT);
  }

  @Test
  void aBatchLargerThanOneTableHolds_becomesTablesThatAllOpen() throws IOException {
    TableOptions options = TableOptions.defaults().withBlockSizeBytes(64);
    List<Path> tables = new ArrayList<>();
    List<List<InternalKey>> keys = new ArrayList<>();
    TableWriter w = null;
    for (int i = 0; i < 1500; i++) {
      InternalKey k = key(i, 400, 400); // under LARGE_KEY_BYTES: one index entry per entry
      if (w != null && !w.hasRoomFor(k)) {
        w.finish();
        w = null;
      }
      if (w == null) {
        Path file = dir.resolve(tables.size() + ".sst");
        tables.add(file);
        keys.add(new ArrayList<>());
        w = TableWriter.create(file, options, LIMIT);
      }
      w.add(k, new byte[] {(byte) i});
      keys.get(keys.size() - 1).add(k);
    }
    w.finish();
    assertTrue(tables.size() > 1, "the batch needed more than one table: " + tables.size());
    for (int t = 0; t < tables.size(); t++) {
      try (TableReader r = TableReader.open(tables.get(t), t, new ClockBlockCache(0, 1))) {
        for (TableRegions.Region region : TableRegions.of(tables.get(t)).regions()) {
          if (region.type() != null && region.type().isIndex()) {
            assertTrue(region.length() <= LIMIT, region.toString());
          }
        }
        for (InternalKey k : keys.get(t)) {
          GetResult g = r.get(FilterProbe.of(k.row(), k.column()), InternalKey.MAX_SEQUENCE);
          assertEquals(k.sequence(), g.cell().sequence());
        }
      }
    }
  }

  @Test
  void add_beyondTheLimit_isRefusedAndTheTableStillOpens() throws IOException {
    Path file = dir.resolve("full.sst");
    TableWriter w = TableWriter.create(file, TableOptions.defaults().withBlockSizeBytes(64), LIMIT);
    int i = 0;
    while (w.hasRoomFor(key(i, 400, 400))) {
      w.add(key(i, 400, 400), new byte[1]);
      i++;
    }
    int written = i;
    assertThrows(IllegalStateException.class, () -> w.add(key(written, 400, 400), new byte[1]));
    w.finish();
    try (TableReader r = TableReader.open(file, 1, new ClockBlockCache(0, 1))) {
      assertEquals(written, r.properties().entryCount());
    }
  }

  @Test
  void largeKeys_growTheirBlocks_soTheIndexStaysASmallPartOfTheData() throws IOException {
    Path file = dir.resolve("wide.sst");
    // One wide row: 200 cells of a 32 KiB row and a 32 KiB column, with the smallest block target.
    byte[] row = new byte[32767];
    TableOptions options =
        TableOptions.defaults().withBlockSizeBytes(64).withCompression(BlockCompression.NONE);
    try (TableWriter w = TableWriter.create(file, options)) {
      for (int i = 0; i < 200; i++) {
        byte[] column = new byte[32767];
        column[0] = (byte) (i >> 8);
        column[1] = (byte) i;
        w.add(new InternalKey(row, column, 1, ValueKind.PUT), new byte[] {(byte) i});
      }
      w.finish();
    }
    try (TableReader r = TableReader.open(file, 1, new ClockBlockCache(0, 1))) {
      TableProperties p = r.properties();
      assertTrue(
          p.indexBytes() * SstableFormat.DATA_BYTES_PER_INDEX_BYTE / 2 <= p.dataBytes(),
          "index " + p.indexBytes() + " of data " + p.dataBytes());
      byte[] column = new byte[32767];
      column[1] = (byte) 77;
      GetResult g = r.get(FilterProbe.of(row, column), InternalKey.MAX_SEQUENCE);
      assertArrayEquals(new byte[] {77}, g.value());
    }
  }
}
