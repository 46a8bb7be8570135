package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.testing.CorruptFiles;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.RandomCells;
import dev.strata.sstable.testing.Seeded;
import dev.strata.sstable.testing.Tables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tables of a level answering a batch together ({@link TableReader#getAll(TableReader[], int[],
 * int, FilterProbe[], int, long, CellLookup[])}) answer each probe as that probe's table alone
 * ({@link TableReader#get(FilterProbe, long)}): tables of random options (filter types, block and
 * chunk sizes, so some search their index in lock step and some not), disjoint row ranges, one
 * shared cache (none, on the heap, or off it, small enough to evict during the batch), runs empty,
 * dense or spread, with probes of absent rows in the gaps between tables.
 */
final class LevelGetAllProperties {
  private static final byte[] EMPTY = new byte[0];

  @TempDir Path dir;

  @Test
  void aLevelsTablesTogether_answerAsEachTableAlone() {
    int[] fileNumber = {0};
    Seeded.run("level getAll", 40, random -> {
      RandomCells gen = new RandomCells(random).tombstones(random.nextDouble() * 0.2, random.nextDouble() * 0.2);
      List<Entry> entries = gen.entries(200 + random.nextInt(random.nextInt(4) == 0 ? 6000 : 1500));
      List<List<Entry>> levels = splitAtRows(entries, 1 + random.nextInt(6), random);
      long capacity = random.nextInt(4) == 0 ? 0 : 1L << (12 + random.nextInt(10));
      ClockBlockCache cache = new ClockBlockCache(capacity, 1 + random.nextInt(4), random.nextBoolean());
      List<TableReader> readers = new ArrayList<>();
      try {
        for (List<Entry> tableEntries : levels) {
          long number = ++fileNumber[0];
          Path file = dir.resolve(SstableFormat.fileName(number));
          Tables.write(file, TableRoundTripProperties.randomOptions(random), tableEntries);
          readers.add(TableReader.open(file, number, cache));
        }
        for (int batch = 0; batch < 8; batch++) {
          checkBatch(levels, readers, entries, random, gen);
        }
      } finally {
        for (TableReader r : readers) {
          r.close();
        }
        cache.close();
      }
      // Every off-heap block the batches retained was released: a slot still referenced keeps its
      // slab after the cache closes.
      assertEquals(0, cache.offHeapReservedBytes(), "off-heap bytes left after close");
    });
  }

  /** {@code entries} cut into up to {@code tables} runs at row boundaries: a level's tables. */
  private static List<List<Entry>> splitAtRows(List<Entry> entries, int tables, Random random) {
    List<Integer> rowStarts = new ArrayList<>();
    for (int i = 1; i < entries.size(); i++) {
      if (!Arrays.equals(entries.get(i).key().row(), entries.get(i - 1).key().row())) {
        rowStarts.add(i);
      }
    }
    List<Integer> cuts = new ArrayList<>();
    for (int t = 1; t < tables && !rowStarts.isEmpty(); t++) {
      cuts.add(rowStarts.remove(random.nextInt(rowStarts.size())));
    }
    cuts.sort(null);
    List<List<Entry>> out = new ArrayList<>();
    int from = 0;
    for (int cut : cuts) {
      out.add(entries.subList(from, cut));
      from = cut;
    }
    out.add(entries.subList(from, entries.size()));
    return out;
  }

  /**
   * A sorted batch of 64 probes (cells of the tables, absent cells of their rows, random rows),
   * each handed to the table whose row range holds it or, in a gap, to the table before (which
   * finds it out of range); the batch's answers against each table's Get alone.
   */
  private static void checkBatch(List<List<Entry>> levels, List<TableReader> readers,
      List<Entry> entries, Random random, RandomCells gen) throws Exception {
    List<FilterProbe> probes = new ArrayList<>();
    boolean dense = random.nextBoolean();
    int window = Math.min(entries.size(), 1 + random.nextInt(300));
    int windowStart = random.nextInt(entries.size() - window + 1);
    for (int k = 0; k < 64; k++) {
      int pick = random.nextInt(4);
      if (pick < 2) {
        InternalKey key = entries.get(dense ? windowStart + random.nextInt(window) : random.nextInt(entries.size())).key();
        probes.add(FilterProbe.of(key.row(), pick == 0 ? key.column() : gen.bytes(random.nextInt(3))));
      } else {
        probes.add(FilterProbe.of(gen.bytes(random.nextInt(6)), random.nextBoolean() ? EMPTY : gen.bytes(2)));
      }
    }
    probes.sort((a, b) -> {
      int c = Arrays.compareUnsigned(a.row(), b.row());
      return c != 0 ? c : Arrays.compareUnsigned(a.column(), b.column());
    });
    // Probes before the first table's first row go to no table, as in the engine's level search.
    int first = 0;
    while (first < probes.size()
        && Arrays.compareUnsigned(probes.get(first).row(), levels.get(0).get(0).key().row()) < 0) {
      first++;
    }
    List<FilterProbe> asked = probes.subList(first, probes.size());
    int[] ends = new int[levels.size()];
    for (int t = 0, k = 0; t < levels.size(); t++) {
      byte[] nextSmallest = t + 1 < levels.size() ? levels.get(t + 1).get(0).key().row() : null;
      while (k < asked.size() && (nextSmallest == null
          || Arrays.compareUnsigned(asked.get(k).row(), nextSmallest) < 0)) {
        k++;
      }
      ends[t] = k;
    }
    long snapshot = random.nextBoolean() ? InternalKey.MAX_SEQUENCE : random.nextInt(entries.size() * 4);
    CellLookup[] found = new CellLookup[asked.size() + 1];
    for (int i = 0; i < found.length; i++) {
      found[i] = new CellLookup();
    }
    found[asked.size()].cell(1, dev.strata.sstable.key.ValueKind.PUT, EMPTY);
    TableReader.getAll(readers.toArray(new TableReader[0]), ends, readers.size(),
        asked.toArray(new FilterProbe[0]), asked.size(), snapshot, found);
    for (int t = 0, i = 0; t < readers.size(); t++) {
      for (; i < ends[t]; i++) {
        FilterProbe p = asked.get(i);
        GetResult one = readers.get(t).get(p, snapshot);
        GetResult all = found[i].toResult(p.row(), p.column());
        String what = "probe " + i + " of table " + t;
        assertEquals(one.cell(), all.cell(), what);
        assertArrayEquals(one.value(), all.value(), what);
        assertEquals(one.rowTombstoneSequence(), all.rowTombstoneSequence(), what);
      }
    }
    assertTrue(found[asked.size()].hasCell(), "past the batch: untouched");
  }

  /**
   * A batch that fails on one table's damaged data block, with other tables' blocks retained off
   * the heap for the copy, lets go of them: the cache's slabs all go when it closes.
   */
  @Test
  void aDamagedBlock_failsTheBatch_andReleasesTheOffHeapBlocksItHeld() throws Exception {
    Path damaged = dir.resolve(SstableFormat.fileName(1));
    Path whole = dir.resolve(SstableFormat.fileName(2));
    List<Entry> first = rows("a", 200);
    List<Entry> second = rows("b", 200);
    Tables.write(damaged, TableOptions.defaults(), first);
    Tables.write(whole, TableOptions.defaults(), second);
    CorruptFiles.flipBit(damaged, 5, 3); // inside the first data block
    ClockBlockCache cache = new ClockBlockCache(8 << 20, 2, true);
    try (TableReader a = TableReader.open(damaged, 1, cache); TableReader b = TableReader.open(whole, 2, cache)) {
      FilterProbe[] probes = new FilterProbe[8];
      probes[0] = FilterProbe.of(first.get(0).key().row(), EMPTY);
      for (int k = 1; k < probes.length; k++) { // spread over the whole table's blocks, then cached
        probes[k] = FilterProbe.of(second.get(k * 199 / (probes.length - 1)).key().row(), EMPTY);
        b.get(probes[k], InternalKey.MAX_SEQUENCE);
      }
      CellLookup[] out = new CellLookup[probes.length];
      Arrays.setAll(out, i -> new CellLookup());
      assertThrows(dev.strata.sstable.format.CorruptTableException.class, () -> TableReader.getAll(
          new TableReader[] {a, b}, new int[] {1, probes.length}, 2, probes, probes.length,
          InternalKey.MAX_SEQUENCE, out));
    } finally {
      cache.close();
    }
    assertEquals(0, cache.offHeapReservedBytes(), "a block the failed batch retained is still held");
  }

  /** {@code n} rows {@code prefix + i}, one cell each, with 100-byte values. */
  private static List<Entry> rows(String prefix, int n) {
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] row = String.format("%s%05d", prefix, i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      out.add(new Entry(new InternalKey(row, EMPTY, i + 1, dev.strata.sstable.key.ValueKind.PUT), new byte[100]));
    }
    return out;
  }

  @Test
  void runsThatDoNotCoverTheProbes_orTablesOfTwoCaches_areRefused() throws Exception {
    List<Entry> entries = new RandomCells(new Random(7)).entries(100);
    Path a = dir.resolve(SstableFormat.fileName(1));
    Path b = dir.resolve(SstableFormat.fileName(2));
    Tables.write(a, TableOptions.defaults(), entries);
    Tables.write(b, TableOptions.defaults(), entries);
    ClockBlockCache one = new ClockBlockCache(1 << 20);
    ClockBlockCache other = new ClockBlockCache(1 << 20);
    try (TableReader ra = TableReader.open(a, 1, one); TableReader rb = TableReader.open(b, 2, other);
        TableReader rb1 = TableReader.open(b, 2, one)) {
      FilterProbe[] probes = {FilterProbe.of(EMPTY, EMPTY), FilterProbe.of(new byte[] {1}, EMPTY)};
      CellLookup[] out = {new CellLookup(), new CellLookup()};
      assertThrows(IllegalArgumentException.class, () -> TableReader.getAll(
          new TableReader[] {ra, rb}, new int[] {1, 2}, 2, probes, 2, InternalKey.MAX_SEQUENCE, out));
      assertThrows(IllegalArgumentException.class, () -> TableReader.getAll(
          new TableReader[] {ra, rb1}, new int[] {1, 1}, 2, probes, 2, InternalKey.MAX_SEQUENCE, out));
      assertThrows(IllegalArgumentException.class, () -> TableReader.getAll(
          new TableReader[] {ra, rb1}, new int[] {2, 1}, 2, probes, 2, InternalKey.MAX_SEQUENCE, out));
      TableReader.getAll(new TableReader[] {ra, rb1}, new int[] {1, 2}, 2, probes, 2,
          InternalKey.MAX_SEQUENCE, out); // the same runs over tables of one cache: fine
    } finally {
      one.close();
      other.close();
    }
  }
}
