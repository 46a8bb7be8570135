package dev.strata.bench.dbbench;

import dev.strata.bench.common.Charts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG plots of a run (xchart), from the warm-cache rows: read throughput against reader
 * threads, latency percentiles per engine, and bytes read per operation, one panel per read
 * benchmark (per step of a benchmark listed twice). A panel with nothing measured says so rather
 * than being left out.
 *
 * <p>Immutable (static methods only).
 */
final class DbBenchPlots {
  /** -log10(1 - p) of the percentiles plotted. */
  private static final double[] NINES = {Math.log10(2), 2, 3, 4};
  private static final Column[] PERCENTILE_COLUMNS =
      {Column.P50_US, Column.P99_US, Column.P999_US, Column.P9999_US};

  private DbBenchPlots() {}

  /** Writes the plots of {@code rows} into {@code out}; returns their paths (none without reads). */
  static List<Path> write(Path out, List<Result> rows) throws IOException {
    List<Result> reads = rows.stream()
        .filter(r -> r.benchmark().isRead() && r.cacheState().equals("warm")).toList();
    if (reads.isEmpty()) {
      return List.of();
    }
    Map<String, List<Result>> benchmarks = panels(reads);
    Set<EngineKind> engines = new LinkedHashSet<>();
    reads.forEach(r -> engines.add(r.engine()));
    List<Path> written = new ArrayList<>();
    written.add(throughput(out.resolve("throughput_vs_threads.png"), benchmarks, engines));
    written.add(latency(out.resolve("latency_percentiles.png"), benchmarks, engines));
    written.add(bytesRead(out.resolve("bytes_read_per_op.png"), benchmarks, engines));
    return written;
  }

  /**
   * The read rows by panel, in the order they ran: one per benchmark, or per step where a
   * benchmark was listed more than once (readrandom before and after an overwrite).
   */
  private static Map<String, List<Result>> panels(List<Result> reads) {
    Map<Benchmark, Set<String>> steps = new HashMap<>();
    reads.forEach(r -> steps.computeIfAbsent(r.benchmark(), b -> new HashSet<>())
        .add(r.get(Column.STEP)));
    Map<String, List<Result>> panels = new LinkedHashMap<>();
    for (Result r : reads) {
      String name = r.benchmark().label() + (steps.get(r.benchmark()).size() > 1
          ? " (step " + r.get(Column.STEP) + ")" : "");
      panels.computeIfAbsent(name, n -> new ArrayList<>()).add(r);
    }
    return panels;
  }

  private static Path throughput(Path file, Map<String, List<Result>> benchmarks,
      Set<EngineKind> engines) throws IOException {
    List<Chart<?, ?>> panels = new ArrayList<>();
    for (Map.Entry<String, List<Result>> b : benchmarks.entrySet()) {
      XYChart chart = new XYChartBuilder().width(Charts.PANEL_WIDTH).height(Charts.PANEL_HEIGHT)
          .title(b.getKey()).xAxisTitle("reader threads").yAxisTitle("ops/s").build();
      Charts.style(chart);
      for (EngineKind e : engines) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (Result r : b.getValue()) {
          if (r.engine() == e && r.number(Column.OPS_PER_SEC) != null) {
            x.add((double) r.threads());
            y.add(r.number(Column.OPS_PER_SEC));
          }
        }
        if (!x.isEmpty()) {
          chart.addSeries(e.label(), x, y).setMarker(SeriesMarkers.CIRCLE);
        }
      }
      placeholder(chart);
      panels.add(chart);
    }
    return Charts.grid(file, panels, 3);
  }

  private static Path latency(Path file, Map<String, List<Result>> benchmarks,
      Set<EngineKind> engines) throws IOException {
    List<Chart<?, ?>> panels = new ArrayList<>();
    for (Map.Entry<String, List<Result>> b : benchmarks.entrySet()) {
      int maxThreads = b.getValue().stream().mapToInt(Result::threads).max().orElse(1);
      // x is the number of nines of the percentile (p50 = 0.3, p99 = 2, p99.99 = 4), so the tail
      // percentiles sit evenly spaced and the y axis is logarithmic.
      XYChart chart = new XYChartBuilder().width(Charts.PANEL_WIDTH).height(Charts.PANEL_HEIGHT)
          .title(b.getKey() + ", " + maxThreads + " thread(s)")
          .xAxisTitle("percentile: -log10(1 - p) (2 = p99, 4 = p99.99)")
          .yAxisTitle("latency, us (log)").build();
      Charts.style(chart);
      chart.getStyler().setYAxisLogarithmic(true);
      for (EngineKind e : engines) {
        for (Result r : b.getValue()) {
          if (r.engine() == e && r.threads() == maxThreads) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < PERCENTILE_COLUMNS.length; i++) {
              Double v = r.number(PERCENTILE_COLUMNS[i]);
              if (v != null && v > 0) {
                x.add(NINES[i]);
                y.add(v);
              }
            }
            if (!x.isEmpty()) {
              chart.addSeries(e.label(), x, y).setMarker(SeriesMarkers.CIRCLE);
            }
          }
        }
      }
      if (chart.getSeriesMap().isEmpty()) {
        chart.addSeries("nothing measured", List.of(1.0), List.of(1.0));
      }
      panels.add(chart);
    }
    return Charts.grid(file, panels, 3);
  }

  private static Path bytesRead(Path file, Map<String, List<Result>> benchmarks,
      Set<EngineKind> engines) throws IOException {
    List<Chart<?, ?>> panels = new ArrayList<>();
    for (Column c : List.of(Column.BYTES_READ_PER_OP, Column.RCHAR_PER_OP)) {
      CategoryChart chart = new CategoryChartBuilder().width(Charts.PANEL_WIDTH)
          .height(Charts.PANEL_HEIGHT)
          .title(c == Column.BYTES_READ_PER_OP ? "bytes read per op (engine counters)"
              : "bytes read per op (/proc/self/io rchar)")
          .xAxisTitle("benchmark, fewest threads")
          .yAxisTitle("bytes per op (log; under 1 drawn as 1)").build();
      Charts.style(chart);
      // Logarithmic: one engine may read a hundred times more than the other, which would flatten
      // the smaller bars to nothing on a linear axis.
      chart.getStyler().setYAxisLogarithmic(true);
      chart.getStyler().setYAxisMin(1.0); // bars otherwise start at 0, which a log axis rejects
      for (EngineKind e : engines) {
        List<String> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (Map.Entry<String, List<Result>> b : benchmarks.entrySet()) {
          int minThreads = b.getValue().stream().mapToInt(Result::threads).min().orElse(1);
          for (Result r : b.getValue()) {
            if (r.engine() == e && r.threads() == minThreads && r.number(c) != null) {
              x.add(b.getKey());
              y.add(Math.max(1, r.number(c)));
            }
          }
        }
        if (!x.isEmpty()) {
          chart.addSeries(e.label(), x, y);
        }
      }
      if (chart.getSeriesMap().isEmpty()) {
        chart.addSeries("nothing measured", List.of("-"), List.of(1.0));
      }
      panels.add(chart);
    }
    return Charts.grid(file, panels, 2);
  }

  private static void placeholder(XYChart chart) {
    if (chart.getSeriesMap().isEmpty()) {
      chart.addSeries("nothing measured", List.of(0.0), List.of(0.0));
    }
  }
}
