package dev.strata.bench.tools;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.DbStats;
import dev.strata.engine.LevelStats;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.manifest.Manifest;
import dev.strata.engine.manifest.ManifestReader;
import java.io.PrintWriter;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench stats DIR}: opens a database (taking its lock, so not while another process
 * has it open; with auto compaction off, so opening changes no table) and prints its levels, its
 * tables and its {@link DbStats}. The read counters of a database just opened are zero; the "now"
 * fields (tables, filter bytes, cache bytes) describe it.
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar stats /data/db
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = "Open a database (taking its lock) and print its levels, tables and DbStats.")
public final class StatsCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DIR", description = "The database directory.")
  private Path dir;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (!Files.isDirectory(dir)) {
      spec.commandLine().getErr().println("stats: not a directory: " + dir);
      return 1;
    }
    try (Db db = Db.open(dir, DbOptions.builder().autoCompaction(false).build())) {
      out.printf(Locale.ROOT, "database %s%n", dir);
      List<Integer> levels = db.tablesPerLevel();
      Manifest manifest = ManifestReader.readIfExists(dir).orElse(Manifest.empty());
      for (int level = 0; level < levels.size(); level++) {
        List<FileMetadata> files = manifest.filesAt(level);
        long bytes = files.stream().mapToLong(FileMetadata::fileSize).sum();
        out.printf(Locale.ROOT, "L%d  %3d tables  %,14d bytes%n", level, levels.get(level), bytes);
        for (FileMetadata f : files) {
          out.printf(Locale.ROOT, "      %s  %,12d bytes  %,10d entries  seq %d..%d  %s .. %s%n",
              FileNames.table(dir, f.fileNumber()).getFileName(), f.fileSize(), f.entryCount(),
              f.smallestSequence(), f.largestSequence(),
              Printable.cell(f.smallest().row(), f.smallest().column()),
              Printable.cell(f.largest().row(), f.largest().column()));
        }
      }
      out.println("Filters per level (Db.levelStats: bits per key and the model's false positives)");
      for (LevelStats l : db.levelStats()) {
        out.printf(Locale.ROOT, "L%d  %,12d entries  %,10d filter bytes  %6.2f bits/key  %.5f FP/Get%n",
            l.level(), l.entries(), l.filterBytes(), l.filterBitsPerKey(),
            l.expectedFalsePositiveRate());
      }
      out.println("DbStats");
      print(out, "  ", db.stats());
    }
    out.flush();
    return 0;
  }

  /** Each counter of a stats record by name, a group's under its name and indented, aligned. */
  private static void print(PrintWriter out, String indent, Record stats) throws Exception {
    int width = 24 - indent.length();
    for (RecordComponent c : stats.getClass().getRecordComponents()) {
      Object value = c.getAccessor().invoke(stats);
      if (value instanceof Record group) {
        out.printf(Locale.ROOT, "%s%s%n", indent, c.getName());
        print(out, indent + "  ", group);
      } else {
        out.printf(Locale.ROOT, "%s%-" + width + "s %,d%n", indent, c.getName(), (Long) value);
      }
    }
  }
}
