package dev.strata.bench.dbbench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench coldreads}: what the first Get or batched Get after an open with the OS page
 * cache evicted costs, one measurement per process, so that the JVM is as cold as a
 * restarted application's. It evicts the engine's database of a {@code dbbench} run ({@link
 * PageCache}), opens it as that run did, waits for the open's background work, then times one
 * operation on random present keys and prints the bytes the process read from the device ({@code
 * /proc/self/io} {@code read_bytes}) and the device's completed reads and sectors ({@code
 * /proc/diskstats}, the whole device: other processes' reads count too) during it. The operation
 * is bracketed by two failing {@code access} calls on {@code /strata-coldreads-begin} and {@code
 * -end}, to find it in an {@code strace -f -e trace=pread64,readahead,access} log.
 *
 * <pre>
 * for s in 1 2 3 4 5; do
 *   java -jar bench/target/strata-bench.jar coldreads --out dbbench-large --engine strata --op get --seed $s
 * done
 * java -jar bench/target/strata-bench.jar coldreads --out dbbench-large --engine rocksdb-lru --absent --count 1000
 * </pre>
 *
 * <p>With {@code --count N} it times N operations one after another, on new random keys each
 * ({@code --absent}: keys no table holds, so that what they read is the tables' metadata alone),
 * and adds the longest, the device bytes per operation and the device bytes the open read.
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "coldreads",
    mixinStandardHelpOptions = true,
    description = "Latency and device reads of the first Get or multiGet after an open with the "
        + "database's files evicted from the OS page cache; one measurement per process.")
public final class ColdReadsCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--out", paramLabel = "DIR", required = true,
      description = "A dbbench output folder: its run.properties names the databases and settings.")
  private Path out;

  @Option(names = "--engine", paramLabel = "E", defaultValue = "strata",
      description = "strata, rocksdb-lru or rocksdb-hcc. Default: ${DEFAULT-VALUE}.")
  private String engine;

  @Option(names = "--op", paramLabel = "OP", defaultValue = "get",
      description = "get, or multiget (--batch-size keys). Default: ${DEFAULT-VALUE}.")
  private String op;

  @Option(names = "--batch-size", paramLabel = "N", defaultValue = "32",
      description = "Keys of a multiget. Default: ${DEFAULT-VALUE}.")
  private int batchSize;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
      description = "Seed of the keys. Default: ${DEFAULT-VALUE}.")
  private long seed;

  @Option(names = "--keep-page-cache", description = "Do not evict: the first operation's CPU alone.")
  private boolean keepPageCache;

  @Option(names = "--absent",
      description = "Keys certainly absent that sort among the present ones (readmissing's).")
  private boolean absent;

  @Option(names = "--count", paramLabel = "N", defaultValue = "1",
      description = "Operations timed one after another after the open, each on new random keys;"
          + " with more than one the line adds the longest and the device bytes per operation."
          + " Default: ${DEFAULT-VALUE}.")
  private int count;

  @Override
  public Integer call() throws Exception {
    RunConfig config = RunConfig.read(out.resolve(RunConfig.FILE));
    EngineKind kind = EngineKind.parse(engine);
    Path dir = config.dbPath(kind, Benchmark.Layout.NARROW);
    if (!keepPageCache) {
      PageCache.evict(dir);
    }
    if (count < 1) {
      throw new IllegalArgumentException("--count must be at least 1: " + count);
    }
    KeySpace keys = new KeySpace(config.num(), config.seed());
    SplittableRandom random = new SplittableRandom(seed);
    int perOp = op.equals("multiget") ? batchSize : 1;
    List<List<byte[]>> batches = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      List<byte[]> batch = new ArrayList<>();
      for (int i = 0; i < perOp; i++) {
        long k = random.nextLong(config.num());
        batch.add(absent ? keys.missingKey(k) : keys.key(k));
      }
      batches.add(batch);
    }
    DiskStats disk = new DiskStats(dir);
    ProcIo ioAtOpen = ProcIo.now();
    long openStart = System.nanoTime();
    try (Store store = Store.open(kind, dir, Benchmark.Layout.NARROW, config)) {
      double openMs = (System.nanoTime() - openStart) / 1e6;
      ProcIo ioOpened = ProcIo.now();
      Thread.sleep(300); // the open's background work (RocksDB's table loading) settles
      ProcIo ioBefore = ProcIo.now();
      long[] diskBefore = disk.now();
      Files.exists(Path.of("/strata-coldreads-begin"));
      long firstNanos = 0;
      long maxNanos = 0;
      for (List<byte[]> batch : batches) {
        long start = System.nanoTime();
        if (op.equals("multiget")) {
          store.multiGet(batch);
        } else {
          store.get(batch.get(0));
        }
        long nanos = System.nanoTime() - start;
        firstNanos = firstNanos == 0 ? nanos : firstNanos;
        maxNanos = Math.max(maxNanos, nanos);
      }
      Files.exists(Path.of("/strata-coldreads-end"));
      ProcIo ioAfter = ProcIo.now();
      long[] diskAfter = disk.now();
      long readBytes = ioBefore == null || ioAfter == null ? -1 : ioAfter.minus(ioBefore).readBytes();
      long openReadBytes = ioAtOpen == null || ioOpened == null ? -1 : ioOpened.minus(ioAtOpen).readBytes();
      PrintWriter w = spec.commandLine().getOut();
      w.printf(Locale.ROOT, "%s %s open_ms=%.1f first_us=%.0f read_bytes=%d device_reads=%d device_kib=%d",
          kind.label(), op + (absent ? "-absent" : ""), openMs, firstNanos / 1e3, readBytes,
          diskAfter[0] - diskBefore[0], (diskAfter[1] - diskBefore[1]) / 2);
      if (count > 1) {
        w.printf(Locale.ROOT, " ops=%d max_us=%.0f read_bytes_per_op=%.0f open_read_bytes=%d",
            count, maxNanos / 1e3, readBytes < 0 ? -1.0 : (double) readBytes / count, openReadBytes);
      }
      w.println();
      w.flush();
    }
    return 0;
  }

  /** Completed reads and sectors read of the device holding a folder, from /proc/diskstats. */
  private static final class DiskStats {
    private final long major;
    private final long minor;

    DiskStats(Path dir) throws IOException {
      long dev = ((Number) Files.getAttribute(dir, "unix:dev")).longValue();
      // Linux's dev_t: major in bits 8-19, minor in bits 0-7 and 20-31.
      major = (dev >>> 8) & 0xfff;
      minor = (dev & 0xff) | ((dev >>> 12) & 0xfff00);
    }

    /** {reads completed, sectors read}; zeros when the device is not listed. */
    long[] now() throws IOException {
      for (String line : Files.readAllLines(Path.of("/proc/diskstats"))) {
        String[] f = line.trim().split("\\s+");
        if (Long.parseLong(f[0]) == major && Long.parseLong(f[1]) == minor) {
          return new long[] {Long.parseLong(f[3]), Long.parseLong(f[5])};
        }
      }
      return new long[2];
    }
  }
}
