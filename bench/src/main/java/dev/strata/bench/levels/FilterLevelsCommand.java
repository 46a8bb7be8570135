package dev.strata.bench.levels;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.DbStats;
import dev.strata.engine.FilterAllocation;
import dev.strata.engine.LevelStats;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench filterlevels}: the same random fill through automatic leveled compaction
 * (flushed every {@code --flush-keys} keys, each flush's compactions done before the next writes,
 * so every configuration of an engine builds the same tree) under each filter configuration
 * (Strata's uniform Bloom, Bloom by level, by level with Ribbon from level 1; RocksDB's Bloom and
 * its Ribbon with Bloom for level 0, see {@link RocksDbFilterRun}), then Gets of absent keys; per
 * configuration it prints each level's tables, entries, filter bytes, bits per entry and Strata's
 * model of the expected false positives ({@code Db.levelStats()}), the filter bytes in all, and the
 * false positives per absent Get measured (Strata's {@code bloomFalsePositives}, RocksDB's
 * full-filter tickers); then all configurations in one table ({@link FilterReport}), and with
 * {@code --csv} the same as CSV. Each configuration fills a database of its own under {@code
 * --dir}, deleted after it.
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar filterlevels --dir /tmp/fl \
 *     --keys 1000000 --gets 200000 --csv filters.csv
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "filterlevels",
    mixinStandardHelpOptions = true,
    description = "Filter bytes and false positives per absent Get, per level, under uniform, "
        + "by-level and by-level-with-Ribbon filters and RocksDB's Bloom and Ribbon, on the same fill.")
public final class FilterLevelsCommand implements Callable<Integer> {
  /** The configurations, in the order they run. */
  enum Config {
    UNIFORM(FilterAllocation.UNIFORM, Integer.MAX_VALUE, false),
    BY_LEVEL(FilterAllocation.BY_LEVEL, Integer.MAX_VALUE, false),
    BY_LEVEL_RIBBON(FilterAllocation.BY_LEVEL, 1, false),
    /** RocksDB, a Bloom filter in every table. */
    ROCKSDB_BLOOM(null, Integer.MAX_VALUE, true),
    /** RocksDB, Ribbon with Bloom for level 0 ({@code bloom_before_level=1}). */
    ROCKSDB_RIBBON(null, 1, true);

    final FilterAllocation allocation;
    final int ribbonFromLevel;
    final boolean rocksDb;

    Config(FilterAllocation allocation, int ribbonFromLevel, boolean rocksDb) {
      this.allocation = allocation;
      this.ribbonFromLevel = ribbonFromLevel;
      this.rocksDb = rocksDb;
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

  @Option(names = "--configs", split = ",", defaultValue = "UNIFORM,BY_LEVEL,BY_LEVEL_RIBBON,ROCKSDB_BLOOM,ROCKSDB_RIBBON",
      description = "Configurations to run. Default: ${DEFAULT-VALUE}.")
  private List<Config> configs;

  @Option(names = "--csv", paramLabel = "FILE",
      description = "Also write every configuration's levels and totals to FILE as CSV.")
  private Path csv;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of the keys. Default: ${DEFAULT-VALUE}.")
  private long seed;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "filterlevels: %d keys of %d-byte values, %.1f bits per key, %d absent Gets,"
        + " a flush every %d keys, %d MiB files%n", keys, valueBytes, bits, gets, flushKeys, fileMib);
    FilterWorkload w = new FilterWorkload(keys, valueBytes, gets, flushKeys, seed);
    List<FilterResult> results = new ArrayList<>();
    for (Config c : configs) {
      Path db = dir.resolve(c.name().toLowerCase(Locale.ROOT));
      try {
        FilterResult r = c.rocksDb
            ? new RocksDbFilterRun(bits, (long) fileMib << 20, c == Config.ROCKSDB_RIBBON)
                .run(c.name(), db, w)
            : runStrata(c, db, w);
        results.add(r);
        FilterReport.printLevels(r, out);
      } finally {
        deleteTree(db);
      }
      out.flush();
    }
    FilterReport.printSummary(results, out);
    if (csv != null) {
      FilterReport.writeCsv(results, csv);
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

  private FilterResult runStrata(Config c, Path db, FilterWorkload w)
      throws IOException, InterruptedException {
    try (Db d = Db.open(db, options(c))) {
      FilterTarget target = new StrataTarget(d);
      long fillStart = System.nanoTime();
      SplittableRandom random = w.fill(target);
      double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
      DbStats before = d.stats();
      w.absentGets(target, random);
      DbStats after = d.stats();
      List<FilterResult.Level> levels = new ArrayList<>();
      double model = 0;
      for (LevelStats l : d.levelStats()) {
        model += l.expectedFalsePositiveRate();
        levels.add(new FilterResult.Level(l.level(), l.tables(), l.entries(), l.filterBytes(),
            l.expectedFalsePositiveRate()));
      }
      return new FilterResult(c.name(), fillSeconds, levels,
          after.bloomFalsePositives() - before.bloomFalsePositives(),
          after.tablesConsulted() - before.tablesConsulted(), gets, model, "bloomFalsePositives",
          Map.of());
    }
  }

  /** The fill's and Gets' operations on an open Strata database. */
  private record StrataTarget(Db d) implements FilterTarget {
    @Override
    public void put(byte[] key, byte[] value) throws IOException {
      d.put(key, value);
    }

    @Override
    public void flushAndSettle() throws IOException, InterruptedException {
      d.flush();
      while (d.backgroundWorkPending()) {
        Thread.sleep(10); // the compactions this flush starts run before the next writes
      }
    }

    @Override
    public void get(byte[] key) throws IOException {
      d.get(key);
    }
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
