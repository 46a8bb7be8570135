package dev.strata.bench.dbbench;

import dev.strata.bench.common.FileTrees;
import dev.strata.engine.BloomType;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * {@code strata-bench dbbench}: db_bench-style benchmarks of Strata against RocksDB on the same
 * keys, in a real leveled tree with the same settings, each phase of each engine in its own JVM.
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar dbbench --out /tmp/dbbench                  # default profile
 * java -jar bench/target/strata-bench.jar dbbench --profile smoke --out /tmp/dbbench  # seconds
 * java -jar bench/target/strata-bench.jar dbbench --benchmarks=fillrandom,readrandom --threads 1,2
 * java -jar bench/target/strata-bench.jar dbbench --value-bytes 1000 --key-distribution zipfian \
 *     --benchmarks=fillrandom,readrandom,readwhileoverwriting,readrandom
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "dbbench",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "db_bench-style benchmarks of Strata and RocksDB (LRU and HyperClock caches) on the same"
          + " keys, in a leveled tree with the same settings; each phase of each engine runs in"
          + " its own JVM, the database closed and reopened between phases.",
      "Writes results.csv, report.md, PNG plots, each engine's options and the phases' logs"
          + " into --out. The default profile takes about 10 minutes on 2 cores."
    })
public final class DbBenchCommand implements Callable<Integer> {
  /** Benchmarks run when none are named. */
  static final String DEFAULT_BENCHMARKS = "fillrandom,overwrite,readrandom,readmissing,"
      + "multireadrandom,seekrandom,readwhilewriting,getrowrandom";

  /** Cells one seekrandom operation reads, the seek included, as db_bench's {@code seek_nexts}. */
  static final int SEEK_CELLS = 10;

  @Spec private CommandSpec spec;

  @Option(names = "--benchmarks", split = ",", defaultValue = DEFAULT_BENCHMARKS,
      paramLabel = "NAME", description = "Benchmarks in order (one may be listed twice):"
          + " fillseq, fillrandom, overwrite, readwhileoverwriting, readrandom, readmissing,"
          + " multireadrandom, readwhilewriting, seekrandom, seekrandomreverse,"
          + " prefixscanrandom, getrowrandom. Default: ${DEFAULT-VALUE}.")
  private List<String> benchmarks;

  @Option(names = "--profile", defaultValue = "default", paramLabel = "NAME",
      description = "Sizes: smoke (seconds), default (2.5M keys, 8 MiB cache, ~10 min),"
          + " large (20M keys, 64 MiB cache), xl (100M keys, 64 MiB cache)."
          + " Default: ${DEFAULT-VALUE}.")
  private String profile;

  @Option(names = "--engines", split = ",", defaultValue = "strata,rocksdb-lru,rocksdb-hcc",
      paramLabel = "E", description = "Engine configurations. Default: ${DEFAULT-VALUE}.")
  private List<String> engines;

  @Option(names = "--threads", split = ",", paramLabel = "N",
      description = "Reader threads of the read benchmarks, a list (profile: 1,2).")
  private List<Integer> threads;

  @Option(names = "--num", paramLabel = "N", description = "Keys (profile's by default).")
  private Long num;

  @Option(names = "--duration", paramLabel = "S",
      description = "Measured seconds of each read phase (profile's by default).")
  private Double duration;

  @Option(names = "--warmup", paramLabel = "S",
      description = "Warm-up seconds before each read phase (profile's by default).")
  private Double warmup;

  @Option(names = {"--value-bytes", "--value-size"}, defaultValue = "100", paramLabel = "N",
      description = "Bytes per value of the fills and overwrites (--value-size: db_bench's name)."
          + " Default: ${DEFAULT-VALUE}.")
  private int valueSize;

  @Option(names = "--key-distribution", defaultValue = "uniform", paramLabel = "D",
      description = "How every benchmark but the fills draws its random keys: uniform, or zipfian"
          + " (YCSB's scrambled zipfian, constant 0.99). Default: ${DEFAULT-VALUE}.")
  private String keyDistribution;

  @Option(names = "--writes", paramLabel = "N",
      description = "Puts of each overwrite and readwhileoverwriting phase (default: --num).")
  private Long writes;

  @Option(names = "--compression-ratio", defaultValue = "0.5", paramLabel = "R",
      description = "Compressibility of values, as db_bench's. Default: ${DEFAULT-VALUE}.")
  private double compressionRatio;

  @Option(names = "--bits-per-key", defaultValue = "10", paramLabel = "B",
      description = "Filter bits per key in both engines. Default: ${DEFAULT-VALUE}.")
  private double bitsPerKey;

  @Option(names = "--bloom-type", defaultValue = "ROW", paramLabel = "T",
      description = "Strata's filter type (${COMPLETION-CANDIDATES}). Default: ${DEFAULT-VALUE}.")
  private BloomType bloomType;

  @Option(names = "--cache-mb", paramLabel = "MB",
      description = "Block cache of every engine, MiB (profile's by default).")
  private Double cacheMb;

  @Option(names = "--cache-states", split = ",", defaultValue = "warm", paramLabel = "S",
      description = "warm (OS page cache as left) and/or cold (table files evicted before each"
          + " read phase). Default: ${DEFAULT-VALUE}.")
  private List<String> cacheStates;

  @Option(names = "--columns", defaultValue = "10", paramLabel = "N",
      description = "Columns per wide row (getrowrandom). Default: ${DEFAULT-VALUE}.")
  private int columns;

  @Option(names = "--batch-size", defaultValue = "32", paramLabel = "N",
      description = "Keys per multireadrandom call. Default: ${DEFAULT-VALUE}.")
  private int batchSize;

  @Option(names = "--seed", defaultValue = "20260501", paramLabel = "S",
      description = "Seed of every key and value stream. Default: ${DEFAULT-VALUE}.")
  private long seed;

  @Option(names = "--use-existing-db",
      description = "Read the databases under --db-dir left by an earlier run (no fills).")
  private boolean useExistingDb;

  @Option(names = "--out", defaultValue = "dbbench-results", paramLabel = "DIR",
      description = "Output folder. Default: ${DEFAULT-VALUE}.")
  private Path out;

  @Option(names = "--db-dir", paramLabel = "DIR",
      description = "Folder of the databases (default: DIR/db under --out); kept after the run.")
  private Path dbDir;

  @Option(names = "--jvm-args", paramLabel = "FLAGS",
      description = "JVM flags of every child, space separated (default: this JVM's -Xmx, -Xms"
          + " and -XX flags, or the profile's heap).")
  private String jvmArgs;

  @Option(names = "--heaps", paramLabel = "SETTINGS",
      description = "Run everything once per heap setting of the children, semicolon-separated"
          + " (\"-Xmx1g;-Xmx8g -Xms1g\"), each replacing the heap sizes of --jvm-args: results"
          + " in --out/heap-N, side by side in heaps.md and heaps.csv.")
  private String heaps;

  @Option(names = "--phase-timeout", paramLabel = "S",
      description = "A phase running longer is killed and fails the run (profile's by default).")
  private Long phaseTimeout;

  @Override
  public Integer call() throws IOException {
    Profile p = profileOrFail();
    List<Benchmark> bench = parse(benchmarks, Benchmark::parse, "--benchmarks");
    List<EngineKind> engineKinds = parse(engines, EngineKind::parse, "--engines").stream()
        .distinct().toList();
    List<Integer> threadCounts = threads == null ? p.threads() : threads;
    require(!threadCounts.isEmpty() && threadCounts.stream().allMatch(t -> t >= 1 && t <= 1024),
        "--threads must be in [1, 1024]");
    List<Boolean> cold = new ArrayList<>();
    for (String s : cacheStates) {
      require(s.equals("warm") || s.equals("cold"), "--cache-states takes warm and/or cold");
      cold.add(s.equals("cold"));
    }
    RunConfig config = config(p);
    Plan plan;
    try {
      plan = Plan.of(bench, engineKinds, threadCounts.stream().distinct().toList(),
          cold.stream().distinct().toList(), useExistingDb);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintWriter stdout = spec.commandLine().getOut();
    List<String> flags = jvmArgs != null
        ? Arrays.stream(jvmArgs.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList()
        : ChildLauncher.inheritedFlags(p.heap());
    if (heaps == null) {
      return runOnce(p, plan, config, flags, out, engineKinds) == null ? 0 : 1;
    }
    HeapRuns runs;
    try {
      runs = HeapRuns.parse(heaps);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--heaps: " + e.getMessage());
    }
    Files.createDirectories(out);
    List<List<Result>> rows = new ArrayList<>();
    boolean failed = false;
    for (int i = 0; i < runs.size() && !failed; i++) {
      stdout.println(runs.banner(i));
      stdout.flush();
      Path folder = HeapRuns.folder(out, i);
      Path db = dbDir != null ? dbDir.resolve(folder.getFileName()) : folder.resolve("db");
      List<Result> results = new ArrayList<>();
      failed = runOnce(p, plan, config.withDbDir(db.toAbsolutePath()), runs.flags(flags, i),
          folder, engineKinds, results) != null;
      rows.add(results);
    }
    runs.writeSummary(out, rows);
    stdout.printf(
        Locale.ROOT, "%nHeaps side by side: %s%n", out.resolve("heaps.md").toAbsolutePath());
    stdout.flush();
    return failed ? 1 : 0;
  }

  /** {@link #runOnce(Profile, Plan, RunConfig, List, Path, List, List)}, its rows dropped. */
  private IOException runOnce(Profile p, Plan plan, RunConfig config, List<String> flags,
      Path out, List<EngineKind> engineKinds) throws IOException {
    return runOnce(p, plan, config, flags, out, engineKinds, new ArrayList<>());
  }

  /**
   * Runs the plan with children started with {@code flags}, writing into {@code out}; adds the rows
   * to {@code results}. Returns the failure that stopped it (reported), or null.
   */
  private IOException runOnce(Profile p, Plan plan, RunConfig config, List<String> flags,
      Path out, List<EngineKind> engineKinds, List<Result> results) throws IOException {
    if (useExistingDb) {
      checkFillRecord(config);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    Files.createDirectories(out);
    Files.createDirectories(config.dbDir());
    config.write(out.resolve(RunConfig.FILE));
    Path tmp = out.resolve(".tmp");
    ChildLauncher launcher = new ChildLauncher(flags, tmp,
        phaseTimeout != null ? phaseTimeout : p.phaseTimeoutSeconds());
    long started = System.nanoTime();
    ImageIO.setUseCache(false);
    DbBenchRun run = new DbBenchRun(plan, out, launcher, stdout,
        useExistingDb ? null : config);
    IOException failure = null;
    try {
      run.run();
    } catch (IOException e) {
      failure = e;
    } finally {
      FileTrees.deleteTree(tmp);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    List<Path> plots = DbBenchPlots.write(out, run.results());
    DbBenchReport report = new DbBenchReport(p, config, engineKinds, launcher.jvmFlags(),
        run.results(), plots, seconds, failure == null ? null : failure.getMessage());
    Path md = out.resolve("report.md");
    Files.writeString(md, report.markdown());
    stdout.println(report.terminal());
    stdout.printf(Locale.ROOT, "%nReport: %s%nResults: %s (%d rows)%n", md.toAbsolutePath(),
        out.resolve("results.csv").toAbsolutePath(), run.results().size());
    stdout.flush();
    results.addAll(run.results());
    if (failure != null) {
      spec.commandLine().getErr().println("dbbench failed: " + failure.getMessage());
      spec.commandLine().getErr().flush();
    }
    return failure;
  }

  /**
   * Refuses to read existing databases with other data settings than their fill's (the keys read
   * would not be the keys written); warns when no fill record is there to compare with.
   */
  private void checkFillRecord(RunConfig config) throws IOException {
    List<String> differences = FillRecord.differences(config);
    if (differences == null) {
      spec.commandLine().getErr().println("dbbench: no " + FillRecord.FILE + " in " + config.dbDir()
          + ": the databases are read with this run's settings, unchecked against their fill's");
      spec.commandLine().getErr().flush();
    } else if (!differences.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "the databases in " + config.dbDir()
          + " were filled with other settings; give this run the fill's (its --profile, --num,"
          + " ...):\n  " + String.join("\n  ", differences));
    }
  }

  private Profile profileOrFail() {
    try {
      return Profile.named(profile);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  private RunConfig config(Profile p) {
    long n = num != null ? num : p.num();
    double cache = cacheMb != null ? cacheMb : p.cacheMb();
    double seconds = duration != null ? duration : p.durationSeconds();
    double warm = warmup != null ? warmup : p.warmupSeconds();
    require(n >= 1, "--num must be >= 1");
    require(valueSize >= 0 && valueSize <= (16 << 20), "--value-bytes must be in [0, 16 MiB]");
    require(compressionRatio > 0 && compressionRatio <= 1, "--compression-ratio must be in (0, 1]");
    require(bitsPerKey >= 1 && bitsPerKey <= 64, "--bits-per-key must be in [1, 64]");
    require(cache > 0, "--cache-mb must be > 0");
    require(seconds > 0 && warm >= 0, "--duration must be > 0 and --warmup >= 0");
    require(columns >= 1 && columns <= 100_000, "--columns must be in [1, 100000]");
    require(batchSize >= 1 && batchSize <= 100_000, "--batch-size must be in [1, 100000]");
    require(phaseTimeout == null || phaseTimeout >= 1, "--phase-timeout must be >= 1");
    require(writes == null || writes >= 1, "--writes must be >= 1");
    KeyDistribution distribution;
    try {
      distribution = KeyDistribution.parse(keyDistribution);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--key-distribution: " + e.getMessage());
    }
    Path db = dbDir != null ? dbDir : out.resolve("db");
    long timeout = phaseTimeout != null ? phaseTimeout : p.phaseTimeoutSeconds();
    return new RunConfig(n, valueSize, compressionRatio, bitsPerKey, bloomType,
        (long) (cache * (1 << 20)), seconds, warm, seed, columns, SEEK_CELLS, batchSize,
        db.toAbsolutePath(), p.tree(), timeout, distribution, writes != null ? writes : n);
  }

  private <T> List<T> parse(List<String> names, java.util.function.Function<String, T> f,
      String option) {
    List<T> parsed = new ArrayList<>();
    try {
      for (String name : names) {
        if (!name.isBlank()) {
          parsed.add(f.apply(name));
        }
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
    }
    require(!parsed.isEmpty(), option + " must not be empty");
    return parsed;
  }

  private void require(boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }
}
