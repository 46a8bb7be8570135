package dev.strata.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.GetResult;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.UnsignedBytes;
import dev.strata.sstable.key.ValueKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link SortedGroup} ranks a write group in {@link InternalKey#ORDER} with each entry's own
 * sequence number, and {@link MemTable#addSorted} holds what adding the entries one by one would,
 * whatever the rows share: rows of 1 to 20 bytes that often start with a long run of one byte (so
 * the row prefix ties, or is decided only by its second word; {@link SharedPrefixRows}), ends
 * inside and past the prefix, empty and non-empty columns, the same cell several times in a group,
 * rows alike in their whole prefix, deletes and row tombstones, groups from one entry to hundreds,
 * and groups that arrive already in order or in reverse.
 */
final class SortedGroupProperties {
  /** An entry of a generated group. */
  private record Entry(ValueKind kind, byte[] row, byte[] column, byte[] value) {}

  private static List<Entry> group(Random r, List<Entry> earlier, int size) {
    List<Entry> entries = new ArrayList<>();
    // A fifth of the groups: rows alike in their whole prefix, differing only after it.
    byte[] shared = r.nextInt(5) == 0 ? SharedPrefixRows.next(r, RowPrefix.BYTES, RowPrefix.BYTES)
        : null;
    for (int i = 0; i < size; i++) {
      Entry again = null;
      if (r.nextInt(6) == 0 && !(earlier.isEmpty() && entries.isEmpty())) {
        List<Entry> from = entries.isEmpty() || (!earlier.isEmpty() && r.nextBoolean())
            ? earlier : entries;
        again = from.get(r.nextInt(from.size()));
      }
      byte[] row = again != null ? again.row()
          : shared != null ? withTail(shared, SharedPrefixRows.next(r, 0, 5))
          : SharedPrefixRows.next(r, 1, SharedPrefixRows.MAX_BYTES);
      byte[] column = again != null ? again.column()
          : r.nextBoolean() ? new byte[0] : SharedPrefixRows.next(r, 0, 3);
      int dice = r.nextInt(10);
      if (dice == 0) {
        entries.add(new Entry(ValueKind.DELETE_ROW, row, new byte[0], new byte[0]));
      } else if (dice < 3) {
        entries.add(new Entry(ValueKind.DELETE, row, column, new byte[0]));
      } else {
        entries.add(new Entry(ValueKind.PUT, row, column, SharedPrefixRows.next(r, 0, 4)));
      }
    }
    switch (r.nextInt(4)) {
      case 0 -> entries.sort((a, b) -> UnsignedBytes.compare(a.row(), b.row()));
      case 1 -> entries.sort((a, b) -> UnsignedBytes.compare(b.row(), a.row()));
      default -> { } // as generated
    }
    return entries;
  }

  private static byte[] withTail(byte[] head, byte[] tail) {
    byte[] row = Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, row, head.length, tail.length);
    return row;
  }

  private static SortedGroup sorted(SortedGroup g, List<Entry> entries, long first) {
    g.clear(first);
    for (Entry e : entries) {
      g.add(e.kind(), e.row(), e.column(), e.value());
    }
    g.sort();
    return g;
  }

  @Test
  void sort_ranksTheMemtableOrder_withEachEntrysSequence() {
    long seed = System.nanoTime();
    System.out.println("SortedGroupProperties.sort seed " + seed);
    Random r = new Random(seed);
    SortedGroup g = new SortedGroup(); // reused: clear must leave nothing behind
    for (int round = 0; round < 400; round++) {
      long first = 1 + r.nextInt(1_000_000);
      List<Entry> entries = group(r, List.of(), 1 + r.nextInt(r.nextBoolean() ? 20 : 600));
      sorted(g, entries, first);
      List<InternalKey> expected = new ArrayList<>();
      for (int i = 0; i < entries.size(); i++) {
        Entry e = entries.get(i);
        expected.add(new InternalKey(e.row(), e.column(), first + i, e.kind()));
      }
      expected.sort(InternalKey.ORDER);
      String what = "seed " + seed + " round " + round;
      assertEquals(entries.size(), g.size(), what);
      assertEquals(first, g.firstSequence(), what);
      assertEquals(first + entries.size() - 1, g.lastSequence(), what);
      for (int rank = 0; rank < g.size(); rank++) {
        int e = g.entry(rank);
        InternalKey key = new InternalKey(g.row(e), g.column(e), g.sequence(e), g.kind(e));
        assertEquals(0, InternalKey.ORDER.compare(expected.get(rank), key), what + " rank " + rank);
        Entry added = entries.get((int) (g.sequence(e) - first));
        assertSame(added.row(), g.row(e), what);
        assertSame(added.value(), g.value(e), what);
      }
    }
  }

  @Test
  void addSorted_holdsWhatAddingEachEntryHolds_groupsBesideSingleAdds() {
    long seed = System.nanoTime();
    System.out.println("SortedGroupProperties.addSorted seed " + seed);
    Random r = new Random(seed);
    SortedGroup g = new SortedGroup();
    for (int round = 0; round < 30; round++) {
      MemTable grouped = new MemTable();
      MemTable single = new MemTable();
      TreeMap<InternalKey, byte[]> model = new TreeMap<>(InternalKey.ORDER);
      List<Entry> written = new ArrayList<>();
      long seq = 1;
      for (int step = 1 + r.nextInt(12); step > 0; step--) {
        List<Entry> entries = group(r, written, 1 + r.nextInt(r.nextBoolean() ? 8 : 700));
        boolean asGroup = r.nextInt(4) != 0; // else one by one in the group's order, as small ones
        if (asGroup) {
          grouped.addSorted(sorted(g, entries, seq));
        }
        for (int i = 0; i < entries.size(); i++) {
          Entry e = entries.get(i);
          if (!asGroup) {
            grouped.add(e.kind(), e.row(), e.column(), seq + i, e.value());
          }
          single.add(e.kind(), e.row(), e.column(), seq + i, e.value());
          model.put(new InternalKey(e.row(), e.column(), seq + i, e.kind()), e.value());
        }
        written.addAll(entries);
        seq += entries.size();
      }
      g.clear(0);
      String what = "seed " + seed + " round " + round;
      assertEquals(single.entryCount(), grouped.entryCount(), what);
      assertEquals(single.smallestSequence(), grouped.smallestSequence(), what);
      assertEquals(single.largestSequence(), grouped.largestSequence(), what);
      try (MemTableIterator it = grouped.iterator()) {
        ModelWalk.assertWalksAs(model, it, what);
      }
      for (Entry e : written) {
        for (long snapshot : new long[] {InternalKey.MAX_SEQUENCE, 1 + r.nextInt((int) seq)}) {
          assertSameAnswer(single.get(e.row(), e.column(), snapshot),
              grouped.get(e.row(), e.column(), snapshot), what);
        }
      }
      byte[] absent = SharedPrefixRows.next(r, 1, SharedPrefixRows.MAX_BYTES);
      assertSameAnswer(single.get(absent, new byte[0], InternalKey.MAX_SEQUENCE),
          grouped.get(absent, new byte[0], InternalKey.MAX_SEQUENCE), what);
      grouped.release();
      single.release();
    }
  }

  @Test
  void addSorted_ofAFrozenMemtable_throwsAndAddsNothing() {
    MemTable mem = new MemTable();
    SortedGroup g = new SortedGroup();
    g.clear(5);
    g.add(ValueKind.PUT, new byte[] {1}, new byte[0], new byte[] {2});
    g.sort();
    mem.freeze();
    try {
      mem.addSorted(g);
      throw new AssertionError("added to a frozen memtable");
    } catch (IllegalStateException expected) {
      assertTrue(mem.isEmpty());
    }
    assertNull(mem.newestRowTombstone(new byte[] {1}, InternalKey.MAX_SEQUENCE));
    mem.release();
  }

  private static void assertSameAnswer(GetResult expected, GetResult actual, String what) {
    assertEquals(expected.cell(), actual.cell(), what);
    assertArrayEquals(expected.value(), actual.value(), what);
    assertEquals(expected.rowTombstoneSequence(), actual.rowTombstoneSequence(), what);
  }
}
