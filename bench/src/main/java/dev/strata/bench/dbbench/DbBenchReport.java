package dev.strata.bench.dbbench;

import dev.strata.bench.common.Cells;
import dev.strata.bench.common.RocksDbLibrary;
import dev.strata.engine.DbOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The human side of a run: {@code report.md} (settings, the parity statement, the trees after each
 * write phase, the results, Strata's ratios to both RocksDB configurations, writes, memory and
 * cold starts) and a short table for the terminal.
 *
 * <p>Immutable.
 */
final class DbBenchReport {
  private final Profile profile;
  private final RunConfig config;
  private final List<EngineKind> engines;
  private final List<String> jvmFlags;
  private final List<Result> rows;
  private final List<Path> plots;
  private final double seconds;
  private final String failure;

  DbBenchReport(Profile profile, RunConfig config, List<EngineKind> engines,
      List<String> jvmFlags, List<Result> rows, List<Path> plots, double seconds, String failure) {
    this.profile = profile;
    this.config = config;
    this.engines = engines;
    this.jvmFlags = jvmFlags;
    this.rows = rows;
    this.plots = plots;
    this.seconds = seconds;
    this.failure = failure;
  }

  /** The whole report, Markdown. */
  String markdown() {
    StringBuilder s = new StringBuilder("# dbbench: Strata against RocksDB\n\n");
    if (failure != null) {
      s.append("**The run failed; the tables hold the phases that finished.**\n\n```\n")
          .append(failure).append("\n```\n\n");
    }
    s.append(settings()).append(parity());
    s.append("## Results (warm and cold; ops/s of all reader threads, of the writer in write"
        + " phases: readwhileoverwriting's readers are under Writes)\n\n");
    s.append(table(r -> true, Column.STEP, Column.ENGINE, Column.BENCHMARK, Column.THREADS,
        Column.CACHE_STATE, Column.OPS_PER_SEC, Column.P50_US, Column.P99_US, Column.P999_US,
        Column.P9999_US, Column.MAX_US, Column.RATIO_TO_ROCKSDB_LRU, Column.RATIO_TO_ROCKSDB_HCC));
    s.append("\n## Ratios, Strata / RocksDB (above 1: Strata faster)\n\n");
    s.append(table(r -> r.engine() == EngineKind.STRATA, Column.STEP, Column.BENCHMARK,
        Column.THREADS, Column.CACHE_STATE, Column.RATIO_TO_ROCKSDB_LRU,
        Column.RATIO_TO_ROCKSDB_HCC, Column.READER_RATIO_TO_ROCKSDB));
    s.append("\n## Read amplification (per operation, measured period)\n\n");
    s.append(table(r -> r.benchmark().isRead(), Column.STEP, Column.ENGINE, Column.BENCHMARK,
        Column.THREADS, Column.CACHE_STATE, Column.FOUND_PER_OP, Column.BYTES_READ_PER_OP,
        Column.RCHAR_PER_OP, Column.READ_BYTES_PER_OP, Column.FILTER_BLOCKS_READ_PER_OP,
        Column.INDEX_BLOCKS_READ_PER_OP, Column.DATA_BLOCKS_READ_PER_OP,
        Column.FILTER_HITS_PER_OP, Column.INDEX_HITS_PER_OP, Column.DATA_HITS_PER_OP,
        Column.FILTER_USEFUL_PER_OP));
    s.append("\n## Writes\n\n");
    s.append(table(r -> !r.benchmark().isRead() || r.benchmark() == Benchmark.READWHILEWRITING,
        Column.STEP, Column.ENGINE, Column.BENCHMARK, Column.THREADS, Column.OPS_PER_SEC,
        Column.P99_US, Column.WRITER_OPS_PER_SEC, Column.READER_OPS_PER_SEC, Column.READER_P50_US,
        Column.READER_P99_US, Column.READER_MAX_US, Column.WRITE_AMP_WCHAR,
        Column.WRITE_AMP_WRITE_BYTES, Column.STALL_MS, Column.PUTS_OVER_10MS,
        Column.MS_IN_PUTS_OVER_10MS, Column.PUTS_OVER_50MS, Column.PUTS_OVER_100MS,
        Column.MAX_PUT_MS, Column.OTHERS_CPU_PCT, Column.QUIESCE_S));
    // Read phases too: a read-triggered compaction changes the tree in the phase that started it.
    s.append("\n## Trees (tables and MiB per level, level 0 first, at the end of each phase)\n\n");
    s.append(table(r -> true, Column.ENGINE, Column.BENCHMARK, Column.THREADS,
        Column.CACHE_STATE, Column.TABLES_PER_LEVEL, Column.MIB_PER_LEVEL,
        Column.FILTER_KIB_PER_LEVEL, Column.INDEX_KIB, Column.QUIESCE_S));
    s.append("\n## Memory and GC (per phase process)\n\n");
    s.append(table(r -> true, Column.ENGINE, Column.BENCHMARK, Column.THREADS,
        Column.CACHE_STATE, Column.GC_COUNT, Column.GC_MS, Column.GC_MAX_MS,
        Column.HEAP_LIVE_MIB, Column.RSS_MIB, Column.PEAK_RSS_MIB));
    s.append("\n## Open and first operations\n\n");
    s.append(table(r -> r.benchmark().isRead(), Column.ENGINE, Column.BENCHMARK, Column.THREADS,
        Column.CACHE_STATE, Column.OPEN_MS, Column.FIRST_OP_US, Column.FIRST_1000_OPS_MS));
    s.append("\n## Columns\n\n| column | meaning |\n|---|---|\n");
    for (Column c : Column.values()) {
      s.append("| ").append(c.label()).append(" | ").append(c.description()).append(" |\n");
    }
    if (!plots.isEmpty()) {
      s.append("\n## Plots\n\n");
      for (Path p : plots) {
        s.append("![").append(p.getFileName()).append("](").append(p.getFileName()).append(")\n");
      }
    }
    s.append(String.format(Locale.ROOT, "%nThe run took %.0f s.%n", seconds));
    return s.toString();
  }

  /**
   * A compact table for the terminal: every phase's throughput, p99 and ratios, and the readers'
   * throughput and ratio where readers ran beside a writer.
   */
  String terminal() {
    String format = "%-12s %-20s %3s %-5s %12s %10s %8s %8s %12s %8s%n";
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, format, "engine", "benchmark",
        "thr", "cache", "ops/s", "p99 us", "/lru", "/hcc", "readers/s", "/rocksdb"));
    for (Result r : rows) {
      s.append(String.format(Locale.ROOT, format,
          r.get(Column.ENGINE), r.get(Column.BENCHMARK), r.get(Column.THREADS),
          r.get(Column.CACHE_STATE), round(r.number(Column.OPS_PER_SEC)), r.get(Column.P99_US),
          short2(r.number(Column.RATIO_TO_ROCKSDB_LRU)),
          short2(r.number(Column.RATIO_TO_ROCKSDB_HCC)),
          round(r.number(Column.READER_OPS_PER_SEC)),
          short2(r.number(Column.READER_RATIO_TO_ROCKSDB))));
    }
    return s.toString();
  }

  private String settings() {
    Tree t = config.tree();
    long logical = config.num() * config.logicalBytesPerPut();
    return "## Settings\n\n"
        + "| setting | value |\n|---|---|\n"
        + row("profile", profile.label())
        + row("keys (--num)", Long.toString(config.num()))
        + row("key bytes / value bytes", KeySpace.KEY_BYTES + " / " + config.valueBytes())
        + row("logical data", mib(logical) + " MiB")
        + row("value compression ratio", Cells.format(config.compressionRatio()))
        + row("random keys (--key-distribution)", config.keyDistribution().label())
        + row("puts per overwrite phase (--writes)", Long.toString(config.writes()))
        + row("block cache (each engine)", mib(config.cacheBytes()) + " MiB")
        + row("data on disk after the first fill", onDisk())
        + row("filter", Cells.format(config.bitsPerKey()) + " bits/key; Strata "
            + config.bloomType() + ", RocksDB whole-key (wide rows: + 16-byte row prefix)")
        + row("memtable / level-0 trigger", mib(t.memtableBytes()) + " MiB / " + t.level0Trigger())
        + row("target file / level-1 base / multiplier", mib(t.targetFileBytes()) + " MiB / "
            + mib(t.level1Bytes()) + " MiB / " + t.multiplier())
        + row("measured / warm-up seconds per read phase", Cells.format(config.durationSeconds())
            + " / " + Cells.format(config.warmupSeconds()))
        + row("wide rows (getrowrandom)", config.wideRows() + " rows of " + config.columns()
            + " columns")
        + row("engines", String.join(", ", engines.stream().map(EngineKind::label).toList()))
        + row("child JVM flags", String.join(" ", jvmFlags))
        + row("JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"))
        + row("processors", Integer.toString(Runtime.getRuntime().availableProcessors()))
        + row("seed", Long.toString(config.seed()))
        + "\nEach engine's complete options are in `options/` (RocksDB's OPTIONS file as RocksDB"
        + " wrote it; Strata's DbOptions). Every phase ran in its own JVM with the database"
        + " closed and reopened; logs are in `logs/`.\n\n";
  }

  /** Each engine's tree size after its first narrow write phase, and its multiple of the cache. */
  private String onDisk() {
    StringBuilder s = new StringBuilder();
    for (Result r : rows) {
      if (r.benchmark().kind() != Benchmark.Kind.FILL || r.benchmark().layout()
          != Benchmark.Layout.NARROW || s.indexOf(r.engine().storage()) >= 0) {
        continue;
      }
      double mib = 0;
      for (String level : r.get(Column.MIB_PER_LEVEL).split(" ")) {
        mib += level.isEmpty() ? 0 : Double.parseDouble(level);
      }
      s.append(s.length() == 0 ? "" : "; ").append(r.engine().storage()).append(' ')
          .append(Cells.format(Math.round(mib * 10) / 10.0)).append(" MiB (")
          .append(Cells.format(Math.round(mib * 10 / (config.cacheBytes() / 1048576.0)) / 10.0))
          .append("x the cache)");
    }
    return s.length() == 0 ? "no fill in this run" : s.toString();
  }

  private String parity() {
    return "## Parity\n\n"
        + "Same keys and values (16-byte keys from one seed, db_bench-style compressible values),"
        + " same tree settings, LZ4, 4 KiB data blocks, the log on and unsynced, one writer"
        + " thread, a JIT warm-up before every measured read phase, and both engines in the same"
        + " run on the same machine. RocksDB " + "(table format " + RocksDbLibrary.formatVersion()
        + "): index and filter blocks in the block cache at high priority, partitioned filters"
        + " and index (kTwoLevelIndexSearch, " + DbOptions.defaults().filters().bloomChunkBytes()
        + "-byte partitions, Strata's filter chunk size), top level pinned;"
        + " level_compaction_dynamic_level_bytes=false (Strata sizes levels from level 1 down);"
        + " RocksDB's default 2 background jobs (one flush and one compaction thread, as Strata"
        + " runs) and 2 write buffers, no subcompactions; both engines at their default"
        + " level-0 slowdown and stop triggers (20 and 36), pending-compaction-bytes limits and"
        + " delayed write rate, which coincide. Where the engines differ: each memtable charges"
        + " its own per-entry overhead against the same budget, so level-0 tables differ in size;"
        + " RocksDB keeps"
        + " Statistics on and a PerfContext at ENABLE_COUNT on reader threads (its counters cost"
        + " it a little). Bytes read per op come"
        + " from each engine's own counters (Strata's DbStats.bytesReadFromDisk, RocksDB's"
        + " per-thread PerfContext block_read_byte) and, for both alike, /proc/self/io.\n\n";
  }

  private String table(Predicate<Result> which, Column... columns) {
    StringBuilder s = new StringBuilder("|");
    for (Column c : columns) {
      s.append(' ').append(c.label()).append(" |");
    }
    s.append("\n|");
    s.append("---|".repeat(columns.length)).append('\n');
    int n = 0;
    for (Result r : rows) {
      if (!which.test(r)) {
        continue;
      }
      s.append('|');
      for (Column c : columns) {
        s.append(' ').append(r.get(c)).append(" |");
      }
      s.append('\n');
      n++;
    }
    return n == 0 ? "(no phase of this kind ran)\n" : s.toString();
  }

  private static String row(String name, String value) {
    return "| " + name + " | " + value + " |\n";
  }

  private static String mib(long bytes) {
    return Cells.format(Math.round(bytes * 10.0 / (1 << 20)) / 10.0);
  }

  private static String round(Double v) {
    return v == null ? "" : Cells.format((double) Math.round(v));
  }

  private static String short2(Double v) {
    return v == null ? "" : String.format(Locale.ROOT, "%.2f", v);
  }
}
