package dev.strata.engine;

/**
 * Counters of the write path, cumulative since open: how well concurrent writers share log writes
 * (group commit), and how long writers were held back so compaction could keep up (write stalls).
 * With {@code syncWrites(true)} every log write is an fsync, so {@code writes / logWrites} is how
 * many acknowledged writes each fsync carried.
 *
 * <p>A slowdown delays one write group (and so every writer in it) by a few microseconds to
 * milliseconds while level 0 holds at least {@code level0SlowdownTrigger} tables or pending
 * compaction bytes pass the soft limit. A stop holds writers until compaction or a flush frees
 * room: level 0 at {@code level0StopTrigger} tables, pending compaction bytes at the hard limit, or
 * every memtable full and waiting for its flush.
 *
 * <p>Immutable.
 *
 * @param writes calls of put, delete, deleteRow and write(WriteBatch) that were acknowledged
 * @param logWrites appends to the log: each carries the records of one or more writers
 * @param logSyncs of those, the ones followed by an fsync ({@code syncWrites(true)})
 * @param slowdowns write groups delayed by a slowdown
 * @param slowdownNanos nanoseconds those write groups were delayed, summed
 * @param stops times the writer at the head of the queue stopped to wait for compaction or flush
 * @param stopNanos nanoseconds spent stopped, summed
 */
public record WriteStats(
    long writes,
    long logWrites,
    long logSyncs,
    long slowdowns,
    long slowdownNanos,
    long stops,
    long stopNanos) {}
