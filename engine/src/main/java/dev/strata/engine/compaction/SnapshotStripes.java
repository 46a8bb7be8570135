package dev.strata.engine.compaction;

import java.util.Arrays;

/**
 * The live snapshots of a flush or compaction, as stripes of sequence numbers: stripe {@code i} holds
 * the sequences above snapshot {@code i - 1} and at most snapshot {@code i}, and the last stripe the
 * sequences above every snapshot (what a read of the latest state sees). A reader at a snapshot sees,
 * of each cell, the newest entry at or below it, so within one stripe only a cell's newest entry can
 * ever be read: compaction keeps that one and drops the others (RocksDB's rule).
 *
 * <p>Immutable.
 */
public final class SnapshotStripes {
  /** No live snapshot: one stripe, so only the newest entry of each cell survives. */
  public static final SnapshotStripes NONE = new SnapshotStripes(new long[0]);

  private final long[] snapshots;

  private SnapshotStripes(long[] snapshots) {
    this.snapshots = snapshots;
  }

  /** The stripes of {@code snapshots}, sequence numbers in ascending order. */
  public static SnapshotStripes of(long[] snapshots) {
    long[] copy = snapshots.clone();
    for (int i = 1; i < copy.length; i++) {
      if (copy[i - 1] >= copy[i]) {
        throw new IllegalArgumentException("snapshots not strictly ascending: " + Arrays.toString(copy));
      }
    }
    return copy.length == 0 ? NONE : new SnapshotStripes(copy);
  }

  /** The stripe of {@code sequence}: the index of the oldest snapshot that sees it. */
  public int of(long sequence) {
    int i = Arrays.binarySearch(snapshots, sequence);
    return i >= 0 ? i : -i - 1;
  }

  /**
   * True when no snapshot is older than stripe {@code stripe}: a tombstone there hides nothing any
   * reader could still see below it, so at the bottom of the tree it may go.
   */
  public boolean isOldest(int stripe) {
    return stripe == 0;
  }

  @Override
  public String toString() {
    return "SnapshotStripes" + Arrays.toString(snapshots);
  }
}
