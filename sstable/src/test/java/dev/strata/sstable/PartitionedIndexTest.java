package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.CorruptFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two-level index of format version 3: no index block grows with the table, a Get reads one
 * partition of about a block (never the whole index), and a damaged partition is reported as
 * corruption by the reads that need it, not at open.
 */
final class PartitionedIndexTest {
  private static final byte[] EMPTY = new byte[0];
  private static final int BLOCK = 4096;

  @TempDir Path dir;

  private static byte[] row(long i) {
    return String.format(Locale.ROOT, "user%012d", i * 7919 % 1_000_003).getBytes(StandardCharsets.US_ASCII);
  }

  /** {@code rows} rows in order (rows are distinct: 7919 is invertible modulo the prime 1,000,003). */
  private Path writeRows(String name, int rows) throws IOException {
    Path file = dir.resolve(name);
    byte[][] keys = new byte[rows][];
    for (int i = 0; i < rows; i++) {
      keys[i] = row(i);
    }
    java.util.Arrays.sort(keys, java.util.Arrays::compareUnsigned);
    byte[] value = new byte[100];
    try (TableWriter w = TableWriter.create(file,
        TableOptions.defaults().withBlockSizeBytes(BLOCK).withFilterChunkBytes(4096))) {
      for (int i = 0; i < rows; i++) {
        w.add(new InternalKey(keys[i], EMPTY, i + 1, ValueKind.PUT), value);
      }
      w.finish();
    }
    return file;
  }

  @Test
  void largeTable_noIndexBlockExceedsTwoBlocks_andAGetReadsOnePartition() throws IOException {
    Path file = writeRows("000001.sst", 250_000); // 26 MB of data
    List<TableRegions.Region> regions = TableRegions.of(file).regions();
    long partitions = regions.stream().filter(r -> r.type() == BlockType.COMPACT_INDEX_PARTITION).count();
    ReadCounters counters = new ReadCounters();
    try (TableReader t = TableReader.open(file, 1, new ClockBlockCache(64 << 20), counters)) {
      TableProperties p = t.properties();
      assertTrue(p.dataBlockCount() > 5_000, "blocks: " + p.dataBlockCount());
      assertTrue(p.indexBytes() > 20L * BLOCK, "a one-level index would be " + p.indexBytes() + " bytes");
      assertTrue(partitions > 20, "partitions: " + partitions);
      for (TableRegions.Region r : regions) {
        if (r.type() != null && r.type().isIndex()) {
          assertTrue(r.length() <= 2 * BLOCK, r + " outgrew two blocks");
        }
      }
      assertTrue(t.layout().pinnedIndexBytes() <= 3 * BLOCK, "pinned top level: " + t.layout().pinnedIndexBytes());
      assertTrue(t.pinnedBytes() > t.layout().pinnedIndexBytes(), "the filter index is pinned too: " + t.pinnedBytes());
      for (int i = 0; i < 100; i++) {
        TableReadStats before = counters.snapshot();
        GetResult g = t.get(FilterProbe.of(row(i * 1999L), EMPTY), InternalKey.MAX_SEQUENCE);
        TableReadStats d = counters.snapshot().minus(before);
        assertTrue(g.cell() != null, "row " + i * 1999L);
        assertEquals(1, d.indexBlocksRead() + d.indexBlockCacheHits(), "one partition per Get: " + d);
        // A filter chunk of 4 KiB, a partition and a data block of about a block each.
        assertTrue(d.bytesRead() <= 4096 + 128 + 4L * BLOCK, "bytes of one Get: " + d);
      }
    }
  }

  @Test
  void damagedPartition_isCorruptionForTheReadsThatNeedIt() throws IOException {
    Path file = writeRows("000002.sst", 20_000);
    List<TableRegions.Region> partitions = TableRegions.of(file).regions().stream()
        .filter(r -> r.type() == BlockType.COMPACT_INDEX_PARTITION).toList();
    assertTrue(partitions.size() > 2, "partitions: " + partitions.size());
    TableRegions.Region victim = partitions.get(1);
    Path copy = CorruptFiles.copy(file, dir.resolve("000003.sst"));
    CorruptFiles.flipBit(copy, victim.offset() + victim.length() / 2, 3);
    try (TableReader t = TableReader.open(copy, 3, new ClockBlockCache(1 << 20))) {
      // The first partition is intact: its first row reads back.
      byte[] first = t.properties().smallestRow();
      assertTrue(t.get(FilterProbe.of(first, EMPTY), InternalKey.MAX_SEQUENCE).cell() != null);
      CorruptTableException e = assertThrows(CorruptTableException.class, () -> {
        try (TableIterator it = t.iterator()) {
          for (it.seekToFirst(); it.isValid(); it.next()) {
            it.value();
          }
        }
      });
      assertEquals(copy, e.file());
      assertEquals(victim.offset(), e.offset(), e.getMessage());
      assertThrows(CorruptTableException.class, t::verifyChecksums);
      assertThrows(CorruptTableException.class, () -> t.layout().dataBlocks());
    }
  }
}
