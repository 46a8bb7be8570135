package dev.strata.bench.readamp;

import dev.strata.bench.common.Cells;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The human-readable report of a run: the terminal table (the largest table count and the
 * compacted run; every table count is in {@code results.csv}) and {@code report.md}, which adds
 * the parity statement, the RocksDB traps handled, the definitions of the columns and the plots.
 *
 * <p>Immutable.
 */
final class ReadAmpReport {
  private final ReadAmpRun.Plan plan;
  private final Settings settings;
  private final List<ResultRow> main;
  private final List<ResultRow> sweep;
  private final List<Path> plots;
  private final double seconds;
  private final String rocksDbFormatVersion;

  ReadAmpReport(ReadAmpRun.Plan plan, Settings settings, List<ResultRow> main,
      List<ResultRow> sweep, List<Path> plots, double seconds, String rocksDbFormatVersion) {
    this.rocksDbFormatVersion = rocksDbFormatVersion;
    this.plan = plan;
    this.settings = settings;
    this.main = List.copyOf(main);
    this.sweep = List.copyOf(sweep);
    this.plots = List.copyOf(plots);
    this.seconds = seconds;
  }

  /** The rows the terminal table shows: the largest table count, then the compacted run. */
  List<ResultRow> shownRows() {
    List<ResultRow> shown = new ArrayList<>();
    for (Shape shape : plan.shapes()) {
      for (String phase : List.of(ResultRow.L0, ResultRow.COMPACTED)) {
        for (QueryKind q : QueryKind.values()) {
          for (Setup s : plan.setups()) {
            for (ResultRow r : main) {
              if (r.shape() == shape && r.phase().equals(phase) && r.query() == q && r.setup() == s
                  && (phase.equals(ResultRow.COMPACTED) || r.tables() == plan.maxTables())) {
                shown.add(r);
              }
            }
          }
        }
      }
    }
    return shown;
  }

  /** The summary line and the results table, as printed at the end of a run. */
  String terminal() {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT,
        "readamp: %,d cells per shape, %s-byte values (compression ratio %s), %s bits/key,"
            + " %s MiB block cache, %,d reads per pass, tables %s; %.0f s%n",
        plan.keys(), plan.valueBytes(), Cells.format(plan.compressionRatio()),
        Cells.format(plan.bitsPerKey()), Cells.format(plan.cacheBytes() / 1048576.0),
        plan.gets(), plan.tables(), seconds));
    b.append("Per read: consult/skip/fp = tables consulted, skipped by filter, false positives;"
        + " filt_rd/data_rd = blocks read from file (cache misses); data_acc = data blocks"
        + " looked up (hits + misses); '-' = the engine cannot report it.\n\n");
    b.append(table(shownRows()));
    b.append('\n').append(loadTable());
    return b.toString();
  }

  private static final String HEADER = String.format(Locale.ROOT,
      "%-6s %-9s %3s %-13s %-26s %8s %7s %7s %7s %7s %7s %7s %7s %8s %9s %9s %9s %6s %6s",
      "shape", "phase", "tbl", "query", "engine/bloom", "kops/s", "p50us", "p99us", "consult",
      "skip", "fp", "filt_rd", "data_rd", "data_acc", "bytes", "fpr_meas", "fpr_model",
      "fbits", "vs_rdb");

  static String table(List<ResultRow> rows) {
    StringBuilder b = new StringBuilder(HEADER).append('\n');
    String previousGroup = null;
    for (ResultRow r : rows) {
      String group = r.shape() + r.phase() + r.query();
      if (previousGroup != null && !group.equals(previousGroup)) {
        b.append('\n');
      }
      previousGroup = group;
      PassMetrics m = r.metrics();
      b.append(String.format(Locale.ROOT,
          "%-6s %-9s %3d %-13s %-26s %8.1f %7.1f %7.1f %7s %7s %7s %7s %7s %8s %9s %9s %9s %6.1f %6s%n",
          r.shape().label(), r.phase(), r.tables(), r.query().label(), r.setup().label(),
          r.opsPerSec() / 1000, r.p50Us(), r.p99Us(), num(m.tablesConsulted(), "%.2f"),
          num(m.tablesSkipped(), "%.2f"), num(m.falsePositives(), "%.3f"),
          num(m.filterBlocksRead(), "%.3f"), num(m.dataBlocksRead(), "%.2f"),
          num(m.dataBlocksAccessed(), "%.2f"), num(m.bytesRead(), "%.0f"),
          num(m.fprMeasured(), "%.5f"), num(r.fprModel(), "%.5f"), r.filterBitsPerKey(),
          num(r.ratioToRocksDb(), "%.2f")));
    }
    return b.toString();
  }

  /** Load throughput per setup and shape, at the largest table count. */
  private String loadTable() {
    StringBuilder b = new StringBuilder("Load (puts + flushes, largest table count), k cells/s:\n");
    for (Shape shape : plan.shapes()) {
      b.append(String.format(Locale.ROOT, "  %-6s", shape.label()));
      for (Setup s : plan.setups()) {
        for (ResultRow r : main) {
          if (r.shape() == shape && r.setup() == s && r.phase().equals(ResultRow.L0)
              && r.tables() == plan.maxTables() && r.query() == QueryKind.ABSENT_ROW) {
            b.append(String.format(Locale.ROOT, "  %s %.0f", s.label(), r.loadKeysPerSec() / 1000));
          }
        }
      }
      b.append('\n');
    }
    return b.toString();
  }

  private static String num(Double v, String format) {
    return v == null || v.isNaN() ? "-" : String.format(Locale.ROOT, format, v);
  }

  /** The whole report as Markdown. */
  String markdown() {
    StringBuilder b = new StringBuilder("# Read amplification: Strata against RocksDB\n\n");
    b.append(String.format(Locale.ROOT,
        "Run of %.0f s. Workload: %,d cells per shape (narrow: one column per row; wide: %d columns"
            + " per row), %d-byte values of compression ratio %s, seed %d; %s bits/key; level-0"
            + " table counts %s%s; %,d reads per query kind and pass (after a warm-up pass of as"
            + " many other reads); false-positive sweep at %s bits/key.%n%n",
        seconds, plan.keys(), plan.columns(), plan.valueBytes(),
        Cells.format(plan.compressionRatio()), plan.seed(), Cells.format(plan.bitsPerKey()),
        plan.tables(), plan.compacted() ? " and a full compaction after the largest" : "",
        plan.gets(), plan.fprBits()));
    b.append("## Parity\n\n");
    b.append(String.format(Locale.ROOT, """
        - Same cells in both engines, loaded row by row in the same order; each of the N flushes takes
          1/N of the rows, and rows are hashed, so every table covers the whole key range and range
          checks skip nothing. Absent rows and columns have the same format and range as loaded ones.
        - Same block size (%d bytes before compression), LZ4 in both, one %s MiB LRU block cache with
          index and filter blocks in it (`cache_index_and_filter_blocks=true`, high priority, a
          high-priority pool of %.0f%%; Strata's cache keeps the same share for index and filter blocks).
        - RocksDB `LRUCache(capacity, numShardBits=%d, false, %.1f)`: %d shards, so each shard holds at
          least twice the largest whole-table filter of the run. The one-argument Java constructor
          makes 64 shards, and a filter larger than a shard is read from the file again on every Get.
          Strata's cache gets %d shards (its default is 16); its filter chunks are about %,d bytes.
        - RocksDB `format_version` %s (FastLocalBloom: cache-line-local, like Strata's blocked filter),
          `optimize_filters_for_memory=false` (true, Java's default, changes bits/key),
          `BloomFilter(%s)` whole-key filtering plus a 16-byte row prefix extractor: its filter holds
          every cell and every row, like Strata's ROWCOL, and a row read (a prefix iterator with
          `prefix_same_as_start`) can skip tables with it, as Strata's `getRow` can.
        - BLOOM is a whole-table (full) filter; BLOOM_PARTITIONED has partitioned filters with
          `kTwoLevelIndexSearch` and `metadata_block_size` = %,d = Strata's filter chunk size; the
          top-level index is pinned, as Strata pins its filter index at open.
        - Auto compaction off in both, RocksDB level-0 slowdown and stop triggers raised, memtables of
          1 GiB so only the N explicit flushes cut tables; the full compaction is Strata's `compact()`
          and RocksDB's `compactRange()` (both into one run at the last level).
        - The log on and not synced in both; one reader thread; both engines closed and reopened after
          loading (and after compacting), since RocksDB puts new level-0 filters into its cache at
          flush: every cache starts cold, then a warm-up pass of different reads of the same kind
          runs before each measured pass. The OS page cache is warm for both (the files were just
          written): "read from file" means a block-cache miss served by the OS.
        - Before the first measurement every setup runs once on an eighth of the cells and its figures
          are thrown away, so the JIT has compiled both engines' paths whichever setup comes first.
        """, Settings.BLOCK_SIZE_BYTES, Cells.format(plan.cacheBytes() / 1048576.0),
        Settings.HIGH_PRIORITY_POOL_RATIO * 100, settings.rocksDbShardBits(),
        Settings.HIGH_PRIORITY_POOL_RATIO, 1 << settings.rocksDbShardBits(),
        settings.strataCacheShards(), plan.filterChunkBytes(), rocksDbFormatVersion,
        Cells.format(plan.bitsPerKey()), plan.filterChunkBytes()));
    b.append("""

        ## What the columns mean

        Per read (`*_per_get`), from each engine's own counters, taken around the measured pass:
        Strata's `DbStats`; RocksDB's Statistics tickers `BLOOM_FILTER_USEFUL` (skipped),
        `BLOOM_FILTER_FULL_POSITIVE` (+ useful = consulted), `BLOOM_FILTER_FULL_TRUE_POSITIVE`
        (positive - true positive = false positive), `BLOOM_FILTER_PREFIX_CHECKED/USEFUL` for row
        reads, `BLOCK_CACHE_FILTER_MISS/HIT`, `BLOCK_CACHE_DATA_MISS/HIT`, and bytes read from the
        reader thread's PerfContext `block_read_byte`. For row reads RocksDB counts its prefix filter
        at each table's seek: `[NON_]LAST_LEVEL_SEEK_FILTERED` (skipped), `..._SEEK_FILTER_MATCH`
        (+ filtered = consulted) and `..._SEEK_DATA_USEFUL_FILTER_MATCH` (match - useful = false
        positive). An empty cell (`-` on the terminal) is a value the engine cannot report:
        Strata's `getRow` does not count tables; RocksDB without a filter has no counter of the
        tables a read consulted.

        - `ops_per_sec`: reads per second on one thread, the median of three equal rounds of the
          measured pass (a burst of other work on a shared machine moves one round, not the figure);
          `p50_us`/`p99_us` (and `p999_us`): an HdrHistogram of every read of the pass.
        - `data_blocks_read_per_get` / `filter_blocks_read_per_get`: block-cache misses (blocks read
          from the file); `*_accessed_per_get`: hits plus misses, the read amplification the cache
          hides.
        - `fpr_measured` = false positives / (false positives + tables skipped): the share of tables
          without the key that the filter let through. Under Strata ROW an absent column of a present
          row is by design a "false positive" of its row's table (ROW cannot see columns).
        - `fpr_model`: Strata: `BlockedBloomFilter.create(n, bits).expectedFpp(n)` for the average
          keys per filter chunk of the live tables (Strata's exact model of its layout); RocksDB:
          `FastLocalBloomImpl::EstimatedFpRate` from RocksDB's `util/bloom_impl.h` (cache-local rate
          at the configured bits/key with `ChooseNumProbes`, plus the 64-bit fingerprint term).
        - `filter_bits_per_key`: filter bytes on disk x 8 / cells loaded (Strata `filterBytesOnDisk`,
          RocksDB table property `filter_size`). Filters holding rows and cells (ROWCOL, RocksDB with
          the prefix) hold two keys per narrow cell, so they show about twice the bits/key setting.
        - `ratio_to_rocksdb`: Strata's reads per second over RocksDB's at the same point: NONE against
          NONE, ROW and ROWCOL against BLOOM_PARTITIONED (`throughput_ratio.png` adds ROWCOL against
          BLOOM).

        ## Results (largest table count and compacted; all table counts in `results.csv`)

        The counters (tables, blocks, bytes, false positives) are deterministic for a seed; the
        throughput and latency figures are one thread's on the machine that ran this, and on a
        shared machine repeated runs differ by up to about 1.5x per cell: read ratios below that
        as ties.

        ```
        """);
    b.append(table(shownRows()));
    b.append("```\n\n").append("```\n").append(loadTable()).append("```\n\n");
    if (!sweep.isEmpty()) {
      b.append("## False-positive sweep (`fpr_sweep.csv`)\n\n```\n").append(table(sweep))
          .append("```\n\n");
    }
    b.append("## Plots\n\n");
    for (Path p : plots) {
      b.append("![").append(p.getFileName()).append("](").append(p.getFileName()).append(")\n\n");
    }
    return b.toString();
  }
}
