package dev.strata.bench.ycsb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads what YCSB's {@code TextMeasurementsExporter} wrote for one phase ({@code [OP], metric,
 * value} lines, HdrHistogram percentiles as {@code 50thPercentileLatency(us)} and the like) into
 * {@link YcsbRow}s: one per operation kind, plus the phase's {@link YcsbRow#OVERALL} row.
 *
 * <p>Immutable (static methods only).
 */
final class YcsbExport {
  /** The operations CoreWorkload measures; cleanup and the per-status counts are not rows. */
  private static final Set<String> OPERATIONS =
      Set.of("READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "DELETE");

  private YcsbExport() {}

  static List<YcsbRow> read(Path file, YcsbEngine engine, Workload workload, int threads)
      throws IOException {
    Map<String, Map<String, Double>> ops = new LinkedHashMap<>();
    Map<String, Long> failed = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String[] c = line.split(",\\s*", 3);
      if (c.length != 3 || !c[0].startsWith("[") || !c[0].endsWith("]")) {
        continue;
      }
      String op = c[0].substring(1, c[0].length() - 1);
      String base = op.endsWith("-FAILED") ? op.substring(0, op.length() - 7) : op;
      double value = Double.parseDouble(c[2].trim());
      if (op.endsWith("-FAILED") && c[1].equals("Operations")) {
        failed.merge(base, (long) value, Long::sum);
      } else if (!op.endsWith("-FAILED") && c[1].startsWith("Return=")
          && !c[1].equals("Return=OK")) {
        failed.merge(base, (long) value, Long::sum);
      }
      if (op.equals("OVERALL") || OPERATIONS.contains(op)) {
        ops.computeIfAbsent(op, k -> new LinkedHashMap<>()).put(c[1], value);
      }
    }
    Map<String, Double> overall = ops.remove("OVERALL");
    if (overall == null || !overall.containsKey("RunTime(ms)")) {
      throw new IOException(file + " has no [OVERALL] RunTime(ms): the phase did not finish");
    }
    long runtimeMs = overall.get("RunTime(ms)").longValue();
    List<YcsbRow> rows = new ArrayList<>();
    long totalFailed = 0;
    for (Map.Entry<String, Map<String, Double>> e : ops.entrySet()) {
      Map<String, Double> m = e.getValue();
      long n = m.getOrDefault("Operations", 0.0).longValue();
      long bad = failed.getOrDefault(e.getKey(), 0L);
      totalFailed += bad;
      rows.add(new YcsbRow(engine.label(), workload.label(), threads, e.getKey(), n,
          runtimeMs > 0 ? n * 1000.0 / runtimeMs : 0, m.get("AverageLatency(us)"),
          percentile(m, 50), percentile(m, 99), percentile(m, 99.9), m.get("MaxLatency(us)"),
          bad, runtimeMs));
    }
    // The phase's own operation count: the per-kind counts add up to more where one operation
    // is measured twice (F's read-modify-write also counts its read and its update).
    double throughput = overall.getOrDefault("Throughput(ops/sec)", 0.0);
    rows.add(0, new YcsbRow(engine.label(), workload.label(), threads, YcsbRow.OVERALL,
        Math.round(throughput * runtimeMs / 1000.0), throughput, null, null, null, null, null,
        totalFailed, runtimeMs));
    return rows;
  }

  /** The {@code p}th percentile among {@code m}'s metrics, whatever ordinal suffix names it. */
  private static Double percentile(Map<String, Double> m, double p) {
    for (Map.Entry<String, Double> e : m.entrySet()) {
      String k = e.getKey();
      int end = k.indexOf("PercentileLatency(us)");
      if (end > 0) {
        String number = k.substring(0, end).replaceAll("[a-z]+$", "");
        if (Double.parseDouble(number) == p) {
          return e.getValue();
        }
      }
    }
    return null;
  }
}
