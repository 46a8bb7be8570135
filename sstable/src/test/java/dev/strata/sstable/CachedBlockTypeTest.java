package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block cache names a block by its table's file number and its offset, not by its type, so a
 * damaged handle that names the offset of a cached block of another type finds that block there.
 * Searching a data block as an index partition (or the reverse) under the other type's rules could
 * read past its entries or answer wrongly: every read that finds a block of the wrong type reports
 * corruption instead. The tests plant the wrong block under a handle's offset, as such damage would.
 */
final class CachedBlockTypeTest {
  private static final byte[] EMPTY = new byte[0];
  private static final int ROWS = 20_000;

  @TempDir Path dir;

  private static byte[] row(int i) {
    return String.format(Locale.ROOT, "row%09d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private Path writeTable() throws IOException {
    Path file = dir.resolve("000001.sst");
    try (TableWriter w = TableWriter.create(file,
        TableOptions.defaults().withBlockSizeBytes(1024).withFilterChunkBytes(4096))) {
      for (int i = 0; i < ROWS; i++) {
        w.add(new InternalKey(row(i), EMPTY, i + 1, ValueKind.PUT), new byte[40]);
      }
      w.finish();
    }
    return file;
  }

  private static List<TableRegions.Region> regionsOf(Path file, BlockType type) throws IOException {
    return TableRegions.of(file).regions().stream().filter(r -> r.type() == type).toList();
  }

  private static Block parsed(Path file, TableRegions.Region r) throws IOException {
    byte[] all = Files.readAllBytes(file);
    byte[] raw = Arrays.copyOfRange(all, (int) r.offset(), (int) r.end());
    return StoredBlocks.parseBlock(raw, file, new BlockHandle(r.offset(), (int) r.length() - 5), r.type());
  }

  @Test
  void offHeapDataBlockAtAPartitionsOffset_isCorruptionForReadsThroughThatPartition() throws IOException {
    Path file = writeTable();
    TableRegions.Region data = regionsOf(file, BlockType.DATA).get(0);
    List<TableRegions.Region> partitions = regionsOf(file, BlockType.COMPACT_INDEX_PARTITION);
    assertTrue(partitions.size() > 2, "partitions: " + partitions.size());
    TableRegions.Region victim = partitions.get(1);
    ClockBlockCache cache = new ClockBlockCache(8 << 20, 1, true);
    cache.put(new BlockCacheKey(1, victim.offset()), BlockKind.DATA, parsed(file, data));
    try (TableReader t = TableReader.open(file, 1, cache)) {
      assertTrue(t.get(FilterProbe.of(row(0), EMPTY), InternalKey.MAX_SEQUENCE).cell() != null,
          "the first partition is intact");
      CorruptTableException gets = assertThrows(CorruptTableException.class, () -> getEveryRow(t));
      assertEquals(victim.offset(), gets.offset(), gets.getMessage());
      assertThrows(CorruptTableException.class, () -> scan(t));
    }
  }

  @Test
  void partitionAtADataBlocksOffset_isCorruptionForTheGetsAndScansReadingIt() throws IOException {
    Path file = writeTable();
    List<TableRegions.Region> blocks = regionsOf(file, BlockType.DATA);
    TableRegions.Region partition = regionsOf(file, BlockType.COMPACT_INDEX_PARTITION).get(0);
    TableRegions.Region victim = blocks.get(blocks.size() / 2);
    for (boolean offHeap : new boolean[] {false, true}) {
      ClockBlockCache cache = new ClockBlockCache(8 << 20, 1, offHeap);
      cache.put(new BlockCacheKey(1, victim.offset()), BlockKind.INDEX, parsed(file, partition));
      try (TableReader t = TableReader.open(file, 1, cache)) {
        CorruptTableException gets = assertThrows(CorruptTableException.class, () -> getEveryRow(t));
        assertEquals(victim.offset(), gets.offset(), gets.getMessage());
        assertThrows(CorruptTableException.class, () -> scan(t));
        assertThrows(CorruptTableException.class, () -> getAllRows(t));
      }
    }
  }

  private static void getEveryRow(TableReader t) throws IOException {
    for (int i = 0; i < ROWS; i++) {
      GetResult g = t.get(FilterProbe.of(row(i), EMPTY), InternalKey.MAX_SEQUENCE);
      assertTrue(g.cell() != null && g.cell().sequence() == i + 1, "row " + i);
    }
  }

  private static void getAllRows(TableReader t) throws IOException {
    int n = 64;
    for (int from = 0; from < ROWS; from += n) {
      FilterProbe[] probes = new FilterProbe[n];
      CellLookup[] out = new CellLookup[n];
      for (int k = 0; k < n; k++) {
        probes[k] = FilterProbe.of(row(Math.min(from + k, ROWS - 1)), EMPTY);
        out[k] = new CellLookup();
      }
      t.getAll(probes, n, InternalKey.MAX_SEQUENCE, out);
    }
  }

  private static void scan(TableReader t) throws IOException {
    int i = 0;
    try (TableIterator it = t.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next(), i++) {
        assertEquals(i + 1, it.key().sequence(), "entry " + i);
      }
    }
  }
}
