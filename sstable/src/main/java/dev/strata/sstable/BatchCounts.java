package dev.strata.sstable;

import dev.strata.sstable.cache.BlockKind;

/**
 * A batch's counts waiting to be added to a table's {@link ReadCounters}: added once per run of
 * tables that share one counters object (an engine's tables all share one), not per table and
 * never per key, since each add is an atomic, locked instruction that would make the batch's reads
 * after it wait for those before it. Tables consulted and skipped, and cache hits by kind.
 *
 * <p>Not thread-safe: one per thread, reused by its batches.
 */
final class BatchCounts {
  /** The counters the pending counts belong to; null when none are pending. */
  private ReadCounters counting;
  private long tablesAdmitted;
  private long tablesSkipped;
  /** Cache hits by {@link BlockKind#ordinal}. */
  private final long[] hits = new long[BlockKind.values().length];

  /** Counts a table's {@code admitted} and {@code skipped} probes towards {@code counters}. */
  void tables(ReadCounters counters, long admitted, long skipped) {
    countInto(counters);
    tablesAdmitted += admitted;
    tablesSkipped += skipped;
  }

  /** Counts {@code n} cache hits on blocks of {@code kind} towards {@code counters}. */
  void hits(ReadCounters counters, BlockKind kind, long n) {
    countInto(counters);
    hits[kind.ordinal()] += n;
  }

  private void countInto(ReadCounters counters) {
    if (counters != counting) {
      flush();
      counting = counters;
    }
  }

  /** Adds the pending counts to their counters; the batch calls it last, also when a table failed. */
  void flush() {
    if (counting == null) {
      return;
    }
    counting.countTables(tablesAdmitted, tablesSkipped);
    for (BlockKind kind : BlockKind.values()) {
      if (hits[kind.ordinal()] != 0) {
        counting.countHits(kind, hits[kind.ordinal()]);
        hits[kind.ordinal()] = 0;
      }
    }
    counting = null;
    tablesAdmitted = 0;
    tablesSkipped = 0;
  }
}
