package dev.strata.engine.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.strata.engine.memtable.SharedPrefixRows;
import dev.strata.sstable.key.InternalKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyOrder#sorted} puts a write group in {@link InternalKey#ORDER} with each mutation's own
 * sequence number, whatever its rows share: rows of 1 to 20 bytes that often start with a long run
 * of one byte (so the row prefix of the sort ties, or is decided only by its second word), ends
 * inside and past the prefix, empty and non-empty columns, and the same cell several times.
 */
final class KeyOrderProperties {
  @Test
  void sorted_isTheMemtableOrder_withEachMutationsSequence() {
    long seed = System.nanoTime();
    System.out.println("KeyOrderProperties seed " + seed);
    Random r = new Random(seed);
    for (int round = 0; round < 300; round++) {
      List<List<Mutation>> batches = new ArrayList<>();
      List<InternalKey> expected = new ArrayList<>();
      List<Mutation> byKey = new ArrayList<>();
      long first = 1 + r.nextInt(1_000);
      long seq = first;
      for (int b = 1 + r.nextInt(4); b > 0; b--) {
        List<Mutation> batch = new ArrayList<>();
        for (int m = r.nextInt(200); m > 0; m--) {
          byte[] row = r.nextInt(8) == 0 && !byKey.isEmpty()
              ? byKey.get(r.nextInt(byKey.size())).row() : SharedPrefixRows.next(r, 1, 20);
          byte[] column = r.nextBoolean() ? Mutation.EMPTY : SharedPrefixRows.next(r, 0, 3);
          Mutation mutation = r.nextInt(5) == 0 ? Mutation.delete(row, column)
              : Mutation.put(row, column, SharedPrefixRows.next(r, 0, 4));
          batch.add(mutation);
          byKey.add(mutation);
          expected.add(mutation.key(seq++));
        }
        batches.add(batch);
      }
      expected.sort(InternalKey.ORDER);
      KeyOrder.Insert[] sorted = KeyOrder.sorted(batches, b -> b, first, byKey.size());
      String what = "seed " + seed + " round " + round;
      assertEquals(expected.size(), sorted.length, what);
      for (int i = 0; i < sorted.length; i++) {
        KeyOrder.Insert in = sorted[i];
        InternalKey key = in.mutation().key(in.sequence());
        assertEquals(0, InternalKey.ORDER.compare(expected.get(i), key), what + " at " + i);
        assertSame(byKey.get((int) (in.sequence() - first)), in.mutation(), what + " at " + i);
      }
    }
  }
}
