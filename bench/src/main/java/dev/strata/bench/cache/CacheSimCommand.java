package dev.strata.bench.cache;

import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.ClockBlockCache;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench cachesim}: the hit-rate harness that chose the block cache's policy. It
 * replays {@code dbbench}-like Get traces ({@link TreeModel}: per Get one filter chunk per table
 * consulted, one index block or partition and one data block) through {@link ClockBlockCache}, the
 * old {@link LruBlockCache} and Caffeine, at several cache sizes, and prints hit rates per kind of
 * block and the bytes each Get had to read. Single-threaded and deterministic (seeded); a policy's
 * figures depend only on the trace.
 *
 * <p>Workloads: {@code uniform} and {@code zipf} present keys ({@code readrandom}), {@code missing}
 * (absent keys, uniform: {@code readmissing}), and {@code zipf+scan} (Zipfian Gets, then a scan of
 * {@code --scan-x} times the cache in data blocks streaming through, then the measured Gets).
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar cachesim
 * java -jar bench/target/strata-bench.jar cachesim --keys 20000000 --gets 4000000 --cache-mib 64
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "cachesim",
    mixinStandardHelpOptions = true,
    description = "Replay Get traces through the block cache policies and print hit rates.")
public final class CacheSimCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--keys", description = "Keys in the modelled tree (default: ${DEFAULT-VALUE}).")
  private long keys = 2_000_000;

  @Option(names = "--gets", description = "Measured Gets per run; as many warm the cache first (default: ${DEFAULT-VALUE}).")
  private int gets = 200_000;

  @Option(names = "--cache-mib", split = ",", description = "Cache sizes in MiB (default: ${DEFAULT-VALUE}).")
  private List<Integer> cacheMib = List.of(4, 8, 16);

  @Option(names = "--chunk-bytes", description = "Filter chunk size (default: ${DEFAULT-VALUE}).")
  private int chunkBytes = 16 << 10;

  @Option(names = "--index-partition-bytes", description = "Index partition size; 0 for one index block per table (default: ${DEFAULT-VALUE}).")
  private int indexPartitionBytes = 4 << 10;

  @Option(names = "--keys-per-table", description = "Keys per table (default: ${DEFAULT-VALUE}).")
  private long keysPerTable = 160_000;

  @Option(names = "--theta", description = "Zipfian exponent (default: ${DEFAULT-VALUE}).")
  private double theta = 0.99;

  @Option(names = "--scan-x", description = "The scan burst, in cache sizes of data blocks (default: ${DEFAULT-VALUE}).")
  private int scanX = 2;

  @Option(names = "--metadata-share", description = "ClockBlockCache's metadata floor (default: ${DEFAULT-VALUE}).")
  private double metadataShare = ClockBlockCache.METADATA_SHARE;

  @Option(names = "--shards", description = "Shards of the sharded policies (default: ${DEFAULT-VALUE}).")
  private int shards = ClockBlockCache.DEFAULT_SHARDS;

  @Option(names = "--workloads", split = ",", description = "Of uniform, zipf, missing, zipf+scan (default: ${DEFAULT-VALUE}).")
  private List<String> workloads = List.of("uniform", "zipf", "missing", "zipf+scan");

  @Option(names = "--policies", split = ",", description = "Of CLOCK, LRU_OLD, CAFFEINE (default: all).")
  private List<Policy> policies = List.of(Policy.values());

  @Option(names = "--seed", description = "Trace seed (default: ${DEFAULT-VALUE}).")
  private long seed = 42;

  /** A block of a given cost. */
  private record SimBlock(int sizeBytes) implements CachedBlock {}

  /** The policies compared. */
  private enum Policy {
    CLOCK,
    LRU_OLD,
    CAFFEINE
  }

  private BlockCache create(Policy p, long bytes) {
    return switch (p) {
      case CLOCK -> new ClockBlockCache(bytes, shards, metadataShare);
      case LRU_OLD -> new LruBlockCache(bytes, shards);
      case CAFFEINE -> new CaffeineBlockCache(bytes, Runnable::run);
    };
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    TreeModel model = new TreeModel(keys, 4, keysPerTable, 40, 4096, chunkBytes, indexPartitionBytes, 10);
    out.printf(Locale.ROOT, "tree: %,d keys, metadata %.1f MiB, data %.1f MiB; chunk %d B, index partition %d B%n",
        keys, model.metadataBytes() / 1048576.0, model.dataBytes() / 1048576.0, chunkBytes, indexPartitionBytes);
    out.printf(Locale.ROOT, "%-10s %-9s %6s %7s %7s %7s %7s %10s%n",
        "workload", "policy", "MiB", "hit%", "filter%", "index%", "data%", "KB/Get");
    ZipfianRanks zipf = new ZipfianRanks(keys, theta, seed);
    for (String workload : workloads) {
      SplittableRandom r = new SplittableRandom(seed);
      long[] trace = new long[2 * gets];
      for (int i = 0; i < trace.length; i++) {
        trace[i] = workload.startsWith("zipf") ? zipf.next() : r.nextLong(keys);
      }
      boolean present = !workload.equals("missing");
      for (int mib : cacheMib) {
        long bytes = (long) mib << 20;
        int scanBlocks = workload.equals("zipf+scan") ? (int) (scanX * bytes / 4096) : 0;
        for (Policy p : policies) {
          Tally t = replay(create(p, bytes), model, trace, present, scanBlocks);
          out.printf(Locale.ROOT, "%-10s %-9s %6d %7.2f %7.2f %7.2f %7.2f %10.2f%n", workload, p, mib,
              t.hitPercent(null), t.hitPercent(BlockKind.FILTER), t.hitPercent(BlockKind.INDEX),
              t.hitPercent(BlockKind.DATA), t.bytesMissed / 1024.0 / gets);
        }
      }
    }
    out.flush();
    return 0;
  }

  /** Warms with the first half of {@code trace}, scans, then measures the second half. */
  private static Tally replay(BlockCache cache, TreeModel model, long[] trace, boolean present, int scanBlocks)
      throws IOException {
    Tally warm = new Tally(cache);
    int half = trace.length / 2;
    for (int i = 0; i < half; i++) {
      model.get(trace[i], present, warm);
    }
    if (scanBlocks > 0) {
      model.scan(trace[0], scanBlocks, warm);
    }
    Tally measured = new Tally(cache);
    for (int i = half; i < trace.length; i++) {
      model.get(trace[i], present, measured);
    }
    if (measured.failure != null) {
      throw measured.failure;
    }
    return measured;
  }

  /** Sends requests to a cache and counts hits and the bytes of misses. */
  private static final class Tally implements TreeModel.Requests {
    final BlockCache cache;
    final long[] requests = new long[BlockKind.values().length];
    final long[] misses = new long[BlockKind.values().length];
    long bytesMissed;
    IOException failure;

    Tally(BlockCache cache) {
      this.cache = cache;
    }

    @Override
    public void request(long fileNumber, long offset, BlockKind kind, int bytes) {
      boolean[] loaded = {false};
      try {
        cache.getOrLoad(new BlockCacheKey(fileNumber, offset), kind, () -> {
          loaded[0] = true;
          return new SimBlock(bytes);
        });
      } catch (IOException e) {
        failure = e;
      }
      requests[kind.ordinal()]++;
      if (loaded[0]) {
        misses[kind.ordinal()]++;
        bytesMissed += bytes;
      }
    }

    /** Hits per 100 requests of {@code kind}, or of all kinds for null. */
    double hitPercent(BlockKind kind) {
      long req = 0;
      long miss = 0;
      for (BlockKind k : BlockKind.values()) {
        if (kind == null || k == kind) {
          req += requests[k.ordinal()];
          miss += misses[k.ordinal()];
        }
      }
      return req == 0 ? Double.NaN : 100.0 * (req - miss) / req;
    }
  }
}
