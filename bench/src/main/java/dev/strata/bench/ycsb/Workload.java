package dev.strata.bench.ycsb;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The phases of a YCSB run in the order YCSB recommends (load, A, B, C, F, D; reload; E), with
 * the CoreWorkload settings of YCSB 0.17.0's {@code workloads/workload[a-f]} files. Record and
 * operation counts are the run's and are set for every phase: 0.17.0 starts no client thread for
 * an operation count of 0.
 *
 * <p>Immutable.
 */
enum Workload {
  /** Inserts every record into an empty database. */
  LOAD("load", true, "read", 0, 0, 0, 0, 0, "zipfian"),
  /** Update heavy: 50 % reads, 50 % updates, zipfian. */
  A("a", false, "read", 0.5, 0.5, 0, 0, 0, "zipfian"),
  /** Read mostly: 95 % reads, 5 % updates, zipfian. */
  B("b", false, "read", 0.95, 0.05, 0, 0, 0, "zipfian"),
  /** Read only, zipfian. */
  C("c", false, "read", 1, 0, 0, 0, 0, "zipfian"),
  /** Read-modify-write: 50 % reads, 50 % read-modify-writes, zipfian. */
  F("f", false, "read", 0.5, 0, 0, 0, 0.5, "zipfian"),
  /** Read latest: 95 % reads, 5 % inserts, the newest records most. */
  D("d", false, "read", 0.95, 0, 0, 0.05, 0, "latest"),
  /** The database deleted and loaded again, so E starts from a fresh tree as YCSB advises. */
  LOAD_E("load-e", true, "read", 0, 0, 0, 0, 0, "zipfian"),
  /** Short ranges: 95 % scans of 1-100 records, 5 % inserts, zipfian start keys. */
  E("e", false, "scan", 0, 0, 0.95, 0.05, 0, "zipfian");

  private final String label;
  private final boolean load;
  private final String mainOperation;
  private final double read;
  private final double update;
  private final double scan;
  private final double insert;
  private final double readModifyWrite;
  private final String distribution;

  Workload(String label, boolean load, String mainOperation, double read, double update,
      double scan, double insert, double readModifyWrite, String distribution) {
    this.label = label;
    this.load = load;
    this.mainOperation = mainOperation;
    this.read = read;
    this.update = update;
    this.scan = scan;
    this.insert = insert;
    this.readModifyWrite = readModifyWrite;
    this.distribution = distribution;
  }

  /** The name in the results: load, a-f, load-e. */
  String label() {
    return label;
  }

  /** Whether this phase loads a fresh database ({@code -load}) rather than running operations. */
  boolean isLoad() {
    return load;
  }

  /** The workload named {@code label}; IllegalArgumentException otherwise. */
  static Workload parse(String label) {
    for (Workload w : values()) {
      if (w.label.equalsIgnoreCase(label.trim())) {
        return w;
      }
    }
    throw new IllegalArgumentException("unknown workload '" + label
        + "'; known: load, a, b, c, f, d, load-e, e");
  }

  /** The CoreWorkload properties of this phase for {@code records} and {@code operations}. */
  Map<String, String> properties(long records, long operations, int fieldCount,
      int fieldLength) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("workload", "site.ycsb.workloads.CoreWorkload");
    p.put("recordcount", Long.toString(records));
    p.put("operationcount", Long.toString(operations));
    p.put("fieldcount", Integer.toString(fieldCount));
    p.put("fieldlength", Integer.toString(fieldLength));
    p.put("readallfields", "true");
    p.put("readproportion", Double.toString(read));
    p.put("updateproportion", Double.toString(update));
    p.put("scanproportion", Double.toString(scan));
    p.put("insertproportion", Double.toString(insert));
    p.put("readmodifywriteproportion", Double.toString(readModifyWrite));
    p.put("requestdistribution", distribution);
    if (scan > 0) {
      p.put("maxscanlength", "100");
      p.put("scanlengthdistribution", "uniform");
    }
    return p;
  }

  /** The operation this workload is mostly made of, for the plot of p99 per workload. */
  String mainOperation() {
    return load ? "insert" : mainOperation;
  }
}
