package dev.strata.bench.readamp;

import dev.strata.bench.common.FileTrees;
import dev.strata.bench.common.RocksDbLibrary;
import dev.strata.engine.DbOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import javax.imageio.ImageIO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench readamp}: the read-amplification benchmark of Strata against RocksDB. Loads
 * the same cells into both engines as N overlapping level-0 tables (and, after the largest N, one
 * compacted run), then measures absent-row, absent-column, present-cell and whole-row reads for
 * Strata NONE/ROW/ROWCOL and RocksDB NONE/BLOOM/BLOOM_PARTITIONED, from each engine's own counters.
 * Writes {@code results.csv}, {@code fpr_sweep.csv}, {@code report.md} and PNG plots into {@code
 * --out} and nothing anywhere else (the RocksDB JNI library is extracted there too, and deleted).
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar readamp --out /tmp/readamp     # ~2 minutes on 2 cores
 * java -jar bench/target/strata-bench.jar readamp --keys 2000 --tables 1,2 --gets 500 --out /tmp/ra
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "readamp",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Read-amplification benchmark: Strata (NONE, ROW, ROWCOL) against RocksDB (NONE, BLOOM,"
          + " BLOOM_PARTITIONED) on the same cells, as N overlapping level-0 tables and after a"
          + " full compaction; absent_row, absent_column, present_cell and get_row reads.",
      "Writes results.csv, fpr_sweep.csv, report.md and PNG plots into --out. The default run"
          + " takes about two minutes on a 2-core machine."
    })
public final class ReadAmpCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--keys", defaultValue = "100000", paramLabel = "N",
      description = "Cells loaded per workload (narrow: N rows of 1 column; wide: N/columns rows)."
          + " Default: ${DEFAULT-VALUE}.")
  private long keys;

  @Option(names = "--tables", split = ",", defaultValue = "1,2,4,8", paramLabel = "N",
      description = "Overlapping level-0 table counts to sweep; the compacted run follows the"
          + " largest. Default: ${DEFAULT-VALUE}.")
  private List<Integer> tables;

  @Option(names = "--bits-per-key", defaultValue = "10", paramLabel = "B",
      description = "Filter bits per key in both engines. Default: ${DEFAULT-VALUE}.")
  private double bitsPerKey;

  @Option(names = "--columns", defaultValue = "10", paramLabel = "N",
      description = "Columns per wide row. Default: ${DEFAULT-VALUE}.")
  private int columns;

  @Option(names = "--value-bytes", defaultValue = "100", paramLabel = "N",
      description = "Bytes per value. Default: ${DEFAULT-VALUE}.")
  private int valueBytes;

  @Option(names = "--compression-ratio", defaultValue = "0.5", paramLabel = "R",
      description = "Compressibility of values, as db_bench's: LZ4 shrinks them to about R."
          + " Default: ${DEFAULT-VALUE}.")
  private double compressionRatio;

  @Option(names = "--gets", defaultValue = "6000", paramLabel = "N",
      description = "Reads per query kind in each measured pass (a warm-up pass of as many"
          + " different reads precedes it). Default: ${DEFAULT-VALUE}.")
  private int gets;

  /** Bytes a narrow cell takes on disk, measured: 100,000 cells make about 11 MB of tables. */
  private static final double DISK_BYTES_PER_CELL = 110;

  @Option(names = "--cache-mb", defaultValue = "0", paramLabel = "MB",
      description = "Block cache capacity of both engines, MiB. Default (0): about a tenth of the"
          + " data, at least 1 (100,000 cells take about 11 MB on disk: 1 MiB; 1,000,000: 10.5),"
          + " so data blocks are really read while filters and indexes fit.")
  private double cacheMb;

  @Option(names = "--filter-chunk-bytes", defaultValue = "0", paramLabel = "N",
      description = "Strata filter chunk size and RocksDB metadata_block_size (filter partition"
          + " size). Default (0): Strata's default, DbOptions.bloomChunkBytes.")
  private int filterChunkBytes;

  @Option(names = "--strata-cache-shards", defaultValue = "0", paramLabel = "N",
      description = "Shards of Strata's block cache; 0 (default) = as many as RocksDB's, which are"
          + " sized so each shard holds twice the largest whole-table filter.")
  private int strataCacheShards;

  @Option(names = "--fpr-bits", split = ",", defaultValue = "4,6,8,12,16", paramLabel = "B",
      description = "Extra bits/key of the false-positive sweep (absent-row reads, narrow rows,"
          + " largest table count, filtered setups). Default: ${DEFAULT-VALUE}.")
  private List<Double> fprBits;

  @Option(names = "--no-fpr-sweep", description = "Skip the false-positive sweep over bits/key.")
  private boolean noFprSweep;

  @Option(names = "--shapes", split = ",", defaultValue = "NARROW,WIDE", paramLabel = "SHAPE",
      description = "Row shapes (${COMPLETION-CANDIDATES}). Default: ${DEFAULT-VALUE}.")
  private List<Shape> shapes;

  @Option(names = "--setups", split = ",", paramLabel = "SETUP",
      defaultValue = "STRATA_NONE,STRATA_ROW,STRATA_ROWCOL,ROCKSDB_NONE,ROCKSDB_BLOOM,"
          + "ROCKSDB_BLOOM_PARTITIONED",
      description = "Engine configurations (${COMPLETION-CANDIDATES}). Default: all.")
  private List<Setup> setups;

  @Option(names = "--no-compacted", description = "Skip the measurements after full compaction.")
  private boolean noCompacted;

  @Option(names = "--seed", defaultValue = "20250501", paramLabel = "S",
      description = "Seed of every key, value and query stream. Default: ${DEFAULT-VALUE}.")
  private long seed;

  @Option(names = "--out", defaultValue = "readamp-results", paramLabel = "DIR",
      description = "Output folder; everything the run writes goes here. Default: ${DEFAULT-VALUE}.")
  private Path out;

  @Option(names = "--keep-data", description = "Keep the databases under DIR/data.")
  private boolean keepData;

  @Option(names = "--quiet", description = "No progress bar (it shows only on a terminal anyway).")
  private boolean quiet;

  @Override
  public Integer call() throws IOException {
    ReadAmpRun.Plan plan = plan();
    PrintWriter stdout = spec.commandLine().getOut();
    long started = System.nanoTime();
    Files.createDirectories(out);
    // Native libraries (RocksDB's, lz4-java's) are extracted into the temporary folder: point it
    // inside --out for the run and delete it after, so nothing is written anywhere else.
    Path tmp = out.resolve(".tmp");
    Files.createDirectories(tmp);
    String systemTmp = System.getProperty("java.io.tmpdir");
    System.setProperty("java.io.tmpdir", tmp.toString());
    ImageIO.setUseCache(false);
    boolean rocksDb = plan.setups().stream().anyMatch(s -> s.engine() == Setup.Engine.ROCKSDB);
    List<ResultRow> main;
    List<ResultRow> sweep;
    String formatVersion = "-";
    Progress progress = Progress.create(!quiet && Progress.isInteractive(), plan.totalSteps());
    ReadAmpRun run = new ReadAmpRun(plan, out, progress);
    try (progress) {
      if (rocksDb) {
        RocksDbLibrary.load(tmp);
        formatVersion = Integer.toString(RocksDbLibrary.formatVersion());
      }
      run.warmUpJit();
      main = run.runMain();
      sweep = run.runFprSweep();
    } finally {
      System.setProperty("java.io.tmpdir", systemTmp);
      FileTrees.deleteTree(tmp);
      if (!keepData) {
        FileTrees.deleteTree(out.resolve("data"));
      }
    }
    Path csv = out.resolve("results.csv");
    ResultsCsv.write(csv, main);
    Path sweepCsv = out.resolve("fpr_sweep.csv");
    ResultsCsv.write(sweepCsv, sweep);
    List<Path> plots = ReadAmpPlots.write(out, plan, main, sweep);
    double seconds = (System.nanoTime() - started) / 1e9;
    ReadAmpReport report =
        new ReadAmpReport(plan, run.settings(), main, sweep, plots, seconds, formatVersion);
    stdout.println(report.terminal());
    Path md = out.resolve("report.md");
    Files.writeString(md, report.markdown());
    stdout.printf(Locale.ROOT, "%nReport: %s%nResults: %s (%d rows), %s%nPlots: %s%n",
        md.toAbsolutePath(), csv.toAbsolutePath(), main.size(), sweepCsv.toAbsolutePath(),
        String.join(", ", plots.stream().map(p -> p.getFileName().toString()).toList()));
    stdout.flush();
    return 0;
  }

  private ReadAmpRun.Plan plan() {
    require(keys >= 1, "--keys must be >= 1");
    require(!tables.isEmpty() && tables.stream().allMatch(t -> t >= 1), "--tables must be >= 1");
    List<Integer> sortedTables = tables.stream().distinct().sorted().toList();
    require(bitsPerKey >= 1 && bitsPerKey <= 64, "--bits-per-key must be in [1, 64]");
    require(fprBits.stream().allMatch(b -> b >= 1 && b <= 64), "--fpr-bits must be in [1, 64]");
    require(columns >= 1 && columns <= 10_000, "--columns must be in [1, 10000]");
    require(valueBytes >= 0 && valueBytes <= (16 << 20), "--value-bytes must be in [0, 16 MiB]");
    require(compressionRatio > 0 && compressionRatio <= 1, "--compression-ratio must be in (0, 1]");
    require(gets >= 1, "--gets must be >= 1");
    require(cacheMb >= 0, "--cache-mb must be >= 0");
    require(filterChunkBytes == 0 || filterChunkBytes >= 64, "--filter-chunk-bytes must be >= 64");
    if (cacheMb == 0) {
      // A cache that grows with the data, as the default's 1 MiB was a tenth of 100,000 cells:
      // a fixed 1 MiB at 1,000,000 cells holds less than the filters and every Get reloads them.
      cacheMb = Math.max(1, keys * DISK_BYTES_PER_CELL / 10 / (1 << 20));
    }
    if (filterChunkBytes == 0) {
      filterChunkBytes = DbOptions.defaults().filters().bloomChunkBytes();
    }
    require(strataCacheShards >= 0 && strataCacheShards <= 1024,
        "--strata-cache-shards must be in [0, 1024]");
    require(!shapes.isEmpty() && !setups.isEmpty(), "--shapes and --setups must not be empty");
    long minRows = Long.MAX_VALUE;
    for (Shape s : shapes) {
      minRows = Math.min(minRows, Math.max(1, keys / s.columnsPerRow(columns)));
    }
    require(sortedTables.get(sortedTables.size() - 1) <= minRows,
        "--tables must not exceed the rows of a workload (" + minRows + ")");
    List<Double> extraBits = new ArrayList<>();
    for (double b : noFprSweep ? List.<Double>of() : fprBits) {
      if (b != bitsPerKey && !extraBits.contains(b)) {
        extraBits.add(b);
      }
    }
    return new ReadAmpRun.Plan(keys, sortedTables, bitsPerKey, columns, valueBytes,
        compressionRatio, seed, gets, (long) (cacheMb * (1 << 20)), filterChunkBytes,
        strataCacheShards, extraBits.stream().sorted().toList(), shapes.stream().distinct().toList(),
        setups.stream().distinct().sorted().toList(), !noCompacted, keepData);
  }

  private void require(boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }
}
