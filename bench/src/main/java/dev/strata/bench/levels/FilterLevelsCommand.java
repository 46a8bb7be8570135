package dev.strata.bench.levels;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.DbStats;
import dev.strata.engine.FilterAllocation;
import dev.strata.engine.LevelStats;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench filterlevels}: the same random fill through automatic leveled compaction
 * (flushed every {@code --flush-keys} keys, each flush's compactions done before the next writes,
 * so every configuration builds the same tree) under each filter configuration (uniform Bloom, Bloom by level, by level with Ribbon from level
 * 1), then Gets of absent keys; per configuration it prints each level's tables, entries, filter
 * bytes, bits per entry and the model's expected false positives ({@code Db.levelStats()}), the
 * filter bytes in all, and the false positives per absent Get measured ({@code
 * bloomFalsePositives / gets}). Each configuration fills a database of its own under {@code
 * --dir}, deleted after it.
 *
 * <pre>
 * flock /work/bench.lock java -jar bench/target/strata-bench.jar filterlevels --dir /tmp/fl \
 *     --keys 1000000 --gets 200000
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "filterlevels",
    mixinStandardHelpOptions = true,
    description = "Filter bytes and false positives per absent Get, per level, under uniform, "
        + "by-level and by-level-with-Ribbon filters, on the same fill.")
public final class FilterLevelsCommand implements Callable<Integer> {
  /** The configurations, in the order they run. */
  enum Config {
    UNIFORM(FilterAllocation.UNIFORM, Integer.MAX_VALUE),
    BY_LEVEL(FilterAllocation.BY_LEVEL, Integer.MAX_VALUE),
    BY_LEVEL_RIBBON(FilterAllocation.BY_LEVEL, 1);

    final FilterAllocation allocation;
    final int ribbonFromLevel;

    Config(FilterAllocation allocation, int ribbonFromLevel) {
      this.allocation = allocation;
      this.ribbonFromLevel = ribbonFromLevel;
    }
  }

  @Spec private CommandSpec spec;

  @Option(names = "--dir", paramLabel = "DIR", required = true,
      description = "Where the databases are filled (one at a time, deleted after).")
  private Path dir;

  @Option(names = "--keys", defaultValue = "1000000", description = "Keys filled. Default: ${DEFAULT-VALUE}.")
  private int keys;

  @Option(names = "--value-bytes", defaultValue = "100", description = "Value size. Default: ${DEFAULT-VALUE}.")
  private int valueBytes;

  @Option(names = "--gets", defaultValue = "200000",
      description = "Gets of absent keys per configuration. Default: ${DEFAULT-VALUE}.")
  private int gets;

  @Option(names = "--bits", defaultValue = "10", description = "Filter budget, bits per key. Default: ${DEFAULT-VALUE}.")
  private double bits;

  @Option(names = "--flush-keys", defaultValue = "30000",
      description = "Keys per flush: the fill flushes every so many keys and waits for the compactions"
          + " that follow, so every configuration builds the same tree. Default: ${DEFAULT-VALUE}.")
  private int flushKeys;

  @Option(names = "--file-mib", defaultValue = "4",
      description = "Compaction output size; level 1 holds four of them. Default: ${DEFAULT-VALUE}.")
  private int fileMib;

  @Option(names = "--configs", split = ",", defaultValue = "UNIFORM,BY_LEVEL,BY_LEVEL_RIBBON",
      description = "Configurations to run. Default: ${DEFAULT-VALUE}.")
  private List<Config> configs;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the keys. Default: ${DEFAULT-VALUE}.")
  private long seed;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "filterlevels: %d keys of %d-byte values, %.1f bits per key, %d absent Gets,"
        + " a flush every %d keys, %d MiB files%n", keys, valueBytes, bits, gets, flushKeys, fileMib);
    for (Config c : configs) {
      run(c, out);
      out.flush();
    }
    return 0;
  }

  private DbOptions options(Config c) {
    long file = (long) fileMib << 20;
    return DbOptions.builder()
        .bloomBitsPerKey(bits)
        .filterAllocation(c.allocation)
        .ribbonFromLevel(c.ribbonFromLevel)
        .memtableBytes(1L << 30) // never full: the fill flushes
        .targetFileSizeBytes(file)
        .maxBytesForLevelBase(4 * file)
        .blockCacheBytes(16L << 20)
        .readTriggeredCompactionBytesPerRead(0) // the absent Gets must not reshape the tree
        .build();
  }

  private void run(Config c, PrintWriter out) throws IOException, InterruptedException {
    Path db = dir.resolve(c.name().toLowerCase(Locale.ROOT));
    try (Db d = Db.open(db, options(c))) {
      SplittableRandom random = new SplittableRandom(seed);
      byte[] value = new byte[valueBytes];
      long fillStart = System.nanoTime();
      for (int i = 0; i < keys; i++) {
        random.nextBytes(value);
        d.put(key(random.nextLong(keys), false), value);
        if ((i + 1) % flushKeys == 0 || i == keys - 1) {
          d.flush();
          while (d.backgroundWorkPending()) {
            Thread.sleep(10); // the compactions this flush starts run before the next writes
          }
        }
      }
      double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
      DbStats before = d.stats();
      for (int i = 0; i < gets; i++) {
        d.get(key(random.nextLong(keys), true));
      }
      DbStats after = d.stats();
      long falsePositives = after.bloomFalsePositives() - before.bloomFalsePositives();
      long consulted = after.tablesConsulted() - before.tablesConsulted();
      out.printf(Locale.ROOT, "%n%s (fill %.1f s)%n", c, fillSeconds);
      out.printf(Locale.ROOT, "  %-5s %6s %11s %12s %9s %11s%n", "level", "tables", "entries",
          "filter KiB", "bits/key", "model FP");
      long filterBytes = 0;
      double model = 0;
      for (LevelStats l : d.levelStats()) {
        filterBytes += l.filterBytes();
        model += l.expectedFalsePositiveRate();
        out.printf(Locale.ROOT, "  L%-4d %6d %11d %12.1f %9.2f %11.5f%n", l.level(), l.tables(),
            l.entries(), l.filterBytes() / 1024.0, l.filterBitsPerKey(), l.expectedFalsePositiveRate());
      }
      out.printf(Locale.ROOT, "  filter bytes %d; false positives per absent Get: measured %.5f"
              + " (%d in %d Gets, %d tables consulted), model %.5f%n",
          filterBytes, (double) falsePositives / gets, falsePositives, gets, consulted, model);
    } finally {
      deleteTree(db);
    }
  }

  /** Key {@code i}: present keys end in 'p', absent ones in 'a', so no absent key was written. */
  private static byte[] key(long i, boolean absent) {
    return String.format(Locale.ROOT, "key%012d%c", i, absent ? 'a' : 'p').getBytes(StandardCharsets.UTF_8);
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (var files = Files.walk(p)) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
