package dev.strata.bench.ycsb;

import dev.strata.bench.common.FileTrees;
import dev.strata.bench.dbbench.ChildLauncher;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Runs the phases of a YCSB run, each in its own JVM running YCSB's own {@code site.ycsb.Client}
 * (which calls {@code System.exit}), the engines alternated phase by phase so both see the machine
 * in the same state; a load deletes the engine's database first. Writes each phase's workload file,
 * log and YCSB export under the output folder and collects the rows.
 *
 * <p>Not thread-safe: one instance per run.
 */
final class YcsbRun {
  private final YcsbSettings s;
  private final ChildLauncher launcher;
  private final PrintStream progress;

  YcsbRun(YcsbSettings settings, PrintStream progress) {
    this.s = settings;
    this.launcher = new ChildLauncher(settings.jvmFlags(), settings.out().resolve("tmp"),
        settings.phaseTimeoutSeconds());
    this.progress = progress;
  }

  /** Runs every phase, adding each one's rows to {@code rows} as it finishes. */
  void run(List<YcsbRow> rows) throws IOException {
    for (int threads : s.threads()) {
      for (Workload w : s.workloads()) {
        for (YcsbEngine e : s.engines()) {
          List<YcsbRow> phase = phase(e, w, threads);
          rows.addAll(phase);
          YcsbRow overall = phase.get(0);
          progress.printf("%-8s %-7s %d thread(s): %,.0f ops/s%s%n", e.label(), w.label(), threads,
              overall.opsPerSec(), overall.failed() > 0 ? ", " + overall.failed() + " FAILED" : "");
        }
      }
    }
  }

  private List<YcsbRow> phase(YcsbEngine engine, Workload w, int threads) throws IOException {
    Path dir = s.dbDir().resolve(engine.label());
    if (w.isLoad()) {
      FileTrees.deleteTree(dir);
    }
    // RocksDB's open creates only the database's own directory, not its parents.
    Files.createDirectories(s.dbDir());
    String name = engine.label() + "-" + w.label() + "-t" + threads;
    Path phases = s.out().resolve("phases");
    Files.createDirectories(phases);
    Path workloadFile = phases.resolve("workload-" + w.label() + ".properties");
    writeWorkload(workloadFile, w.properties(s.records(), s.operations(), s.fieldCount(),
        s.fieldLength()));
    Path export = phases.resolve(name + ".txt");
    Files.deleteIfExists(export);
    List<String> args = new ArrayList<>(List.of(
        w.isLoad() ? "-load" : "-t",
        "-db", engine.bindingClass(),
        "-P", workloadFile.toAbsolutePath().toString(),
        "-threads", Integer.toString(threads),
        "-s",
        "-p", "measurementtype=hdrhistogram",
        "-p", "hdrhistogram.percentiles=50,99,99.9",
        "-p", "exportfile=" + export.toAbsolutePath(),
        "-p", BindingConfig.DIR + "=" + dir.toAbsolutePath(),
        "-p", BindingConfig.CACHE_BYTES + "=" + s.cacheBytes(),
        "-p", BindingConfig.BITS_PER_KEY + "=" + s.bitsPerKey(),
        "-p", BindingConfig.TREE + "=" + s.tree()));
    launcher.run(name, "site.ycsb.Client", args, phases.resolve(name + ".log"));
    if (!Files.exists(export)) {
      throw new IOException(name + ": YCSB wrote no measurements (see "
          + phases.resolve(name + ".log") + ")");
    }
    List<YcsbRow> rows = YcsbExport.read(export, engine, w, threads);
    // YCSB's client exits 0 even when a thread died (a binding that failed to open): a phase
    // that did fewer operations than it was given failed.
    long expected = w.isLoad() ? s.records() : s.operations();
    if (rows.get(0).operations() < expected) {
      throw new IOException(name + ": YCSB did " + rows.get(0).operations() + " of " + expected
          + " operations; see " + phases.resolve(name + ".log"));
    }
    return rows;
  }

  private static void writeWorkload(Path file, Map<String, String> properties)
      throws IOException {
    Properties p = new Properties();
    p.putAll(properties);
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(out, "YCSB CoreWorkload settings of this phase");
    }
  }
}
