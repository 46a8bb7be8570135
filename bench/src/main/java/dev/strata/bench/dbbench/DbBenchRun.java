package dev.strata.bench.dbbench;

import dev.strata.bench.common.Cells;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs a {@link Plan}: each phase in a child process, one after another, collecting each child's
 * row; then adds Strata's ratios to the RocksDB configurations and writes {@code results.csv}. A
 * failed phase stops the run: the rows collected so far are still written, and the error names
 * the phase and quotes its log. A run that fills records its fill ({@link FillRecord}) once its
 * last fill phase has succeeded, and not before: databases a failed or killed fill left half
 * written have no record to vouch for them.
 *
 * <p>Not thread-safe: one run per instance.
 */
final class DbBenchRun {
  private final Plan plan;
  private final Path out;
  private final ChildLauncher launcher;
  private final PrintWriter progress;
  /** The settings to record after the last fill; null for a run on existing databases. */
  private final RunConfig fill;
  private final List<Result> results = new ArrayList<>();

  DbBenchRun(Plan plan, Path out, ChildLauncher launcher, PrintWriter progress, RunConfig fill) {
    this.plan = plan;
    this.out = out;
    this.launcher = launcher;
    this.progress = progress;
    this.fill = fill;
  }

  /** The rows collected so far, with ratios, in the order the phases ran. */
  List<Result> results() {
    return results;
  }

  /** Runs every phase; IOException naming the first that failed. */
  void run() throws IOException {
    List<Phase> phases = plan.phases();
    Path phaseDir = out.resolve("phases");
    Path logs = out.resolve("logs");
    Files.createDirectories(phaseDir);
    int lastFill = -1;
    for (int i = 0; i < phases.size(); i++) {
      if (phases.get(i).benchmark().kind() == Benchmark.Kind.FILL) {
        lastFill = i;
      }
    }
    if (fill != null) {
      FillRecord.delete(fill);
    }
    try {
      for (int i = 0; i < phases.size(); i++) {
        Phase p = phases.get(i);
        String name = String.format(Locale.ROOT, "%03d-%s", i + 1, p.slug());
        Path result = phaseDir.resolve(name + ".csv");
        long start = System.nanoTime();
        progress.printf(Locale.ROOT, "[%d/%d] %s ...", i + 1, phases.size(), p);
        progress.flush();
        launcher.run(p, p.args(out, result), logs.resolve(name + ".log"));
        List<Result> rows = ResultsFile.read(result);
        results.addAll(rows);
        Result r = rows.get(0);
        progress.printf(Locale.ROOT, " %s ops/s, p99 %s us (%.1f s)%n",
            Cells.format(round(r.number(Column.OPS_PER_SEC))), r.get(Column.P99_US),
            (System.nanoTime() - start) / 1e9);
        progress.flush();
        if (i == lastFill && fill != null) {
          FillRecord.write(fill);
        }
      }
    } finally {
      Ratios.add(results);
      ResultsFile.write(out.resolve("results.csv"), results);
    }
  }

  private static Double round(Double v) {
    return v == null ? null : (double) Math.round(v);
  }
}
