package dev.strata.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.strata.engine.read.Verdict;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class MemTableProperties {

  /** Rows and columns from a tiny alphabet, so cells get many versions and rows many tombstones. */
  private static byte[] small(Random r, int minLength) {
    byte[] b = new byte[minLength + r.nextInt(3)];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (r.nextBoolean() ? 0x01 : 0xF0); // both signs, to exercise unsigned order
    }
    return b;
  }

  /** Fills a memtable and a TreeMap model with the same random entries. */
  private static TreeMap<InternalKey, byte[]> fill(Random r, MemTable mem, int count) {
    return fill(r, mem, count, 2);
  }

  /**
   * As above, with values of up to {@code maxValueBytes} bytes (values larger than a quarter of an
   * arena chunk get a chunk of their own; smaller ones leave chunk tails behind).
   */
  private static TreeMap<InternalKey, byte[]> fill(
      Random r, MemTable mem, int count, int maxValueBytes) {
    TreeMap<InternalKey, byte[]> model = new TreeMap<>(InternalKey.ORDER);
    for (long sequence = 1; sequence <= count; sequence++) {
      byte[] row = small(r, 1);
      InternalKey key;
      byte[] value = new byte[0];
      int p = r.nextInt(10);
      if (p < 6) {
        key = new InternalKey(row, small(r, 0), sequence, ValueKind.PUT);
        value = new byte[maxValueBytes <= 2 ? 2 : r.nextInt(maxValueBytes + 1)];
        r.nextBytes(value);
      } else if (p < 8) {
        key = new InternalKey(row, small(r, 0), sequence, ValueKind.DELETE);
      } else {
        key = new InternalKey(row, new byte[0], sequence, ValueKind.DELETE_ROW);
      }
      mem.add(key, value);
      model.put(key, value);
    }
    return model;
  }

  @Test
  void get_matchesABruteForceScanOfTheModel() {
    qt().withExamples(200)
        .forAll(longs().all(), integers().between(0, 300))
        .checkAssert(
            (seed, count) -> {
              Random r = new Random(seed);
              MemTable mem = new MemTable();
              TreeMap<InternalKey, byte[]> model = fill(r, mem, count);
              for (int q = 0; q < 50; q++) {
                byte[] row = small(r, 1);
                byte[] column = small(r, 0);
                long snapshot = r.nextInt(count + 2);
                GetResult expected = newest(model, row, column, snapshot);
                InternalKey newestCell = expected.cell();
                GetResult hit = mem.get(row, column, snapshot);
                assertEquals(newestCell, hit.cell());
                assertEquals(expected.rowTombstoneSequence(), hit.rowTombstoneSequence());
                if (newestCell != null && newestCell.kind() == ValueKind.PUT) {
                  assertArrayEquals(model.get(newestCell), hit.value());
                } else {
                  assertNull(hit.value());
                }
                assertEquals(expectedVerdict(newestCell, expected.rowTombstoneSequence()),
                    Verdict.of(hit));
              }
            });
  }

  /** Random cells in (row, column) order, with repeats: a batch's sorted keys. */
  private static List<byte[][]> ascendingCells(Random r, int count, int minRowLength) {
    List<byte[][]> cells = new ArrayList<>();
    for (int q = 0; q < count; q++) {
      cells.add(new byte[][] {small(r, minRowLength), small(r, 0)});
      if (r.nextInt(8) == 0) {
        cells.add(cells.get(cells.size() - 1)); // the same cell twice in a row
      }
    }
    cells.sort((a, b) -> {
      int c = Arrays.compareUnsigned(a[0], b[0]);
      return c != 0 ? c : Arrays.compareUnsigned(a[1], b[1]);
    });
    return cells;
  }

  private static void assertSameAnswer(GetResult expected, GetResult actual) {
    assertEquals(expected.cell(), actual.cell());
    assertArrayEquals(expected.value(), actual.value());
    assertEquals(expected.rowTombstoneSequence(), actual.rowTombstoneSequence());
  }

  @Test
  void get_withAFingerOverAscendingCells_answersAsFromTheHead() {
    qt().withExamples(200)
        .forAll(longs().all(), integers().between(0, 3000))
        .checkAssert(
            (seed, count) -> {
              Random r = new Random(seed);
              MemTable mem = new MemTable();
              fill(r, mem, count);
              long snapshot = r.nextInt(count + 2);
              MemTable.Finger finger = new MemTable.Finger().aim(mem);
              for (byte[][] cell : ascendingCells(r, 1 + r.nextInt(80), 1)) {
                assertSameAnswer(mem.get(cell[0], cell[1], snapshot),
                    mem.get(FilterProbe.of(cell[0], cell[1]), snapshot, finger));
              }
            });
  }

  /**
   * Finger searches while a writer inserts: entries newer than the readers' snapshot (which they
   * must not see) keep linking in, the list growing taller than it was when the fingers were set,
   * and every answer is still the one given before the writer started.
   */
  @Test
  void get_withAFinger_answersAlikeWhileAWriterInserts() throws Exception {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    MemTable mem = new MemTable();
    int count = 200;
    fill(r, mem, count);
    List<byte[][]> cells = ascendingCells(r, 64, 1);
    GetResult[] expected = new GetResult[cells.size()];
    for (int q = 0; q < cells.size(); q++) {
      expected[q] = mem.get(cells.get(q)[0], cells.get(q)[1], count);
    }
    AtomicBoolean stop = new AtomicBoolean();
    Thread writer = new Thread(() -> {
      Random w = new Random(seed + 1);
      for (long sequence = count + 1; !stop.get() && sequence < 200_000; sequence++) {
        mem.add(ValueKind.PUT, small(w, 1), small(w, 0), sequence, new byte[] {1});
      }
    });
    writer.start();
    try {
      MemTable.Finger finger = new MemTable.Finger();
      for (int round = 0; round < 2000; round++) {
        finger.aim(mem);
        for (int q = 0; q < cells.size(); q++) {
          GetResult actual = mem.get(FilterProbe.of(cells.get(q)[0], cells.get(q)[1]), count, finger);
          assertEquals(expected[q].cell(), actual.cell(), "seed " + seed + ", round " + round);
          assertEquals(expected[q].rowTombstoneSequence(), actual.rowTombstoneSequence());
        }
      }
    } finally {
      stop.set(true);
      writer.join();
    }
  }

  /**
   * Rows from a wide space (most lookups' rows have no entry, so the row filter answers them):
   * every lookup, plain or with a finger, still finds every entry the model holds, deletes and row
   * tombstones included.
   */
  @Test
  void get_ofRowsMostlyAbsent_findsEveryEntryThroughTheRowFilter() {
    qt().withExamples(100)
        .forAll(longs().all(), integers().between(1, 4000))
        .checkAssert(
            (seed, count) -> {
              Random r = new Random(seed);
              MemTable mem = new MemTable(64 << 10); // a small filter: some false positives too
              TreeMap<InternalKey, byte[]> model = new TreeMap<>(InternalKey.ORDER);
              for (long sequence = 1; sequence <= count; sequence++) {
                byte[] row = wideRow(r);
                ValueKind kind = r.nextInt(10) < 8 ? ValueKind.PUT
                    : r.nextBoolean() ? ValueKind.DELETE : ValueKind.DELETE_ROW;
                byte[] column = kind == ValueKind.DELETE_ROW ? new byte[0] : small(r, 0);
                byte[] value = kind == ValueKind.PUT ? new byte[] {(byte) sequence} : new byte[0];
                InternalKey key = new InternalKey(row, column, sequence, kind);
                mem.add(key, value);
                model.put(key, value);
              }
              List<byte[][]> lookups = new ArrayList<>();
              for (InternalKey k : model.keySet()) { // every cell written, and as many unwritten
                lookups.add(new byte[][] {k.row(), k.column()});
                lookups.add(new byte[][] {wideRow(r), small(r, 0)});
              }
              for (byte[][] cell : lookups) {
                GetResult plain = mem.get(cell[0], cell[1], count);
                GetResult expected = newest(model, cell[0], cell[1], count);
                assertEquals(expected.cell(), plain.cell(), "seed " + seed);
                assertEquals(expected.rowTombstoneSequence(), plain.rowTombstoneSequence());
              }
            });
  }

  /** Rows of 4 to 12 random bytes: thousands of entries rarely share one. */
  private static byte[] wideRow(Random r) {
    byte[] row = new byte[4 + r.nextInt(9)];
    r.nextBytes(row);
    return row;
  }

  /** What the model holds for (row, column) as of {@code snapshot}, as {@link MemTable#get} answers. */
  private static GetResult newest(TreeMap<InternalKey, byte[]> model, byte[] row, byte[] column,
      long snapshot) {
    InternalKey cell = null;
    long tombstone = GetResult.NO_ROW_TOMBSTONE;
    for (InternalKey k : model.keySet()) {
      if (k.sequence() > snapshot || !Arrays.equals(k.row(), row)) {
        continue;
      }
      if (k.kind() == ValueKind.DELETE_ROW) {
        tombstone = Math.max(tombstone, k.sequence());
      }
      if (Arrays.equals(k.column(), column) && (cell == null || k.sequence() > cell.sequence())) {
        cell = k;
      }
    }
    return cell == null && tombstone == GetResult.NO_ROW_TOMBSTONE
        ? GetResult.ABSENT : new GetResult(cell, null, tombstone);
  }

  /**
   * Lookups racing the writer: each reads the sequence the writer published after its add (as the
   * engine publishes a write's sequence) and asks for the entry of that sequence, which it must
   * find: the row filter's bits of an entry are visible to whoever sees the entry.
   */
  @Test
  void get_ofAnEntryJustPublished_findsItWhileTheWriterAdds() throws Exception {
    long seed = new Random().nextLong();
    MemTable mem = new MemTable(1 << 20);
    int entries = 100_000;
    byte[][] rows = new byte[entries + 1][];
    Random r = new Random(seed);
    for (int i = 1; i <= entries; i++) {
      rows[i] = wideRow(r);
    }
    AtomicLong published = new AtomicLong();
    Thread writer = new Thread(() -> {
      for (int i = 1; i <= entries; i++) {
        mem.add(ValueKind.PUT, rows[i], new byte[0], i, new byte[] {1});
        published.set(i);
      }
    });
    writer.start();
    try {
      Random pick = new Random(seed + 1);
      long last;
      do {
        last = published.get();
        if (last > 0) {
          int i = (int) last - (last > 1 ? pick.nextInt((int) Math.min(last - 1, 8)) : 0);
          GetResult found = mem.get(rows[i], new byte[0], last);
          assertTrue(found.cell() != null && found.cell().sequence() >= i,
              "seed " + seed + ": entry " + i + " not found at snapshot " + last);
        }
      } while (last < entries);
    } finally {
      writer.join();
    }
  }

  @Test
  void get_withAFingerAimedElsewhere_throws() {
    MemTable mem = new MemTable();
    MemTable.Finger finger = new MemTable.Finger().aim(new MemTable());
    assertThrows(IllegalArgumentException.class,
        () -> mem.get(FilterProbe.of(new byte[] {1}, new byte[0]), 1, finger));
  }

  private static Verdict expectedVerdict(InternalKey cell, long tombSeq) {
    long cellSeq = cell == null ? -1 : cell.sequence();
    if (cellSeq < 0 && tombSeq < 0) {
      return Verdict.UNKNOWN;
    }
    if (cellSeq > tombSeq) {
      return cell.kind() == ValueKind.PUT
          ? Verdict.FOUND
          : Verdict.DELETED;
    }
    return Verdict.DELETED;
  }

  @Test
  void iterator_fromAnySeekKey_matchesTheModelsTailMap() {
    qt().withExamples(200)
        .forAll(longs().all(), integers().between(0, 200))
        .checkAssert(
            (seed, count) -> {
              Random r = new Random(seed);
              MemTable mem = new MemTable();
              TreeMap<InternalKey, byte[]> model = fill(r, mem, count, r.nextBoolean() ? 2 : 6000);
              try (MemTableIterator it = mem.iterator()) {
                it.seekToFirst();
                assertSame(model.entrySet().iterator(), it);
                for (int q = 0; q < 10; q++) {
                  InternalKey target =
                      new InternalKey(
                          small(r, 1),
                          small(r, 0),
                          r.nextInt(count + 2),
                          ValueKind.values()[r.nextInt(3)]);
                  it.seek(target);
                  assertSame(model.tailMap(target, true).entrySet().iterator(), it);
                }
              }
              assertEquals(model.size(), mem.entryCount());
              assertEquals(count == 0 ? -1 : 1, mem.smallestSequence());
              assertEquals(count == 0 ? -1 : count, mem.largestSequence());
            });
  }

  @Test
  void iterator_backwardFromAnyKey_matchesTheModelsHeadMapDescending() {
    qt().withExamples(200)
        .forAll(longs().all(), integers().between(0, 200))
        .checkAssert(
            (seed, count) -> {
              Random r = new Random(seed);
              MemTable mem = new MemTable();
              TreeMap<InternalKey, byte[]> model = fill(r, mem, count, r.nextBoolean() ? 2 : 6000);
              try (MemTableIterator it = mem.iterator()) {
                it.seekToLast();
                assertSameBackward(model.descendingMap().entrySet().iterator(), it);
                for (int q = 0; q < 10; q++) {
                  InternalKey target =
                      q % 2 == 0 && !model.isEmpty()
                          ? randomKeyOf(r, model)
                          : new InternalKey(
                              small(r, 1),
                              small(r, 0),
                              r.nextInt(count + 2),
                              ValueKind.values()[r.nextInt(3)]);
                  it.seekForPrev(target);
                  assertSameBackward(
                      model.headMap(target, true).descendingMap().entrySet().iterator(), it);
                  it.seek(target); // then forward again from the same key: a direction change
                  if (it.isValid()) {
                    InternalKey at = it.key();
                    it.prev();
                    Map.Entry<InternalKey, byte[]> before = model.lowerEntry(at);
                    assertEquals(before == null ? null : before.getKey(), it.isValid() ? it.key() : null);
                  }
                }
              }
            });
  }

  private static InternalKey randomKeyOf(Random r, TreeMap<InternalKey, byte[]> model) {
    int skip = r.nextInt(model.size());
    for (InternalKey k : model.keySet()) {
      if (skip-- == 0) {
        return k;
      }
    }
    throw new AssertionError();
  }

  private static void assertSameBackward(
      Iterator<Map.Entry<InternalKey, byte[]>> expected, MemTableIterator it) {
    while (expected.hasNext()) {
      Map.Entry<InternalKey, byte[]> e = expected.next();
      assertEquals(e.getKey(), it.key());
      assertArrayEquals(e.getValue(), it.value());
      it.prev();
    }
    assertFalse(it.isValid());
  }

  private static void assertSame(
      Iterator<Map.Entry<InternalKey, byte[]>> expected, MemTableIterator it) {
    while (expected.hasNext()) {
      Map.Entry<InternalKey, byte[]> e = expected.next();
      assertEquals(e.getKey(), it.key());
      assertArrayEquals(e.getValue(), it.value());
      it.next();
    }
    assertFalse(it.isValid());
  }
}
