package dev.strata.bench.readamp;

import java.util.Objects;

/**
 * One row of {@code results.csv}: one (engine, bloom, shape, phase, tables, query) measurement.
 *
 * @param setup engine and bloom configuration
 * @param bitsPerKey configured filter bits per key; null for setups without a filter
 * @param shape narrow or wide rows
 * @param phase {@code l0} (N overlapping level-0 tables), {@code compacted} (after a full
 *     compaction) or {@code fpr_sweep}
 * @param tables live tables during the pass
 * @param rows rows loaded
 * @param columnsPerRow columns of every loaded row
 * @param query the query kind
 * @param gets reads in the measured pass
 * @param opsPerSec reads per second over the measured pass (one thread)
 * @param p50Us median read latency, microseconds (HdrHistogram)
 * @param p99Us 99th percentile read latency, microseconds
 * @param p999Us 99.9th percentile read latency, microseconds
 * @param metrics the engine's counters per read
 * @param fprModel the model false-positive rate of the live tables' filters; null without filter
 * @param filterBitsPerKey filter bits on disk per loaded cell
 * @param loadKeysPerSec cells per second of the load (puts and flushes)
 * @param ratioToRocksDb Strata's ops/s over its RocksDB counterpart's; null for RocksDB rows
 *
 * <p>Immutable.
 */
record ResultRow(
    Setup setup,
    Double bitsPerKey,
    Shape shape,
    String phase,
    int tables,
    long rows,
    int columnsPerRow,
    QueryKind query,
    long gets,
    double opsPerSec,
    double p50Us,
    double p99Us,
    double p999Us,
    PassMetrics metrics,
    Double fprModel,
    double filterBitsPerKey,
    double loadKeysPerSec,
    Double ratioToRocksDb) {

  /** Phase label of measurements on N overlapping level-0 tables. */
  static final String L0 = "l0";

  /** Phase label of measurements after a full compaction. */
  static final String COMPACTED = "compacted";

  /** Phase label of the false-positive sweep over bits/key. */
  static final String FPR_SWEEP = "fpr_sweep";

  /** This row with {@code ratio} as its throughput ratio to RocksDB. */
  ResultRow withRatio(Double ratio) {
    return new ResultRow(setup, bitsPerKey, shape, phase, tables, rows, columnsPerRow, query, gets,
        opsPerSec, p50Us, p99Us, p999Us, metrics, fprModel, filterBitsPerKey, loadKeysPerSec, ratio);
  }

  /** True when {@code other} measured the same workload point (all but the setup). */
  boolean samePoint(ResultRow other) {
    // After a full compaction each engine has one run, whatever number of files holds it.
    boolean sameTables = phase.equals(COMPACTED) || tables == other.tables;
    return shape == other.shape && phase.equals(other.phase) && sameTables
        && query == other.query && Objects.equals(bitsPerKey, other.bitsPerKey);
  }
}
