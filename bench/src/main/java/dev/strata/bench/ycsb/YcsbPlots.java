package dev.strata.bench.ycsb;

import dev.strata.bench.common.Charts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * {@code ycsb.png}: for each thread count, the throughput of every phase and the p99 of each
 * phase's main operation (reads; inserts for loads; scans for E), one bar per engine.
 *
 * <p>Immutable (static methods only).
 */
final class YcsbPlots {
  private YcsbPlots() {}

  static List<Path> write(Path out, List<YcsbRow> rows) throws IOException {
    Set<Integer> threads = new LinkedHashSet<>();
    rows.forEach(r -> threads.add(r.threads()));
    List<Chart<?, ?>> panels = new ArrayList<>();
    for (int t : threads) {
      panels.add(chart(rows, t, true));
      panels.add(chart(rows, t, false));
    }
    return List.of(Charts.grid(out.resolve("ycsb.png"), panels, 2));
  }

  private static CategoryChart chart(List<YcsbRow> rows, int threads, boolean throughput) {
    CategoryChart chart = new CategoryChartBuilder().width(Charts.PANEL_WIDTH)
        .height(Charts.PANEL_HEIGHT)
        .title((throughput ? "throughput" : "p99 of the main operation") + ", " + threads
            + " client thread(s)")
        .xAxisTitle("workload").yAxisTitle(throughput ? "ops/s" : "p99, us").build();
    Charts.style(chart);
    for (YcsbEngine e : YcsbEngine.values()) {
      List<String> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (Workload w : Workload.values()) {
        String op = throughput ? YcsbRow.OVERALL : w.mainOperation().toUpperCase(Locale.ROOT);
        for (YcsbRow r : rows) {
          Double v = throughput ? Double.valueOf(r.opsPerSec()) : r.p99Us();
          if (r.engine().equals(e.label()) && r.threads() == threads
              && r.workload().equals(w.label()) && r.operation().equals(op) && v != null) {
            x.add(w.label());
            y.add(v);
          }
        }
      }
      if (!x.isEmpty()) {
        chart.addSeries(e.label(), x, y);
      }
    }
    if (chart.getSeriesMap().isEmpty()) {
      chart.addSeries("nothing measured", List.of("-"), List.of(0.0));
    }
    return chart;
  }
}
