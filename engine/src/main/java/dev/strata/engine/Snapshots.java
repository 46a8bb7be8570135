package dev.strata.engine;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The live {@link Snapshot}s of one database, in the order they were taken (which is also the order
 * of their sequence numbers). Flushes and compactions ask for {@link #sequences()} before they start
 * and keep, for each, the newest version of every cell that it can see.
 *
 * <p>Why taking a snapshot and listing them share one lock: a snapshot reads the last sequence and
 * registers in one step, so a flush or compaction either lists it, or started before it was taken;
 * then every entry of its inputs is at or below the snapshot's sequence, and the newest version of
 * each cell, which every flush and compaction keeps, is the one the snapshot sees.
 *
 * <p>Thread-safe.
 */
final class Snapshots {
  /** Live snapshots in the order taken: the first is the oldest. */
  private final LinkedHashSet<Snapshot> live = new LinkedHashSet<>();

  private boolean closed;

  /** Registers a snapshot at {@code lastSequence}, read under this registry's lock. */
  synchronized Snapshot take(LongSupplier lastSequence) {
    if (closed) {
      throw new IllegalStateException("database is closed");
    }
    Snapshot s = new Snapshot(this, lastSequence.getAsLong(), System.nanoTime());
    live.add(s);
    return s;
  }

  synchronized void release(Snapshot s) {
    live.remove(s);
  }

  /** The distinct sequence numbers of the live snapshots, ascending. */
  synchronized long[] sequences() {
    List<Long> out = new ArrayList<>(live.size());
    long last = -1;
    for (Snapshot s : live) {
      if (s.sequence() != last) {
        out.add(s.sequence());
        last = s.sequence();
      }
    }
    return out.stream().mapToLong(Long::longValue).toArray();
  }

  /** Snapshots live now. */
  synchronized int count() {
    return live.size();
  }

  /** How long the oldest live snapshot has been held, in milliseconds; 0 when there is none. */
  synchronized long oldestAgeMillis() {
    if (live.isEmpty()) {
      return 0;
    }
    return (System.nanoTime() - live.iterator().next().createdNanos()) / 1_000_000;
  }

  /**
   * The sequence a read through {@code s} sees. A snapshot that is closed, or whose database is
   * closed, is refused as used after close whichever database it is given to (also its own
   * directory reopened): that is how the API names the misuse. A live snapshot of another open
   * database is refused as a wrong argument: its sequence numbers mean nothing here.
   *
   * @throws NullPointerException when {@code s} is null
   * @throws IllegalStateException when {@code s} or the database it was taken from is closed
   * @throws IllegalArgumentException when {@code s} is live and belongs to another database
   */
  long sequenceOf(Snapshot s) {
    Objects.requireNonNull(s, "snapshot");
    if (s.isClosed()) {
      throw new IllegalStateException("snapshot is closed: " + s);
    }
    if (s.owner().isClosed()) {
      throw new IllegalStateException("the snapshot's database is closed, and its snapshots: " + s);
    }
    if (s.owner() != this) {
      throw new IllegalArgumentException("snapshot of another database: " + s);
    }
    return s.sequence();
  }

  /** Whether the database closed, invalidating every snapshot it gave. */
  synchronized boolean isClosed() {
    return closed;
  }

  /** Invalidates every snapshot: the database is closing. */
  synchronized void closeAll() {
    closed = true;
    live.clear();
  }
}
