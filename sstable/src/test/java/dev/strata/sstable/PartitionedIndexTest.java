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
 * The two-level index of format version 3 (compact from version 5): no index block grows with the table, a Get reads one
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
      // A Get and a batch miss the partition through their own reads (no loader): loud as well.
      byte[] inVictim = rowIn(file, 1, partitions.size());
      CorruptTableException got = assertThrows(CorruptTableException.class,
          () -> t.get(FilterProbe.of(inVictim, EMPTY), InternalKey.MAX_SEQUENCE));
      assertEquals(victim.offset(), got.offset(), got.getMessage());
      CorruptTableException batch = assertThrows(CorruptTableException.class, () -> t.getAll(
          new FilterProbe[] {FilterProbe.of(first, EMPTY), FilterProbe.of(inVictim, EMPTY)}, 2,
          InternalKey.MAX_SEQUENCE, new CellLookup[] {new CellLookup(), new CellLookup()}));
      assertEquals(victim.offset(), batch.offset(), batch.getMessage());
      assertThrows(CorruptTableException.class, t::verifyChecksums);
      assertThrows(CorruptTableException.class, () -> t.layout().dataBlocks());
    }
  }

  /**
   * A version-5 entry that claims the cell form where versions of its cell run on into the next
   * block (so its key would stand above that block's first key) passes the block parser, whose
   * rules are local, and fails the checksum verification, which checks every entry against the
   * blocks around it. Its block's checksum is made valid again, as a writer bug would leave it.
   */
  @Test
  void compactEntry_claimingTheCellFormAcrossAStraddlingCell_failsVerification() throws IOException {
    Path file = dir.resolve("000004.sst");
    byte[] row = "hot".getBytes(StandardCharsets.US_ASCII);
    try (TableWriter w = TableWriter.create(file, TableOptions.defaults().withBlockSizeBytes(64))) {
      for (int seq = 500; seq > 0; seq--) { // one cell's versions, newest first, over many blocks
        w.add(new InternalKey(row, EMPTY, seq, ValueKind.PUT), new byte[20]);
      }
      w.finish();
    }
    try (TableReader t = TableReader.open(file, 4, new ClockBlockCache(1 << 20))) {
      t.verifyChecksums();
    }
    TableRegions.Region partition = TableRegions.of(file).regions().stream()
        .filter(r -> r.type() == BlockType.COMPACT_INDEX_PARTITION).findFirst().orElseThrow();
    byte[] bytes = java.nio.file.Files.readAllBytes(file);
    int start = (int) partition.offset();
    int payload = (int) partition.length() - dev.strata.sstable.format.SstableFormat.BLOCK_TRAILER_BYTES;
    // The first entry: shared 0, unshared, valueLength (one byte each here), key, value.
    assertEquals(0, bytes[start]);
    int valueOffset = start + 3 + bytes[start + 1];
    assertEquals(0, bytes[valueOffset] & 1, "the first block's cell runs on: an internal key");
    bytes[valueOffset] |= 1;
    dev.strata.sstable.format.Bytes.putU32(bytes, start + payload + 1,
        dev.strata.checksum.Checksums.maskedCrc32c(bytes, start, payload, bytes[start + payload]));
    Path damaged = dir.resolve("000005.sst");
    java.nio.file.Files.write(damaged, bytes);
    try (TableReader t = TableReader.open(damaged, 5, new ClockBlockCache(1 << 20))) {
      CorruptTableException e = assertThrows(CorruptTableException.class, t::verifyChecksums);
      assertTrue(e.getMessage().contains("index"), e.getMessage());
    }
  }

  /**
   * A batch over a table of many compact partitions (so it searches them in lock step, {@link
   * IndexReader#searchesInLockStep}), each of several restart intervals, answers every present and
   * absent key as a Get does.
   */
  @Test
  void batchInLockStep_overCompactPartitions_answersAsGets() throws IOException {
    Path file = dir.resolve("000006.sst");
    int rows = 20_000;
    try (TableWriter w = TableWriter.create(file, TableOptions.defaults().withBlockSizeBytes(256))) {
      for (int i = 0; i < rows; i++) {
        w.add(new InternalKey(batchRow(2 * i), EMPTY, i + 1, ValueKind.PUT), new byte[16]);
      }
      w.finish();
    }
    java.util.Random random = new java.util.Random(11);
    try (TableReader t = TableReader.open(file, 6, new ClockBlockCache(1 << 20))) {
      assertTrue(t.index().searchesInLockStep(), "partitions: " + t.properties().indexBytes());
      for (int round = 0; round < 50; round++) {
        int n = 64;
        long[] keys = random.longs(n, 0, 2L * rows + 1).sorted().toArray();
        FilterProbe[] probes = new FilterProbe[n];
        dev.strata.sstable.CellLookup[] out = new dev.strata.sstable.CellLookup[n];
        for (int k = 0; k < n; k++) {
          probes[k] = FilterProbe.of(batchRow(keys[k]), EMPTY);
          out[k] = new dev.strata.sstable.CellLookup();
        }
        t.getAll(probes, n, InternalKey.MAX_SEQUENCE, out);
        for (int k = 0; k < n; k++) {
          GetResult alone = t.get(probes[k], InternalKey.MAX_SEQUENCE);
          GetResult batched = out[k].toResult(probes[k].row(), EMPTY);
          assertEquals(alone.cell() == null, batched.cell() == null, "key " + keys[k]);
          assertEquals(keys[k] % 2 == 0, batched.cell() != null, "key " + keys[k]);
          if (alone.cell() != null) {
            assertEquals(alone.cell().sequence(), batched.cell().sequence(), "key " + keys[k]);
            assertEquals(keys[k] / 2 + 1, batched.cell().sequence(), "key " + keys[k]);
          }
        }
      }
    }
  }

  private static byte[] batchRow(long i) {
    return String.format(Locale.ROOT, "b%08d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** A row amid partition {@code p} of {@code partitions}, about equal, of the intact table {@code file}. */
  private static byte[] rowIn(Path file, int p, int partitions) throws IOException {
    try (TableReader t = TableReader.open(file, 9, new ClockBlockCache(1 << 20));
        TableIterator it = t.iterator()) {
      List<byte[]> rows = new java.util.ArrayList<>();
      for (it.seekToFirst(); it.isValid(); it.next()) {
        rows.add(it.key().row());
      }
      return rows.get(rows.size() * p / partitions + rows.size() / (2 * partitions));
    }
  }
}
