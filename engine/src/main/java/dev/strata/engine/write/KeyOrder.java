package dev.strata.engine.write;

import dev.strata.engine.memtable.RowPrefix;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * The mutations of a write group in the memtable's key order, each with the sequence number the
 * group gives it: a large group is inserted so, and each insert then starts from the splice the
 * previous one left instead of searching from the head (a batch of a thousand random keys in a
 * memtable of a hundred thousand entries lands about a hundred entries apart). The order of the
 * inserts within a group is free: readers see none of the group's entries before its sequence
 * numbers are published, after the last insert.
 *
 * <p>Immutable (static methods only).
 */
public final class KeyOrder {
  /** Mutations in a group below which it is inserted as it comes: sorting would cost more. */
  public static final int MIN_SORTED_MUTATIONS = 64;

  /**
   * A mutation and its sequence number, with its row's first bytes ({@link RowPrefix}) as the
   * sort's first key: rows of one application often share their first eight bytes (a Kafka
   * store's {@code 0x01 key-…}), and a comparison the two words decide reads neither row.
   *
   * @param mutation the mutation
   * @param sequence its sequence number
   * @param high the row's {@link RowPrefix#high}
   * @param low the row's {@link RowPrefix#low}
   */
  public record Insert(Mutation mutation, long sequence, long high, long low) {
    Insert(Mutation mutation, long sequence) {
      this(mutation, sequence, RowPrefix.high(mutation.row(), 0, mutation.row().length),
          RowPrefix.low(mutation.row(), 0, mutation.row().length));
    }
  }

  /**
   * The memtable's order ({@code InternalKey.ORDER}): row and column unsigned, then newer first.
   * Sequence numbers of one group are distinct, so the kind never decides.
   */
  private static final Comparator<Insert> ORDER =
      (a, b) -> {
        int cmp = RowPrefix.compare(a.high, a.low, b.high, b.low);
        if (cmp == 0) {
          cmp = Arrays.compareUnsigned(a.mutation.row(), b.mutation.row());
        }
        if (cmp == 0) {
          cmp = Arrays.compareUnsigned(a.mutation.column(), b.mutation.column());
        }
        return cmp != 0 ? cmp : Long.compare(b.sequence, a.sequence);
      };

  private KeyOrder() {}

  /**
   * The {@code count} mutations of {@code batches} (batch i's numbered after batch i-1's, from
   * {@code firstSequence}), sorted in the memtable's order.
   */
  public static <T> Insert[] sorted(
      List<T> batches, Function<T, List<Mutation>> mutationsOf, long firstSequence, int count) {
    Insert[] inserts = new Insert[count];
    long seq = firstSequence;
    int n = 0;
    for (int i = 0; i < batches.size(); i++) { // indexed: no iterators on the write path
      List<Mutation> mutations = mutationsOf.apply(batches.get(i));
      for (int j = 0; j < mutations.size(); j++) {
        inserts[n++] = new Insert(mutations.get(j), seq++);
      }
    }
    Arrays.sort(inserts, ORDER);
    return inserts;
  }
}
