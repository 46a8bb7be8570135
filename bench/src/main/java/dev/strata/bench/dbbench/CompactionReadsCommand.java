package dev.strata.bench.dbbench;

import dev.strata.bench.common.CompressibleValues;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench compactreads}: what one full compaction reads from its inputs, buffered and
 * with direct reads, with and without compaction read-ahead. It fills a database of {@code --keys}
 * random keys into level 0 once (auto compaction off, 8 MiB memtables), then for each
 * configuration copies it, empties the OS page cache of the copy ({@link PageCache}), opens it and
 * times {@code compact()}, printing the read calls and the bytes read ({@code /proc/self/io}
 * {@code syscr}, {@code rchar} and {@code read_bytes}) that the compaction caused.
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar compactreads --keys 1000000 --dir /tmp/compactreads
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "compactreads",
    mixinStandardHelpOptions = true,
    description = "Read calls and device bytes of one full compaction from a cold page cache, "
        + "buffered or direct, with and without compaction read-ahead.")
public final class CompactionReadsCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--keys", paramLabel = "N", description = "Keys to fill. Default: ${DEFAULT-VALUE}.")
  private long keys = 1_000_000;

  @Option(names = "--dir", paramLabel = "DIR", required = true,
      description = "Working folder: DIR/source (kept, reused when present) and DIR/run.")
  private Path dir;

  @Option(names = "--readahead-kb", split = ",", paramLabel = "KB",
      description = "compactionReadaheadBytes values, KiB. Default: 0,2048.")
  private List<Integer> readaheadKb = List.of(0, 2048);

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Path source = dir.resolve("source");
    if (!Files.isDirectory(source)) {
      fill(source);
    }
    out.printf(Locale.ROOT, "%-8s %12s %10s %12s %14s %10s%n",
        "reads", "readahead", "read calls", "rchar MiB", "read_bytes MiB", "compact ms");
    for (boolean direct : new boolean[] {false, true}) {
      for (int kb : readaheadKb) {
        Path run = dir.resolve("run");
        copy(source, run);
        PageCache.evict(run);
        DbOptions options = base().useDirectReads(direct).compactionReadaheadBytes(kb << 10).build();
        try (Db db = Db.open(run, options)) {
          ProcIo before = ProcIo.now();
          long start = System.nanoTime();
          db.compact();
          long ms = (System.nanoTime() - start) / 1_000_000;
          ProcIo io = ProcIo.now().minus(before);
          out.printf(Locale.ROOT, "%-8s %9d KiB %10d %12.1f %14.1f %10d%n", direct ? "direct" : "buffered",
              kb, io.readCalls(), io.rchar() / 1048576.0, io.readBytes() / 1048576.0, ms);
          out.flush();
        }
      }
    }
    return 0;
  }

  private static DbOptions.Builder base() {
    return DbOptions.builder().autoCompaction(false).memtableBytes(8 << 20).blockCacheBytes(8 << 20);
  }

  /** Level-0 tables of {@code keys} keys in the order of a fillrandom, 100-byte values half compressible. */
  private void fill(Path source) throws IOException {
    long seed = 20260501L;
    KeySpace space = new KeySpace(keys, seed);
    Permutation order = new Permutation(keys, seed);
    CompressibleValues values = new CompressibleValues(100, 0.5, seed);
    try (Db db = Db.open(source, base().build())) {
      for (long i = 0; i < keys; i++) {
        long k = order.apply(i);
        db.put(space.key(k), values.value(k));
      }
      db.flush();
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    if (Files.exists(to)) {
      try (Stream<Path> s = Files.walk(to)) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(to);
    try (Stream<Path> s = Files.list(from)) {
      for (Path p : s.toList()) {
        if (!p.getFileName().toString().equals("LOCK")) {
          Files.copy(p, to.resolve(p.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }
}
