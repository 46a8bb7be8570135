package dev.strata.engine.compaction;

import dev.strata.engine.version.TableRef;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The filter bytes of the flush and the compaction planned and not yet installed, which a job
 * planned beside them must leave room for under a memory bound: no version shows them yet. A
 * flush never waits for a compaction, so one of each may be written at once; one flush thread and
 * one compaction thread run, so each kind has one at a time and a later one replaces it.
 *
 * <p>Thread-safe: each job is one atomic reference, replaced whole.
 */
final class JobsInFlight {
  /** A flush planned to write {@code filterBytes}, or written as {@code tables} (empty before). */
  private record Flush(long[] tables, long filterBytes) {}

  /** A compaction of {@code inputs} whose outputs may hold {@code excessFilterBytes} more. */
  private record Compaction(long[] inputs, long excessFilterBytes) {}

  private final AtomicReference<Flush> flush = new AtomicReference<>();
  /** The entries of the latest flush planned: what the plan expects of the flushes to come. */
  private volatile long flushEntries;
  private final AtomicReference<Compaction> compaction = new AtomicReference<>();

  /** A flush of {@code entries} entries is being planned. */
  void flushEntries(long entries) {
    flushEntries = entries;
  }

  /** The entries of the latest flush planned; 0 before the first. */
  long flushEntries() {
    return flushEntries;
  }

  /** A flush is about to write filters of about {@code filterBytes}. */
  void flushPlanned(long filterBytes) {
    flush.set(new Flush(new long[0], filterBytes));
  }

  /** The flush wrote {@code tables}; it installs them next. */
  void flushWritten(List<TableRef> tables) {
    long[] numbers = new long[tables.size()];
    long bytes = 0;
    for (int i = 0; i < numbers.length; i++) {
      numbers[i] = tables.get(i).metadata().fileNumber();
      bytes += Math.max(0, tables.get(i).metadata().filterBytes());
    }
    flush.set(new Flush(numbers, bytes));
  }

  /**
   * A compaction of the tables numbered {@code inputs} is about to write filters of {@code
   * excessFilterBytes} more than its inputs hold (0 when fewer).
   */
  void compactionPlanned(long[] inputs, long excessFilterBytes) {
    compaction.set(new Compaction(inputs.clone(), Math.max(0, excessFilterBytes)));
  }

  /** The filter bytes of the flush that {@code current} does not show yet: a compaction's room. */
  long unseenFlush(TreeShape current) {
    Flush f = flush.get();
    if (f == null) {
      return 0;
    }
    if (f.tables().length > 0 && current.holdsAny(f.tables())) {
      flush.compareAndSet(f, null); // installed: the version counts it now
      return 0;
    }
    return f.filterBytes();
  }

  /**
   * What the compaction whose inputs {@code current} still holds (not installed) will add: a
   * flush's room.
   */
  long uninstalledCompaction(TreeShape current) {
    Compaction c = compaction.get();
    return c != null && current.holdsAny(c.inputs()) ? c.excessFilterBytes() : 0;
  }
}
