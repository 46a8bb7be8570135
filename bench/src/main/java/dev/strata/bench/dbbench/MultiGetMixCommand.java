package dev.strata.bench.dbbench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLongArray;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench multigetmix}: batched Gets against the same Gets one by one on a {@code
 * dbbench} database, alternated in each caller thread of one process, so that both sides run under
 * the same load, block cache and compiled code. {@code dbbench} runs {@code readrandom} and {@code
 * multireadrandom} in processes minutes apart, whose throughput on the development VM moved by
 * 10-25 % from one run to the next with the same code, more than the changes to the batch being
 * measured. Each caller runs 8 batches of {@code --batch-size} random present keys, then as many
 * Gets, timed apart; the warm-up's rounds are not counted. Prints each side's time per key, summed
 * over the callers, and their ratio (above 1: a batch is faster).
 *
 * <p>Strata's batches run on their callers' threads here ({@code multiGetThreads} at its default,
 * 0), as in {@code dbbench} with a caller per core.
 *
 * <pre>
 * java -Xmx8g -jar bench/target/strata-bench.jar multigetmix \
 *   --out dbbench-large --engine strata --cache-mb 4096 --threads 2 --warmup 25 --duration 20
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "multigetmix",
    mixinStandardHelpOptions = true,
    description = "multiGet against the same Gets one by one on a dbbench database, alternated in "
        + "each caller thread of one process; prints the time per key of each and their ratio.")
public final class MultiGetMixCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  /** Batches a caller runs before its Gets, and Gets after them. */
  private static final int BATCHES_PER_ROUND = 8;

  @Option(names = "--out", paramLabel = "DIR", required = true,
      description = "A dbbench output folder: its run.properties names the databases and settings.")
  private Path out;

  @Option(names = "--engine", paramLabel = "E", defaultValue = "strata",
      description = "strata, rocksdb-lru or rocksdb-hcc. Default: ${DEFAULT-VALUE}.")
  private String engine;

  @Option(names = "--cache-mb", paramLabel = "MIB",
      description = "Block cache, MiB. Default: the run's.")
  private Long cacheMb;

  @Option(names = "--batch-size", paramLabel = "N", defaultValue = "64",
      description = "Keys of a batch. Default: ${DEFAULT-VALUE}.")
  private int batchSize;

  @Option(names = "--threads", paramLabel = "T", defaultValue = "2",
      description = "Caller threads. Default: ${DEFAULT-VALUE}.")
  private int threads;

  @Option(names = "--warmup", paramLabel = "S", defaultValue = "25",
      description = "Seconds of rounds not counted. Default: ${DEFAULT-VALUE}.")
  private double warmupSeconds;

  @Option(names = "--duration", paramLabel = "S", defaultValue = "20",
      description = "Seconds of rounds counted. Default: ${DEFAULT-VALUE}.")
  private double durationSeconds;

  /** Each side's summed nanoseconds, keys and keys found. */
  record Mix(long batchNanos, long batchKeys, long batchFound, long getNanos, long getKeys, long getFound) {
    double batchNanosPerKey() {
      return batchNanos / (double) batchKeys;
    }

    double getNanosPerKey() {
      return getNanos / (double) getKeys;
    }
  }

  @Override
  public Integer call() throws Exception {
    if (threads < 1 || batchSize < 1 || warmupSeconds < 0 || !(durationSeconds > 0)
        || (cacheMb != null && cacheMb < 0)) {
      throw new ParameterException(spec.commandLine(), "--threads and --batch-size must be at "
          + "least 1, --duration above 0, --warmup and --cache-mb not negative");
    }
    RunConfig run = RunConfig.read(out.resolve(RunConfig.FILE));
    RunConfig config = cacheMb == null ? run : run.withCacheBytes(cacheMb << 20);
    EngineKind kind = EngineKind.parse(engine);
    Path dir = config.dbPath(kind, Benchmark.Layout.NARROW);
    Mix mix;
    try (Store store = Store.open(kind, dir, Benchmark.Layout.NARROW, config)) {
      mix = run(store, new KeySpace(config.num(), config.seed()), threads, batchSize,
          (long) (warmupSeconds * 1e9), (long) (durationSeconds * 1e9));
    }
    spec.commandLine().getOut().printf(Locale.ROOT,
        "%s threads=%d batch=%d multiget_ns_per_key=%.0f get_ns_per_key=%.0f ratio=%.3f found=%d/%d,%d/%d%n",
        engine, threads, batchSize, mix.batchNanosPerKey(), mix.getNanosPerKey(),
        mix.getNanosPerKey() / mix.batchNanosPerKey(), mix.batchFound(), mix.batchKeys(),
        mix.getFound(), mix.getKeys());
    spec.commandLine().getOut().flush();
    return 0;
  }

  /** Rounds of batches then Gets on {@code threads} callers; those after the warm-up counted. */
  static Mix run(Store store, KeySpace keys, int threads, int batchSize, long warmupNanos,
      long durationNanos) throws InterruptedException {
    long measureFrom = System.nanoTime() + warmupNanos;
    long end = measureFrom + durationNanos;
    AtomicLongArray sums = new AtomicLongArray(6);
    List<Thread> callers = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      SplittableRandom random = new SplittableRandom(1000 + t);
      Thread caller = new Thread(() -> {
        try {
          for (long start = System.nanoTime(); start < end; start = System.nanoTime()) {
            long batchFound = 0;
            for (int b = 0; b < BATCHES_PER_ROUND; b++) {
              List<byte[]> batch = new ArrayList<>(batchSize);
              for (int i = 0; i < batchSize; i++) {
                batch.add(keys.key(random.nextLong(keys.size())));
              }
              batchFound += store.multiGet(batch);
            }
            long between = System.nanoTime();
            long getFound = 0;
            for (int i = 0; i < BATCHES_PER_ROUND * batchSize; i++) {
              getFound += store.get(keys.key(random.nextLong(keys.size()))) ? 1 : 0;
            }
            long done = System.nanoTime();
            if (start >= measureFrom) {
              long n = (long) BATCHES_PER_ROUND * batchSize;
              sums.addAndGet(0, between - start);
              sums.addAndGet(1, n);
              sums.addAndGet(2, batchFound);
              sums.addAndGet(3, done - between);
              sums.addAndGet(4, n);
              sums.addAndGet(5, getFound);
            }
          }
        } catch (Exception | Error e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      }, "multigetmix-" + t);
      callers.add(caller);
      caller.start();
    }
    for (Thread caller : callers) {
      caller.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("a caller failed", failures.get(0));
    }
    if (sums.get(1) == 0) {
      throw new IllegalStateException("no round ended after the warm-up: raise --duration");
    }
    return new Mix(sums.get(0), sums.get(1), sums.get(2), sums.get(3), sums.get(4), sums.get(5));
  }
}
