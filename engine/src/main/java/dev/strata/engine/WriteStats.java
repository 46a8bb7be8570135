package dev.strata.engine;

/**
 * Counters of the write path, cumulative since open: how well concurrent writers share log writes
 * (group commit). With {@code syncWrites(true)} every log write is an fsync, so {@code writes /
 * logWrites} is how many acknowledged writes each fsync carried.
 *
 * <p>Immutable.
 *
 * @param writes calls of put, delete, deleteRow and write(WriteBatch) that were acknowledged
 * @param logWrites appends to the log: each carries the records of one or more writers
 * @param logSyncs of those, the ones followed by an fsync ({@code syncWrites(true)})
 */
public record WriteStats(long writes, long logWrites, long logSyncs) {}
