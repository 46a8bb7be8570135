package dev.strata.bench.readamp;

import dev.strata.bench.common.Cells;
import dev.strata.bench.common.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Runs the benchmark: for every shape, setup and table count, loads the workload into a fresh
 * database cut into N level-0 tables, reopens it (cold caches), then for each query kind runs a
 * warm-up pass and a measured pass, reading the engine's counters around the measured one; after
 * the largest table count it compacts everything into one run and measures again. Then the
 * false-positive sweep over bits/key. Every database lives under {@code out/data} and is deleted
 * after its measurements unless kept.
 *
 * <p>Not thread-safe: one run, one thread (which is the one reader thread of both engines).
 */
final class ReadAmpRun {
  /**
   * A measured pass runs in this many equal rounds and reports the median round's throughput, so
   * one burst of other work on a shared machine moves no figure; counters and latencies cover the
   * whole pass.
   */
  static final int ROUNDS = 3;

  /** The JIT warm-up loads this fraction (1/N) of the cells and reads as many of the reads. */
  static final int JIT_WARMUP_FRACTION = 8;

  /**
   * What to run.
   *
   * @param keys cells per workload (narrow: rows; wide: rows times columns)
   * @param tables the level-0 table counts to sweep, ascending
   * @param bitsPerKey the main filter bits per key
   * @param columns columns per wide row
   * @param valueBytes bytes per value
   * @param compressionRatio db_bench-style compressibility of values
   * @param seed seed of every key, value and query stream
   * @param gets reads per measured pass (and per warm-up pass)
   * @param cacheBytes block cache capacity of both engines
   * @param filterChunkBytes Strata filter chunk size and RocksDB metadata_block_size
   * @param strataCacheShards Strata's block cache shards; 0 = as many as RocksDB's
   * @param fprBits extra bits/key values of the false-positive sweep
   * @param shapes row shapes to run
   * @param setups engine configurations to run
   * @param compacted whether to measure after a full compaction too
   * @param keepData keep the databases under {@code out/data}
   */
  record Plan(
      long keys,
      List<Integer> tables,
      double bitsPerKey,
      int columns,
      int valueBytes,
      double compressionRatio,
      long seed,
      int gets,
      long cacheBytes,
      int filterChunkBytes,
      int strataCacheShards,
      List<Double> fprBits,
      List<Shape> shapes,
      List<Setup> setups,
      boolean compacted,
      boolean keepData) {

    int maxTables() {
      return tables.get(tables.size() - 1);
    }

    Workload workload(Shape shape) {
      return new Workload(shape, keys, columns, valueBytes, compressionRatio, seed);
    }

    /** The small workload of the JIT warm-up: an eighth of the cells, shape of the first. */
    Workload jitWarmupWorkload() {
      return new Workload(shapes.get(0), Math.max(1, keys / JIT_WARMUP_FRACTION), columns,
          valueBytes, compressionRatio, seed ^ 0x6a6974L);
    }

    /** Table count of the JIT warm-up: two when the warm-up workload has two rows. */
    int jitWarmupTables() {
      return (int) Math.min(2, jitWarmupWorkload().rows());
    }

    /** Reads per pass of the JIT warm-up. */
    int jitWarmupGets() {
      return Math.max(1, gets / JIT_WARMUP_FRACTION);
    }

    /** The setups of the false-positive sweep: the ones with a filter. */
    List<Setup> sweepSetups() {
      return fprBits.isEmpty() ? List.of() : setups.stream().filter(Setup::hasFilter).toList();
    }

    /** The shape of the false-positive sweep: narrow when it runs, else the first. */
    Shape sweepShape() {
      return shapes.contains(Shape.NARROW) ? Shape.NARROW : shapes.get(0);
    }

    /** Puts and reads of the whole run, for the progress bar. */
    long totalSteps() {
      long steps = 0;
      for (Shape shape : shapes) {
        long cells = workload(shape).cells();
        int passes = tables.size() + (compacted ? 1 : 0);
        steps += setups.size() * (tables.size() * cells + passes * QueryKind.values().length * 2L * gets);
      }
      steps += setups.size() * (jitWarmupWorkload().cells()
          + 2L * QueryKind.values().length * 2 * jitWarmupGets());
      long sweepCells = workload(sweepShape()).cells();
      steps += (long) fprBits.size() * sweepSetups().size() * (sweepCells + 2L * gets);
      return steps;
    }

    /** RocksDB's cache shard bits: each shard holds twice the largest whole-table filter. */
    int rocksDbShardBits() {
      double maxBits = bitsPerKey;
      for (double b : fprBits) {
        maxBits = Math.max(maxBits, b);
      }
      long largest = 0;
      for (Shape shape : shapes) {
        Workload w = workload(shape);
        largest = Math.max(largest, (long) Math.ceil((w.cells() + w.rows()) * maxBits / 8));
      }
      return Settings.shardBitsFor(cacheBytes, largest);
    }
  }

  private final Plan plan;
  private final Settings settings;
  private final Path dataDir;
  private final Progress progress;

  ReadAmpRun(Plan plan, Path out, Progress progress) {
    this.plan = plan;
    int shardBits = plan.rocksDbShardBits();
    this.settings = new Settings(plan.bitsPerKey(), plan.filterChunkBytes(), plan.cacheBytes(),
        shardBits, plan.strataCacheShards() > 0 ? plan.strataCacheShards() : 1 << shardBits);
    this.dataDir = out.resolve("data");
    this.progress = progress;
  }

  Settings settings() {
    return settings;
  }

  /**
   * Runs every setup once on a small workload and throws the figures away, so the JIT has compiled
   * both engines' read paths (Strata's Java, RocksDB's JNI glue) before the first measurement,
   * whichever setup comes first.
   */
  void warmUpJit() throws IOException {
    for (Setup setup : plan.setups()) {
      runOne(setup, settings, plan.jitWarmupWorkload(), plan.jitWarmupTables(),
          List.of(QueryKind.values()), true, "jit-warmup", plan.jitWarmupGets());
    }
  }

  /** The main measurements: every shape, setup, table count and query kind. */
  List<ResultRow> runMain() throws IOException {
    List<ResultRow> rows = new ArrayList<>();
    for (Shape shape : plan.shapes()) {
      Workload w = plan.workload(shape);
      for (Setup setup : plan.setups()) {
        for (int tables : plan.tables()) {
          boolean compact = plan.compacted() && tables == plan.maxTables();
          rows.addAll(runOne(setup, settings, w, tables, List.of(QueryKind.values()), compact,
              ResultRow.L0, plan.gets()));
        }
      }
    }
    return withRatios(rows);
  }

  /** The false-positive sweep: absent-row reads at each extra bits/key, for the filtered setups. */
  List<ResultRow> runFprSweep() throws IOException {
    List<ResultRow> rows = new ArrayList<>();
    Workload w = plan.workload(plan.sweepShape());
    for (double bits : plan.fprBits()) {
      for (Setup setup : plan.sweepSetups()) {
        rows.addAll(runOne(setup, settings.withBitsPerKey(bits), w, plan.maxTables(),
            List.of(QueryKind.ABSENT_ROW), false, ResultRow.FPR_SWEEP, plan.gets()));
      }
    }
    return rows;
  }

  private List<ResultRow> runOne(Setup setup, Settings s, Workload w, int tables,
      List<QueryKind> kinds, boolean compact, String phase, int gets) throws IOException {
    String name = String.format(Locale.ROOT, "%s-%s-%dt-%sbpk", w.shape().label(),
        setup.name().toLowerCase(Locale.ROOT), tables, Cells.format(s.bitsPerKey()));
    Path dir = dataDir.resolve(name);
    FileTrees.deleteTree(dir);
    Files.createDirectories(dir);
    List<ResultRow> rows = new ArrayList<>();
    try (Target t = open(setup, s, dir)) {
      progress.step("load " + name);
      double loadRate = load(t, w, tables);
      rows.addAll(measure(t, setup, s, w, phase, loadRate, kinds, name, gets));
      if (compact) {
        progress.step("compact " + name);
        t.compact();
        rows.addAll(measure(t, setup, s, w, ResultRow.COMPACTED, loadRate, kinds, name, gets));
      }
    }
    if (!plan.keepData()) {
      FileTrees.deleteTree(dir);
    }
    return rows;
  }

  private static Target open(Setup setup, Settings s, Path dir) throws IOException {
    return setup.engine() == Setup.Engine.STRATA
        ? new StrataTarget(dir, StrataTarget.options(setup, s))
        : new RocksDbTarget(dir, setup, s);
  }

  /** Loads every cell, flushing after each 1/N of the rows; returns cells per second. */
  private double load(Target t, Workload w, int tables) throws IOException {
    long start = System.nanoTime();
    long cell = 0;
    for (int table = 0; table < tables; table++) {
      long from = w.rows() * table / tables;
      long to = w.rows() * (table + 1) / tables;
      for (long r = from; r < to; r++) {
        byte[] row = w.row(r);
        for (int c = 0; c < w.columnsPerRow(); c++) {
          t.put(row, w.column(c), w.value(cell++));
        }
        progress.advance(w.columnsPerRow());
      }
      t.flush();
    }
    return cell / ((System.nanoTime() - start) / 1e9);
  }

  private List<ResultRow> measure(Target t, Setup setup, Settings s, Workload w, String phase,
      double loadRate, List<QueryKind> kinds, String name, int gets) throws IOException {
    int tables = t.tableCount();
    double filterBitsPerKey = t.filterBytesOnDisk() * 8.0 / w.cells();
    Double model = t.fprModel();
    t.reopen(); // cold block caches in both engines
    List<ResultRow> rows = new ArrayList<>();
    for (QueryKind kind : kinds) {
      progress.step(phase + " " + kind.label() + " " + name);
      pass(t, w, w.queries(kind, gets, 1), null);
      Workload.Queries q = w.queries(kind, gets, 2);
      Histogram latency = new Histogram(3);
      Target.Counters before = t.counters();
      double[] rates = new double[ROUNDS];
      for (int round = 0; round < ROUNDS; round++) {
        Workload.Queries part = q.slice(q.size() * round / ROUNDS, q.size() * (round + 1) / ROUNDS);
        long start = System.nanoTime();
        pass(t, w, part, latency);
        rates[round] = part.size() / ((System.nanoTime() - start) / 1e9);
      }
      Target.Counters after = t.counters();
      Arrays.sort(rates);
      rows.add(new ResultRow(
          setup,
          setup.hasFilter() ? s.bitsPerKey() : null,
          w.shape(),
          phase,
          tables,
          w.rows(),
          w.columnsPerRow(),
          kind,
          q.size(),
          rates[ROUNDS / 2],
          latency.getValueAtPercentile(50) / 1000.0,
          latency.getValueAtPercentile(99) / 1000.0,
          latency.getValueAtPercentile(99.9) / 1000.0,
          t.metrics(kind, before, after, q.size()),
          model,
          filterBitsPerKey,
          loadRate,
          null));
    }
    return rows;
  }

  /**
   * Runs every query of {@code q}, recording each latency in nanoseconds when {@code latency} is
   * given, and checks every answer: a benchmark that read wrong data would measure nothing.
   */
  private void pass(Target t, Workload w, Workload.Queries q, Histogram latency) throws IOException {
    long wrong = 0;
    String example = null;
    for (int i = 0; i < q.size(); i++) {
      long t0 = System.nanoTime();
      boolean ok;
      if (q.kind().isPointGet()) {
        byte[] v = t.get(q.rows()[i], q.columns()[i]);
        ok = (v != null) == (q.kind() == QueryKind.PRESENT_CELL);
      } else {
        ok = t.getRow(q.rows()[i]) == w.columnsPerRow();
      }
      long t1 = System.nanoTime();
      if (latency != null) {
        latency.recordValue(Math.max(1, t1 - t0));
      }
      if (!ok) {
        wrong++;
        example = new String(q.rows()[i], StandardCharsets.US_ASCII);
      }
      if ((i & 1023) == 1023) {
        progress.advance(1024);
      }
    }
    progress.advance(q.size() & 1023);
    if (wrong > 0) {
      throw new IllegalStateException(wrong + " wrong answers to " + q.kind().label()
          + " queries (e.g. row " + example + "): the benchmark's data or an engine is broken");
    }
  }

  /** Adds Strata's throughput ratio to its RocksDB counterpart at the same point. */
  static List<ResultRow> withRatios(List<ResultRow> rows) {
    List<ResultRow> out = new ArrayList<>();
    for (ResultRow r : rows) {
      Setup counterpart = r.setup().rocksDbCounterpart();
      Double ratio = null;
      if (counterpart != null) {
        for (ResultRow o : rows) {
          if (o.setup() == counterpart && o.samePoint(r)) {
            ratio = r.opsPerSec() / o.opsPerSec();
          }
        }
      }
      out.add(r.withRatio(ratio));
    }
    return out;
  }
}
