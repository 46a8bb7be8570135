package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.cache.BlockCache;
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
import dev.strata.sstable.testing.TableModel;
import dev.strata.sstable.testing.Tables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code read(write(cells)) == cells}: random sorted cells written under random options (every filter
 * type and kind, block sizes from tiny to large, both compressions, tiny to large filter chunks) read back
 * entry by entry by iteration (cached and bulk), by seek and by Get at random snapshots, against
 * {@link TableModel}; read buffered or direct, with bulk read-ahead windows from none to 2 MiB.
 */
final class TableRoundTripProperties {
  private static final int[] BLOCK_SIZES = {64, 256, 1024, 4096, 65536};
  private static final int[] CHUNK_BYTES = {64, 128, 1024, 131072};

  @TempDir Path dir;

  @Test
  void roundTrip_everyEntryReadsBack() {
    int[] fileNumber = {0};
    Seeded.run("table round trip", 60, random -> {
      TableOptions options = randomOptions(random);
      int n = 1 + random.nextInt(random.nextInt(4) == 0 ? 3000 : 300);
      RandomCells gen = new RandomCells(random).tombstones(random.nextDouble() * 0.3, random.nextDouble() * 0.3);
      if (random.nextInt(5) == 0) {
        gen.largeValues(0.05, 1 + random.nextInt(100_000));
      }
      List<Entry> entries = gen.entries(n);
      long number = ++fileNumber[0];
      Path file = dir.resolve(SstableFormat.fileName(number));
      TableMetadata meta = Tables.write(file, options, entries);
      assertEquals(Files.size(file), meta.fileSize());
      BlockCache cache = new ClockBlockCache(random.nextBoolean() ? 0 : 1L << (10 + random.nextInt(15)), 1 + random.nextInt(8));
      TableReadOptions reads = new TableReadOptions(random.nextBoolean(),
          random.nextBoolean() ? 0 : 1 << (6 + random.nextInt(16)));
      try (TableReader reader = TableReader.open(file, number, cache, new ReadCounters(), false, reads)) {
        checkProperties(entries, options, meta, reader.properties());
        checkIteration(entries, reader.iterator());
        checkIteration(entries, reader.bulkIterator(new ReadCounters()));
        checkSeeks(entries, reader, random);
        checkBackward(entries, reader, random);
        checkPrefixes(entries, reader, gen);
        checkGets(new TableModel(entries), reader, random, gen);
        reader.verifyChecksums();
      }
      Files.delete(file);
    });
  }

  static TableOptions randomOptions(Random random) {
    return new TableOptions(
        BLOCK_SIZES[random.nextInt(BLOCK_SIZES.length)],
        FilterType.values()[random.nextInt(FilterType.values().length)],
        1 + random.nextInt(20) + (random.nextBoolean() ? 0.5 : 0),
        CHUNK_BYTES[random.nextInt(CHUNK_BYTES.length)],
        BlockCompression.values()[random.nextInt(BlockCompression.values().length)],
        random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(3),
        FilterKind.values()[random.nextInt(FilterKind.values().length)]);
  }

  private static void checkProperties(List<Entry> entries, TableOptions options, TableMetadata meta, TableProperties p) {
    assertEquals(meta.properties(), p);
    assertEquals(entries.size(), p.entryCount());
    assertEquals(entries.get(0).key(), p.smallestKey());
    assertEquals(entries.get(entries.size() - 1).key(), p.largestKey());
    assertEquals(entries.stream().filter(e -> e.key().kind() == ValueKind.DELETE_ROW).count(), p.rowTombstoneCount());
    assertEquals(entries.stream().filter(e -> e.key().kind() == ValueKind.DELETE).count(), p.deleteCount());
    assertEquals(options.filterType(), p.filterType());
    assertEquals(options.bitsPerKey(), p.bitsPerKey());
    assertEquals(SstableFormat.VERSION_CURRENT, p.formatVersion());
    long expectedFilterKeys = switch (options.filterType()) {
      case NONE -> 0;
      case ROW -> p.distinctRowCount();
      case ROWCOL -> p.distinctRowCount() + p.distinctCellCount();
    };
    if (p.prefixLength() == 0) {
      assertEquals(expectedFilterKeys, p.filterKeyCount());
    } else {
      assertTrue(p.filterKeyCount() >= expectedFilterKeys, "prefix keys join the filter");
    }
    assertEquals(options.filterType() == FilterType.NONE ? 0 : options.prefixLength(), p.prefixLength());
  }

  private static void checkIteration(List<Entry> entries, TableIterator iterator) throws Exception {
    try (TableIterator it = iterator) {
      int i = 0;
      for (it.seekToFirst(); it.isValid(); it.next(), i++) {
        Entry want = entries.get(i);
        assertEquals(want.key(), it.key(), "entry " + i);
        assertArrayEquals(want.value(), it.value(), "value " + i);
      }
      assertEquals(entries.size(), i);
    }
  }

  private static void checkSeeks(List<Entry> entries, TableReader reader, Random random) throws Exception {
    TableModel model = new TableModel(entries);
    try (TableIterator it = reader.iterator()) {
      for (int t = 0; t < 50; t++) {
        InternalKey target = randomTarget(entries, random);
        it.seek(target);
        int i = model.seek(target);
        for (int step = 0; step < 3; step++, i++) {
          if (i >= entries.size()) {
            assertFalse(it.isValid(), "seek past the end: " + target);
            break;
          }
          assertTrue(it.isValid(), "seek " + target);
          assertEquals(entries.get(i).key(), it.key());
          assertArrayEquals(entries.get(i).value(), it.value());
          it.next();
        }
      }
    }
  }

  /**
   * The prefix filter never excludes a prefix some row starts with (every prefix of every row, of
   * every length), and where it excludes one, the range check agrees or no row starts with it.
   */
  private static void checkPrefixes(List<Entry> entries, TableReader reader, RandomCells gen) throws Exception {
    java.util.Set<String> present = new java.util.HashSet<>();
    for (Entry e : entries) {
      byte[] row = e.key().row();
      for (int n = 0; n <= row.length; n++) {
        byte[] prefix = java.util.Arrays.copyOf(row, n);
        present.add(java.util.HexFormat.of().formatHex(prefix));
        assertTrue(reader.rowRangeMeetsPrefix(prefix), "range of a present prefix");
        assertFalse(reader.prefixFilterExcludes(prefix), "filter excluded a present prefix");
      }
    }
    for (int t = 0; t < 200; t++) {
      byte[] prefix = gen.bytes(1 + t % 5);
      if (!present.contains(java.util.HexFormat.of().formatHex(prefix))) {
        reader.prefixFilterExcludes(prefix); // may say either; must not throw
      }
    }
  }

  /**
   * Backward from the last entry gives every entry in reverse; random walks of next and prev from
   * random seeks and seekToLast stay on the model's entries, across block boundaries both ways.
   */
  private static void checkBackward(List<Entry> entries, TableReader reader, Random random) throws Exception {
    try (TableIterator it = reader.iterator()) {
      int i = entries.size() - 1;
      for (it.seekToLast(); it.isValid(); it.prev(), i--) {
        assertEquals(entries.get(i).key(), it.key(), "backward entry " + i);
        assertArrayEquals(entries.get(i).value(), it.value(), "backward value " + i);
      }
      assertEquals(-1, i, "backward reached the first entry");
      TableModel model = new TableModel(entries);
      for (int t = 0; t < 30; t++) {
        if (random.nextInt(5) == 0) {
          it.seekToLast();
          i = entries.size() - 1;
        } else {
          InternalKey target = randomTarget(entries, random);
          it.seek(target);
          i = model.seek(target);
        }
        for (int step = 0; step < 12 && i >= 0 && i < entries.size(); step++) {
          assertTrue(it.isValid(), "walk at " + i);
          assertEquals(entries.get(i).key(), it.key(), "walk at " + i);
          if (random.nextBoolean()) {
            it.next();
            i++;
          } else {
            it.prev();
            i--;
          }
        }
        if (i < 0 || i >= entries.size()) {
          assertFalse(it.isValid(), "walked off the table at " + i);
        }
      }
    }
  }

  private static InternalKey randomTarget(List<Entry> entries, Random random) {
    InternalKey k = entries.get(random.nextInt(entries.size())).key();
    return switch (random.nextInt(4)) {
      case 0 -> k;
      case 1 -> new InternalKey(k.row(), k.column(), random.nextInt((int) Math.min(k.sequence() + 5, 1 << 20)), ValueKind.PUT);
      case 2 -> new InternalKey(k.row(), new byte[] {(byte) random.nextInt(256)}, InternalKey.MAX_SEQUENCE, ValueKind.PUT);
      default -> new InternalKey(new RandomCells(random).bytes(1 + random.nextInt(4)), new byte[0], 5, ValueKind.DELETE);
    };
  }

  private static void checkGets(TableModel model, TableReader reader, Random random, RandomCells gen) throws Exception {
    long maxSeq = model.maxSequence();
    for (Entry e : model.entries()) {
      byte[] row = e.key().row();
      byte[] column = e.key().column();
      long snapshot = random.nextBoolean() ? InternalKey.MAX_SEQUENCE : random.nextInt((int) maxSeq + 2);
      checkGet(model, reader, row, column, snapshot);
      if (random.nextInt(4) == 0) {
        checkGet(model, reader, row, gen.bytes(random.nextInt(3)), snapshot);
      }
    }
    for (int t = 0; t < 100; t++) {
      checkGet(model, reader, gen.bytes(random.nextInt(6)), gen.bytes(random.nextInt(3)), InternalKey.MAX_SEQUENCE);
    }
    checkGetAll(model, reader, random, gen);
  }

  /**
   * A sorted batch of present and absent cells through getAll answers as each Get alone. Half the
   * batches are dense (cells from one window of the table, some repeated), so many keys share a data
   * block and an index partition and the batch's top-level search resumes from the previous key's
   * entry; the others are spread over the whole table. The batch searches its keys' index entries
   * in lock step, the Get alone: this compares the two searches too.
   */
  private static void checkGetAll(TableModel model, TableReader reader, Random random, RandomCells gen) throws Exception {
    List<FilterProbe> probes = new java.util.ArrayList<>();
    List<Entry> entries = model.entries();
    boolean dense = random.nextBoolean();
    int window = Math.min(entries.size(), 1 + random.nextInt(200));
    int windowStart = random.nextInt(entries.size() - window + 1);
    for (int t = 0; t < 64; t++) {
      if (dense) {
        InternalKey k = entries.get(windowStart + random.nextInt(window)).key();
        probes.add(FilterProbe.of(k.row(), k.column()));
        if (random.nextInt(8) == 0) {
          probes.add(FilterProbe.of(k.row(), k.column())); // a duplicate in the batch
        }
      } else if (random.nextBoolean()) {
        InternalKey k = entries.get(random.nextInt(entries.size())).key();
        probes.add(FilterProbe.of(k.row(), k.column()));
      } else {
        probes.add(FilterProbe.of(gen.bytes(random.nextInt(6)), gen.bytes(random.nextInt(3))));
      }
    }
    probes.sort((a, b) -> {
      int c = java.util.Arrays.compareUnsigned(a.row(), b.row());
      return c != 0 ? c : java.util.Arrays.compareUnsigned(a.column(), b.column());
    });
    long snapshot = random.nextBoolean() ? InternalKey.MAX_SEQUENCE : random.nextInt((int) model.maxSequence() + 2);
    CellLookup[] found = new CellLookup[probes.size()];
    for (int i = 0; i < found.length; i++) {
      found[i] = new CellLookup();
    }
    reader.getAll(probes.toArray(new FilterProbe[0]), probes.size(), snapshot, found);
    for (int i = 0; i < probes.size(); i++) {
      GetResult one = reader.get(probes.get(i), snapshot);
      GetResult all = found[i].toResult(probes.get(i).row(), probes.get(i).column());
      assertEquals(one.cell(), all.cell(), "getAll cell " + i);
      assertArrayEquals(one.value(), all.value(), "getAll value " + i);
      assertEquals(one.rowTombstoneSequence(), all.rowTombstoneSequence(), "getAll tombstone " + i);
    }
  }

  static void checkGet(TableModel model, TableReader reader, byte[] row, byte[] column, long snapshot) throws Exception {
    GetResult r = reader.get(FilterProbe.of(row, column), snapshot);
    Entry want = model.newest(row, column, snapshot);
    if (want == null) {
      assertNull(r.cell(), "no entry expected");
      assertNull(r.value());
    } else {
      assertEquals(want.key(), r.cell());
      assertArrayEquals(want.value(), r.value());
    }
    assertEquals(model.rowTombstone(row, snapshot), r.rowTombstoneSequence());
  }
}
