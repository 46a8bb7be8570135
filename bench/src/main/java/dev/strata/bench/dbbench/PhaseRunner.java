package dev.strata.bench.dbbench;

import dev.strata.bench.common.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;

/**
 * Runs one {@link Phase} inside a child process and measures it. A write phase times every put on
 * one thread, flushes, and waits for compaction to quiesce, so write amplification counts what the
 * writes cost in the end; readwhileoverwriting first warms its readers up alone for the warm-up
 * seconds, then times their Gets while the writer runs. A read phase times the first operation and
 * the first 1,000 after open, warms up (the JIT and the caches) for the warm-up seconds, waits for
 * any background work the reads started (a read-triggered compaction) to finish, then measures for
 * the duration; the engine's counters, {@code /proc/self/io} and the GC pauses are read around the
 * measured period only.
 *
 * <p>Not thread-safe: one phase per instance.
 */
final class PhaseRunner {
  /** Random stream of the first operations after open. */
  private static final long STREAM_FIRST = 1;

  /** Random stream of the warm-up. */
  private static final long STREAM_WARMUP = 2;

  /** Random stream of the measured period. */
  private static final long STREAM_MEASURED = 3;

  /** Random stream of readwhilewriting's writer. */
  private static final long STREAM_WRITER = 4;

  /** Random stream of readwhileoverwriting's readers. */
  private static final long STREAM_READERS = 5;

  /** Operations timed after open, as a cold-start figure. */
  static final int FIRST_OPS = 1000;

  private final RunConfig config;
  private final Phase phase;
  private final Path out;
  private final Ops ops;

  PhaseRunner(RunConfig config, Phase phase, Path out) {
    this.config = config;
    this.phase = phase;
    this.out = out;
    this.ops = new Ops(config);
  }

  /** Runs the phase; returns its row. */
  Result run() throws IOException {
    Benchmark b = phase.benchmark();
    Path dir = config.dbPath(phase.engine(), b.layout());
    if (b.kind() == Benchmark.Kind.FILL) {
      FileTrees.deleteTree(dir);
      Files.createDirectories(dir);
    } else if (!Files.isDirectory(dir)) {
      throw new IOException(b.label() + " needs the database " + dir + "; fill it first");
    }
    if (phase.cold()) {
      PageCache.evict(dir);
    }
    Result r = new Result()
        .set(Column.ENGINE, phase.engine().label())
        .set(Column.BENCHMARK, b.label())
        .set(Column.THREADS, phase.threads())
        .set(Column.CACHE_STATE, phase.cacheState())
        .set(Column.STEP, phase.step())
        .set(Column.NUM, config.num())
        .set(Column.VALUE_SIZE, config.valueBytes())
        .set(Column.KEY_DISTRIBUTION, config.keyDistribution().label());
    GcMonitor gc = new GcMonitor();
    ProcIo ioAtOpen = ProcIo.now();
    long openStart = System.nanoTime();
    try (Store store = open(dir)) {
      r.set(Column.OPEN_MS, (System.nanoTime() - openStart) / 1e6);
      if (b.isRead()) {
        read(store, r, gc);
      } else {
        write(store, r, gc, ioAtOpen);
      }
      Store.Levels levels = store.levels();
      r.set(Column.TABLES_PER_LEVEL, levels.tablesCell());
      r.set(Column.MIB_PER_LEVEL, levels.mibCell());
      r.set(Column.FILTER_KIB_PER_LEVEL, levels.filterKibCell());
      r.set(Column.INDEX_KIB, levels.indexKibCell());
      Path options = out.resolve("options");
      Files.createDirectories(options);
      store.writeOptions(options.resolve(phase.engine().label() + "-" + b.layout().name()
          .toLowerCase(java.util.Locale.ROOT) + (phase.engine().isRocksDb() ? ".OPTIONS" : ".txt")));
      r.set(Column.HEAP_LIVE_MIB, GcMonitor.liveHeapMib());
      ProcMemory memory = ProcMemory.now();
      r.set(Column.RSS_MIB, memory.rssMib());
      r.set(Column.PEAK_RSS_MIB, memory.peakMib());
    }
    return r;
  }

  private Store open(Path dir) throws IOException {
    return Store.open(phase.engine(), dir, phase.benchmark().layout(), config);
  }

  private void write(Store store, Result r, GcMonitor gc, ProcIo ioAtOpen) throws IOException {
    Benchmark b = phase.benchmark();
    LoadRunner runner = new LoadRunner(store, config.seed());
    LoadRunner.Background readers = b.writesUnderReads() ? startReaders(store, runner, gc) : null;
    Store.Counters before = store.counters();
    long count = ops.writeCount(b);
    ProcCpu cpuBefore = ProcCpu.now();
    LoadRunner.Outcome o;
    try {
      o = runner.run(b.label(), 1, 0, count, STREAM_MEASURED, ops.of(b, store));
    } finally {
      if (readers != null) {
        readersMeasured(readers.stop(), r);
      }
    }
    r.set(Column.OTHERS_CPU_PCT, ProcCpu.othersPercent(cpuBefore, ProcCpu.now()));
    long quiesceStart = System.nanoTime();
    store.flush();
    Quiescence.await(store, config.quiesceTimeoutSeconds());
    r.set(Column.QUIESCE_S, (System.nanoTime() - quiesceStart) / 1e9);
    Store.Counters delta = store.counters().minus(before);
    ProcIo io = ProcIo.now();
    latency(r, o, 1);
    if (readers == null) {
      r.set(Column.FOUND_PER_OP, (double) o.found() / Math.max(1, o.ops()));
    }
    long cells = b == Benchmark.FILLROWS ? o.ops() * config.columns() : o.ops();
    long logical = cells * (config.logicalBytesPerPut()
        + (b == Benchmark.FILLROWS ? KeySpace.column(0).length : 0));
    if (io != null && ioAtOpen != null) {
      ProcIo d = io.minus(ioAtOpen);
      r.set(Column.WRITE_AMP_WCHAR, (double) d.wchar() / logical);
      r.set(Column.WRITE_AMP_WRITE_BYTES, (double) d.writeBytes() / logical);
    }
    r.set(Column.STALL_MS, delta.stallMicros() == null ? null : delta.stallMicros() / 1000.0);
    r.set(Column.PUTS_OVER_10MS, o.slow().slow());
    r.set(Column.MS_IN_PUTS_OVER_10MS, o.slow().slowNanos() / 1e6);
    r.set(Column.PUTS_OVER_50MS, o.slow().overBound());
    r.set(Column.PUTS_OVER_100MS, o.slow().verySlow());
    r.set(Column.MAX_PUT_MS, o.latency().getMaxValue() / 1e6);
    pauses(r, gc.takeAndReset());
  }

  /**
   * Starts readwhileoverwriting's readers once the tree is at rest and they have warmed up alone
   * (the JIT, the block cache), so their Gets are timed as a read phase's are, but beside a
   * writer.
   */
  private LoadRunner.Background startReaders(Store store, LoadRunner runner, GcMonitor gc)
      throws IOException {
    Quiescence.await(store, config.quiesceTimeoutSeconds());
    LoadRunner.Op get = ops.readsWhileWriting(store);
    if (config.warmupSeconds() > 0) {
      runner.run("warmup", phase.threads(), config.warmupSeconds(), 0, STREAM_WARMUP, get);
    }
    gc.takeAndReset();
    return runner.start("readers", phase.threads(), STREAM_READERS, get);
  }

  /** The readers' figures over the time they ran beside the writer. */
  private static void readersMeasured(LoadRunner.Outcome o, Result r) {
    Histogram h = o.latency();
    r.set(Column.READER_OPS_PER_SEC, o.ops() / (o.nanos() / 1e9));
    r.set(Column.READER_P50_US, h.getValueAtPercentile(50) / 1e3);
    r.set(Column.READER_P99_US, h.getValueAtPercentile(99) / 1e3);
    r.set(Column.READER_MAX_US, h.getMaxValue() / 1e3);
    r.set(Column.FOUND_PER_OP, (double) o.found() / Math.max(1, o.ops()));
  }

  private void read(Store store, Result r, GcMonitor gc) throws IOException {
    Benchmark b = phase.benchmark();
    // Every read phase starts from a tree at rest: an engine may resume compactions at open that a
    // previous phase's close cut short, and they must not run into this phase's measurement.
    Quiescence.await(store, config.quiesceTimeoutSeconds());
    LoadRunner runner = new LoadRunner(store, config.seed());
    LoadRunner.Op op = b == Benchmark.READWHILEWRITING ? ops.readsWhileWriting(store)
        : ops.of(b, store);
    LoadRunner.Outcome first = runner.run("first", 1, 0, 1, STREAM_FIRST, op);
    LoadRunner.Outcome next = runner.run("first", 1, 0, FIRST_OPS - 1, STREAM_FIRST + 100, op);
    r.set(Column.FIRST_OP_US, first.latency().getMaxValue() / 1e3);
    r.set(Column.FIRST_1000_OPS_MS, (first.nanos() + next.nanos()) / 1e6);
    LoadRunner.Background writer = b == Benchmark.READWHILEWRITING
        ? runner.start("writer", 1, STREAM_WRITER, ops.overwrite(store)) : null;
    try {
      if (config.warmupSeconds() > 0) {
        runner.run("warmup", phase.threads(), config.warmupSeconds(), 0, STREAM_WARMUP, op);
      }
      if (writer == null) {
        // Reads may start background work of their own (Strata's read-triggered compaction of
        // level 0, after the first read phase following a fill): the measurement starts from a
        // tree at rest again, and the wait shows in the phase's quiesce seconds.
        long quiesceStart = System.nanoTime();
        Quiescence.await(store, config.quiesceTimeoutSeconds());
        r.set(Column.QUIESCE_S, (System.nanoTime() - quiesceStart) / 1e9);
      }
      Store.Counters before = store.counters();
      ProcIo ioBefore = ProcIo.now();
      long writesBefore = writer == null ? 0 : writer.completed();
      gc.takeAndReset();
      LoadRunner.Outcome o = runner.run("measured", phase.threads(), config.durationSeconds(), 0,
          STREAM_MEASURED, op);
      GcMonitor.Pauses pauses = gc.takeAndReset();
      long writes = writer == null ? 0 : writer.completed() - writesBefore;
      ProcIo ioAfter = ProcIo.now();
      Store.Counters d = store.counters().minus(before);
      int perCall = ops.keysPerCall(b);
      latency(r, o, perCall);
      double n = Math.max(1, o.ops() * perCall);
      r.set(Column.FOUND_PER_OP, o.found() / n);
      Long bytes = d.bytesRead() != null ? d.bytesRead()
          : o.threadBytes() >= 0 ? Long.valueOf(o.threadBytes()) : null;
      r.set(Column.BYTES_READ_PER_OP, perOp(bytes, n));
      if (ioBefore != null && ioAfter != null) {
        ProcIo io = ioAfter.minus(ioBefore);
        r.set(Column.RCHAR_PER_OP, io.rchar() / n);
        r.set(Column.READ_BYTES_PER_OP, io.readBytes() / n);
      }
      r.set(Column.FILTER_BLOCKS_READ_PER_OP, perOp(d.filterBlocksRead(), n));
      r.set(Column.INDEX_BLOCKS_READ_PER_OP, perOp(d.indexBlocksRead(), n));
      r.set(Column.DATA_BLOCKS_READ_PER_OP, perOp(d.dataBlocksRead(), n));
      r.set(Column.FILTER_HITS_PER_OP, perOp(d.filterHits(), n));
      r.set(Column.INDEX_HITS_PER_OP, perOp(d.indexHits(), n));
      r.set(Column.DATA_HITS_PER_OP, perOp(d.dataHits(), n));
      r.set(Column.FILTER_USEFUL_PER_OP, perOp(d.filterUseful(), n));
      r.set(Column.NEW_TABLE_METADATA_READ, d.newTableMetadataRead());
      if (writer != null) {
        r.set(Column.WRITER_OPS_PER_SEC, writes / (o.nanos() / 1e9));
        r.set(Column.STALL_MS, d.stallMicros() == null ? null : d.stallMicros() / 1000.0);
      }
      pauses(r, pauses);
    } finally {
      if (writer != null) {
        writer.stop();
      }
    }
    if (writer != null) {
      // Leave the tree at rest for the next phase, as a write phase does.
      long quiesceStart = System.nanoTime();
      store.flush();
      Quiescence.await(store, config.quiesceTimeoutSeconds());
      r.set(Column.QUIESCE_S, (System.nanoTime() - quiesceStart) / 1e9);
    }
  }

  private static Double perOp(Long count, double ops) {
    return count == null ? null : count / ops;
  }

  /** Sets throughput and latency; {@code perCall} keys per timed call count as that many ops. */
  private static void latency(Result r, LoadRunner.Outcome o, int perCall) {
    Histogram h = o.latency();
    double seconds = o.nanos() / 1e9;
    r.set(Column.OPS, o.ops() * perCall);
    r.set(Column.SECONDS, seconds);
    r.set(Column.OPS_PER_SEC, o.ops() * perCall / seconds);
    r.set(Column.P50_US, h.getValueAtPercentile(50) / 1e3);
    r.set(Column.P99_US, h.getValueAtPercentile(99) / 1e3);
    r.set(Column.P999_US, h.getValueAtPercentile(99.9) / 1e3);
    r.set(Column.P9999_US, h.getValueAtPercentile(99.99) / 1e3);
    r.set(Column.MAX_US, h.getMaxValue() / 1e3);
  }

  private static void pauses(Result r, GcMonitor.Pauses p) {
    r.set(Column.GC_COUNT, p.count());
    r.set(Column.GC_MS, p.totalMillis());
    r.set(Column.GC_MAX_MS, p.maxMillis());
  }
}
