package dev.strata.bench.bloom;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.Statistics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench filters}: the filter benchmark with a short default configuration. Measures
 * the false-positive table ({@link FprTable}), then runs {@link FilterQueryBenchmark} and {@link
 * FilterBuildBenchmark} through the JMH runner one trial at a time (each in a forked JVM with the
 * benchmark's own heap settings), and prints the lookup, build and FPR tables and the filter's
 * targets checked against this run.
 *
 * <p>The JMH benchmark list is read from the jar this runs from, so run it from the shaded jar:
 * {@code java -jar bench/target/strata-bench.jar filters}.
 *
 * <p>Not thread-safe: one instance per command invocation.
 */
@Command(
    name = "filters",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Filter benchmark: measured vs model false-positive rate of the blocked and classic layouts,"
          + " then a short JMH run of lookups (negative/positive, pre-hashed/16-byte keys) and"
          + " builds for the blocked filter, the classic filter and Guava's BloomFilter.",
      "The default configuration takes about 5 to 7 minutes on 2 cores; --quick is a smoke test"
          + " of a few seconds whose figures mean nothing."
    })
public final class FiltersCommand implements Callable<Integer> {
  /** Filter size of every {@code --quick} benchmark. */
  private static final long QUICK_KEYS = 10_000;

  /** Member keys and minimum queries of the {@code --quick} FPR table. */
  private static final long QUICK_FPR_KEYS = 20_000;

  /** Most queries per row of the {@code --quick} FPR table. */
  private static final long QUICK_FPR_MAX_QUERIES = 200_000;

  /** Iteration length of {@code --quick} JMH runs. */
  private static final int QUICK_ITERATION_MS = 100;

  @Spec private CommandSpec spec;

  @Option(
      names = "--keys",
      split = ",",
      defaultValue = "1000000,50000000",
      paramLabel = "N",
      description = "Filter sizes (keys) for the lookup benchmark. Default: ${DEFAULT-VALUE}.")
  private List<Long> keys;

  @Option(
      names = "--build-keys",
      split = ",",
      defaultValue = "1000000",
      paramLabel = "N",
      description =
          "Filter sizes for the build benchmark; 50000000 adds minutes (a Guava build of 50M"
              + " keys takes ~30 s). Default: ${DEFAULT-VALUE}.")
  private List<Long> buildKeys;

  @Option(
      names = "--kinds",
      split = ",",
      defaultValue = "BLOCKED,CLASSIC,GUAVA",
      paramLabel = "KIND",
      description = "Filters to benchmark (${COMPLETION-CANDIDATES}). Default: ${DEFAULT-VALUE}.")
  private List<FilterKind> kinds;

  @Option(
      names = "--bits-per-key",
      defaultValue = "10",
      paramLabel = "B",
      description = "Bits per key of the benchmarked filters. Default: ${DEFAULT-VALUE}.")
  private double bitsPerKey;

  @Option(
      names = "--fpr-keys",
      defaultValue = "1000000",
      paramLabel = "N",
      description = "Member keys per filter in the FPR table. Default: ${DEFAULT-VALUE}.")
  private long fprKeys;

  @Option(
      names = "--fpr-queries",
      defaultValue = "1000000",
      paramLabel = "M",
      description =
          "Fewest absent-key queries per FPR row; rows with small rates query more, up to 64x"
              + " this, aiming at 2,000 false positives. Default: ${DEFAULT-VALUE}.")
  private long fprQueries;

  @Option(
      names = "--warmup",
      defaultValue = "2",
      paramLabel = "N",
      description = "JMH warmup iterations per trial. Default: ${DEFAULT-VALUE}.")
  private int warmupIterations;

  @Option(
      names = "--iterations",
      defaultValue = "3",
      paramLabel = "N",
      description = "JMH measurement iterations per trial. Default: ${DEFAULT-VALUE}.")
  private int iterations;

  @Option(
      names = "--time-ms",
      defaultValue = "1000",
      paramLabel = "MS",
      description = "Length of each JMH iteration. Default: ${DEFAULT-VALUE}.")
  private int iterationMillis;

  @Option(
      names = "--forks",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "JMH forks per trial; 0 runs in this JVM (profiles of the kinds then mix)."
              + " Default: ${DEFAULT-VALUE}.")
  private int forks;

  @Option(
      names = "--quick",
      description =
          "Smoke test in seconds: 10,000-key filters, a 20,000-key FPR table, one 100 ms"
              + " iteration, no fork. Overrides the size and timing options.")
  private boolean quick;

  @Option(names = "--skip-fpr", description = "Do not measure the FPR table.")
  private boolean skipFpr;

  @Option(names = "--skip-jmh", description = "Do not run the JMH benchmarks.")
  private boolean skipJmh;

  @Option(names = "--verbose", description = "Show JMH's own output for every trial.")
  private boolean verbose;

  /** The JMH settings of one invocation. */
  private record JmhSettings(int warmup, int iterations, int iterationMillis, int forks) {}

  @Override
  public Integer call() throws RunnerException {
    validate();
    PrintWriter out = spec.commandLine().getOut();
    List<Long> lookupKeys = quick ? List.of(QUICK_KEYS) : keys;
    List<Long> buildSizes = quick ? List.of(QUICK_KEYS) : buildKeys;
    JmhSettings jmh =
        quick
            ? new JmhSettings(1, 1, QUICK_ITERATION_MS, 0)
            : new JmhSettings(warmupIterations, iterations, iterationMillis, forks);
    out.printf(
        Locale.ROOT,
        "strata-bench filters%s: %s, %d CPUs, load average %.2f%n",
        quick ? " --quick (smoke test: figures are not meaningful)" : "",
        Runtime.version(),
        Runtime.getRuntime().availableProcessors(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    out.flush();

    List<FprTable.Row> fpr = List.of();
    if (!skipFpr) {
      fpr = FprTable.run(fprConfig());
      out.println();
      out.println("False-positive rate, measured vs model (16-byte keys through KeyHash):");
      out.print(FprTable.format(fpr));
      out.flush();
    }

    List<FilterReport.Score> lookups = List.of();
    List<FilterReport.Score> builds = List.of();
    if (!skipJmh) {
      out.println();
      out.printf(
          Locale.ROOT,
          "JMH: %d warmup + %d measured iterations of %d ms, %d fork(s) per trial%n",
          jmh.warmup(),
          jmh.iterations(),
          jmh.iterationMillis(),
          jmh.forks());
      lookups = runAll(out, FilterQueryBenchmark.class, FilterReport.LOOKUPS, lookupKeys, jmh);
      builds = runAll(out, FilterBuildBenchmark.class, FilterReport.BUILDS, buildSizes, jmh);
    }

    out.println();
    if (!lookups.isEmpty()) {
      out.printf(
          Locale.ROOT,
          "Lookup cost, ns per lookup: median of the iterations (fastest-slowest); %d independent"
              + " lookups per call, %s bits/key; X/BLOCKED = how many times faster BLOCKED is:%n",
          FilterQueryBenchmark.BATCH,
          bitsPerKey);
      out.print(FilterReport.lookupTable(lookups));
      out.println();
    }
    if (!builds.isEmpty()) {
      out.printf(
          Locale.ROOT,
          "Build cost, ns per key: median of the iterations (fastest-slowest), %s bits/key:%n",
          bitsPerKey);
      out.print(FilterReport.buildTable(builds));
      out.println();
    }
    if (!fpr.isEmpty()) {
      out.println("False-positive rate, measured vs model:");
      out.print(FprTable.format(fpr));
      out.println();
    }
    List<FilterReport.Target> targets = FilterReport.targets(lookups, builds, fpr);
    if (!targets.isEmpty()) {
      out.println(
          quick
              ? "Targets, checked against this run (smoke-test sizes: not meaningful):"
              : "Targets, checked against this run (medians):");
      out.print(FilterReport.targetLines(targets));
    }
    out.printf(
        Locale.ROOT,
        "load average at the end: %.2f%n",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    out.flush();
    return 0;
  }

  /** The FPR table's settings from the options ({@code --quick}: tiny). */
  FprTable.Config fprConfig() {
    List<FilterKind> layouts = new ArrayList<>();
    for (FilterKind kind : List.of(FilterKind.BLOCKED, FilterKind.CLASSIC)) {
      if (kinds.contains(kind)) {
        layouts.add(kind);
      }
    }
    FprTable.Config defaults = FprTable.Config.defaults();
    if (quick) {
      return new FprTable.Config(
          QUICK_FPR_KEYS,
          QUICK_FPR_KEYS,
          QUICK_FPR_MAX_QUERIES,
          defaults.targetFalsePositives(),
          defaults.bitsPerKey(),
          layouts);
    }
    return new FprTable.Config(
        fprKeys,
        fprQueries,
        Math.multiplyExact(fprQueries, 64),
        defaults.targetFalsePositives(),
        defaults.bitsPerKey(),
        layouts);
  }

  private void validate() {
    for (long n : keys) {
      requirePositive("--keys", n);
    }
    for (long n : buildKeys) {
      requirePositive("--build-keys", n);
    }
    requirePositive("--fpr-keys", fprKeys);
    requirePositive("--fpr-queries", fprQueries);
    requirePositive("--iterations", iterations);
    requirePositive("--time-ms", iterationMillis);
    if (warmupIterations < 0 || forks < 0) {
      throw new ParameterException(spec.commandLine(), "--warmup and --forks must be >= 0");
    }
    if (!(bitsPerKey >= 1 && bitsPerKey <= 64)) {
      throw new ParameterException(spec.commandLine(), "--bits-per-key must be in [1, 64]");
    }
    if (kinds.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--kinds names no filter");
    }
  }

  private void requirePositive(String option, long value) {
    if (value < 1) {
      throw new ParameterException(spec.commandLine(), option + " must be >= 1: " + value);
    }
  }

  /**
   * Runs every method x keys x kind trial of {@code benchmark}, kinds innermost so the figures
   * compared in one row are measured close together in time.
   */
  private List<FilterReport.Score> runAll(
      PrintWriter out,
      Class<?> benchmark,
      List<FilterReport.Method> methods,
      List<Long> sizes,
      JmhSettings jmh)
      throws RunnerException {
    List<FilterReport.Score> scores = new ArrayList<>();
    int total = sizes.size() * methods.size() * kinds.size();
    int done = 0;
    for (long size : sizes) {
      for (FilterReport.Method method : methods) {
        for (FilterKind kind : kinds) {
          done++;
          out.printf(
              Locale.ROOT,
              "[%2d/%d] %s.%s kind=%s keys=%d ... ",
              done,
              total,
              benchmark.getSimpleName(),
              method.name(),
              kind,
              size);
          out.flush();
          long start = System.nanoTime();
          FilterReport.Score score = runTrial(benchmark, method.name(), kind, size, jmh);
          scores.add(score);
          out.printf(
              Locale.ROOT,
              "%s ns/%s (%.0f s, load %.1f)%n",
              FilterReport.format(score.value()),
              benchmark == FilterBuildBenchmark.class ? "key" : "lookup",
              (System.nanoTime() - start) / 1e9,
              ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
          out.flush();
        }
      }
    }
    return scores;
  }

  private FilterReport.Score runTrial(
      Class<?> benchmark, String method, FilterKind kind, long size, JmhSettings jmh)
      throws RunnerException {
    Options options =
        new OptionsBuilder()
            .include("^" + Pattern.quote(benchmark.getName() + "." + method) + "$")
            .param("kind", kind.name())
            .param("keys", Long.toString(size))
            .param("bitsPerKey", Double.toString(bitsPerKey))
            .warmupIterations(jmh.warmup())
            .warmupTime(TimeValue.milliseconds(jmh.iterationMillis()))
            .measurementIterations(jmh.iterations())
            .measurementTime(TimeValue.milliseconds(jmh.iterationMillis()))
            .forks(jmh.forks())
            .shouldFailOnError(true)
            .verbosity(verbose ? VerboseMode.NORMAL : VerboseMode.SILENT)
            .build();
    Collection<RunResult> results = new Runner(options).run();
    if (results.size() != 1) {
      throw new IllegalStateException(
          "expected one JMH result for " + method + " " + kind + " " + size + ", got " + results);
    }
    Result<?> primary = results.iterator().next().getPrimaryResult();
    Statistics iterations = primary.getStatistics();
    // Query scores are already ns per lookup; build scores are time per build, made ns per key.
    double scale = nanosPerUnit(primary.getScoreUnit());
    if (benchmark == FilterBuildBenchmark.class) {
      scale /= size;
    }
    return new FilterReport.Score(
        method,
        kind,
        size,
        iterations.getPercentile(50) * scale,
        iterations.getMin() * scale,
        iterations.getMax() * scale);
  }

  /** Nanoseconds in the time unit of a JMH score unit such as {@code ms/op}. */
  static double nanosPerUnit(String scoreUnit) {
    String time = scoreUnit.substring(0, scoreUnit.indexOf('/'));
    return switch (time) {
      case "ns" -> 1;
      case "us" -> 1e3;
      case "ms" -> 1e6;
      case "s" -> 1e9;
      default -> throw new IllegalArgumentException("unknown JMH score unit: " + scoreUnit);
    };
  }
}
