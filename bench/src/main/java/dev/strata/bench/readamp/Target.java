package dev.strata.bench.readamp;

import java.io.IOException;

/**
 * One engine under test, opened on its own directory: the few operations the benchmark runs and
 * the counters it reads. Each implementation maps its engine's own counters to {@link PassMetrics}
 * and leaves out (null) what its engine cannot report.
 *
 * <p>Not thread-safe: the benchmark drives a target from one thread, its one reader.
 */
interface Target extends AutoCloseable {
  /** Writes cell (row, column) through the log (not synced) into the memtable. */
  void put(byte[] row, byte[] column, byte[] value) throws IOException;

  /** Writes the memtable out as one level-0 table and waits for it. */
  void flush() throws IOException;

  /** Compacts every table into one sorted run at the last level and waits for it. */
  void compact() throws IOException;

  /** Closes and opens the database again, so its block cache starts empty. */
  void reopen() throws IOException;

  /** The value of (row, column), or null. */
  byte[] get(byte[] row, byte[] column) throws IOException;

  /** Reads every column of {@code row}; returns how many there were. */
  int getRow(byte[] row) throws IOException;

  /** The engine's cumulative read counters now. */
  Counters counters() throws IOException;

  /** Per-Get metrics of a pass of {@code gets} reads of {@code kind} between two snapshots. */
  PassMetrics metrics(QueryKind kind, Counters before, Counters after, long gets);

  /** Live tables now, over all levels. */
  int tableCount() throws IOException;

  /** Filter bytes in all live tables now (what the engine reports as its filter size on disk). */
  long filterBytesOnDisk() throws IOException;

  /** The model's false-positive rate of the filters of the live tables, or null without filters. */
  Double fprModel() throws IOException;

  @Override
  void close() throws IOException;

  /**
   * A cumulative snapshot of the counters a target exposes; each target documents which of its
   * engine's counters fills which field. Fields an engine has no counter for stay zero and are
   * never reported.
   *
   * <p>Immutable.
   */
  record Counters(
      long consulted,
      long skipped,
      long falsePositives,
      long positives,
      long truePositives,
      long filterMisses,
      long filterHits,
      long dataMisses,
      long dataHits,
      long bytesRead,
      long seekFiltered,
      long seekFilterMatches,
      long seekFilterMatchesUseful) {}
}
