package dev.strata.bench.ycsb;

import dev.strata.bench.common.Cells;
import java.util.List;

/**
 * One line of {@code results.csv}: one operation of one phase of one engine, or the phase as a
 * whole ({@link #OVERALL}: throughput of all its operations, no latencies).
 *
 * @param engine strata or rocksdb
 * @param workload load, a-f, load-e
 * @param threads client threads
 * @param operation YCSB's name (READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE) or OVERALL
 * @param operations operations done
 * @param opsPerSec operations per second over the phase's run time
 * @param avgUs mean latency, microseconds; null for OVERALL
 * @param p50Us median latency; null for OVERALL
 * @param p99Us 99th percentile latency; null for OVERALL
 * @param p999Us 99.9th percentile latency; null for OVERALL
 * @param maxUs longest operation; null for OVERALL
 * @param failed operations whose status was not OK
 * @param runtimeMs the phase's run time as YCSB measured it (its threads' start to their end,
 *     the engine's close included)
 *
 * <p>Immutable.
 */
record YcsbRow(String engine, String workload, int threads, String operation, long operations,
    double opsPerSec, Double avgUs, Double p50Us, Double p99Us, Double p999Us, Double maxUs,
    long failed, long runtimeMs) {

  /** The operation name of a phase's whole-phase row. */
  static final String OVERALL = "OVERALL";

  static final List<String> HEADER = List.of("engine", "workload", "threads", "operation",
      "operations", "ops_per_sec", "avg_us", "p50_us", "p99_us", "p999_us", "max_us", "failed",
      "runtime_ms");

  String csv() {
    return String.join(",", engine, workload, Integer.toString(threads), operation,
        Long.toString(operations), Cells.format(opsPerSec), cell(avgUs), cell(p50Us), cell(p99Us),
        cell(p999Us), cell(maxUs), Long.toString(failed), Long.toString(runtimeMs));
  }

  static YcsbRow parse(String line) {
    String[] c = line.split(",", -1);
    if (c.length != HEADER.size()) {
      throw new IllegalArgumentException(c.length + " cells where " + HEADER.size()
          + " are expected: " + line);
    }
    return new YcsbRow(c[0], c[1], Integer.parseInt(c[2]), c[3], Long.parseLong(c[4]),
        Double.parseDouble(c[5]), number(c[6]), number(c[7]), number(c[8]), number(c[9]),
        number(c[10]), Long.parseLong(c[11]), Long.parseLong(c[12]));
  }

  /** Whether {@code o} measured the same thing as this row on another engine. */
  boolean samePoint(YcsbRow o) {
    return workload.equals(o.workload) && threads == o.threads && operation.equals(o.operation);
  }

  private static String cell(Double v) {
    return v == null ? "" : Cells.format(v);
  }

  private static Double number(String s) {
    return s.isEmpty() ? null : Double.valueOf(s);
  }
}
