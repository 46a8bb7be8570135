package dev.strata.bench.dbbench;

import java.util.Locale;

/**
 * The columns of {@code results.csv}, in order: one row per phase, engine, thread count and cache
 * state. An empty cell means the engine cannot report that value (or it has no meaning for the
 * benchmark, like bytes read per op of a fill); a number is never made up.
 *
 * <p>Immutable.
 */
enum Column {
  ENGINE("engine configuration: strata, rocksdb-lru, rocksdb-hcc"),
  BENCHMARK("db_bench name of the phase"),
  THREADS("reader threads (writers: 1)"),
  CACHE_STATE("warm: OS page cache as the previous phase left it; cold: every table file evicted"),
  STEP("position of the benchmark in --benchmarks, from 1 (a benchmark listed twice has two)"),
  NUM("keys of the database (cells of the wide one)"),
  VALUE_SIZE("bytes per value"),
  KEY_DISTRIBUTION("how random keys were drawn: uniform, or zipfian (YCSB's scrambled, 0.99)"),
  OPS("operations measured (multireadrandom: keys, --batch-size per call)"),
  SECONDS("measured seconds"),
  OPS_PER_SEC("operations per second, all threads (fills: keys per second)"),
  P50_US("latency median, microseconds (HdrHistogram); multireadrandom: per batch call"),
  P99_US("latency 99th percentile, microseconds"),
  P999_US("latency 99.9th percentile, microseconds"),
  P9999_US("latency 99.99th percentile, microseconds"),
  MAX_US("longest operation, microseconds"),
  FOUND_PER_OP("Gets that found their key (cells per seek, columns per row read), per op;"
      + " readwhileoverwriting: per reader Get"),
  BYTES_READ_PER_OP("bytes read from table files per op, from the engine's counters"),
  RCHAR_PER_OP("bytes read by system calls per op, /proc/self/io rchar (page cache hits included)"),
  READ_BYTES_PER_OP("bytes fetched from the device per op, /proc/self/io read_bytes"),
  FILTER_BLOCKS_READ_PER_OP("filter blocks (partitions, chunks) read from disk per op"),
  INDEX_BLOCKS_READ_PER_OP("index blocks read from disk per op"),
  DATA_BLOCKS_READ_PER_OP("data blocks read from disk per op"),
  FILTER_HITS_PER_OP("filter blocks served by the block cache per op"),
  INDEX_HITS_PER_OP("index blocks served by the block cache per op"),
  DATA_HITS_PER_OP("data blocks served by the block cache per op"),
  FILTER_USEFUL_PER_OP("table probes a filter answered 'absent', per op"),
  NEW_TABLE_METADATA_READ("filter and index blocks read from disk, in the phase, of tables the"
      + " engine wrote since open (Strata)"),
  WRITER_OPS_PER_SEC("readwhilewriting: puts per second of the one writer"),
  READER_OPS_PER_SEC("readwhileoverwriting: Gets per second of all readers while the writer ran"),
  READER_P50_US("readwhileoverwriting: readers' Get latency median, microseconds"),
  READER_P99_US("readwhileoverwriting: readers' Get latency 99th percentile, microseconds"),
  READER_MAX_US("readwhileoverwriting: readers' longest Get, microseconds"),
  WRITE_AMP_WCHAR("bytes written by system calls (log, flushes, compactions) / logical bytes put"),
  WRITE_AMP_WRITE_BYTES("bytes sent to the device (/proc/self/io write_bytes) / logical bytes put"),
  STALL_MS("time writers were stalled by the engine, milliseconds"),
  PUTS_OVER_10MS("puts that took over 10 ms"),
  MS_IN_PUTS_OVER_10MS("time spent in the puts over 10 ms (their latencies summed), milliseconds"),
  PUTS_OVER_50MS("puts that took over 50 ms"),
  PUTS_OVER_100MS("puts that took over 100 ms"),
  MAX_PUT_MS("longest put, milliseconds"),
  OTHERS_CPU_PCT("write phases: share of the machine's processor time other processes (and other"
      + " guests: steal) used while the puts ran, percent; a runnable writer waits for a core"),
  QUIESCE_S("after a write phase or readwhilewriting: seconds from the last put (and a flush) until"
      + " compaction quiesced; in other read phases, seconds after the warm-up until background"
      + " work the reads started (a read-triggered compaction) finished"),
  GC_COUNT("stop-the-world GC pauses during the measured period"),
  GC_MS("their total, milliseconds"),
  GC_MAX_MS("the longest, milliseconds"),
  HEAP_LIVE_MIB("heap in use after a full GC at the end of the phase, MiB"),
  RSS_MIB("process resident set at the end of the phase (VmRSS), MiB"),
  PEAK_RSS_MIB("peak resident set of the phase's process (VmHWM), MiB"),
  OPEN_MS("time to open the database, milliseconds"),
  FIRST_OP_US("latency of the first operation after open, microseconds; each phase is a fresh JVM,"
      + " so it includes loading the read path's classes (Java for Strata, JNI glue for RocksDB)"),
  FIRST_1000_OPS_MS("time of the first 1,000 operations after open, milliseconds"),
  TABLES_PER_LEVEL("tables at each level at the end of the phase, level 0 first"),
  MIB_PER_LEVEL("MiB at each level at the end of the phase, level 0 first"),
  FILTER_KIB_PER_LEVEL("filter KiB on disk at each level at the end of the phase, level 0 first"),
  INDEX_KIB("index KiB on disk at the end of the phase: per level for RocksDB (level 0 first),"
      + " the whole tree for Strata"),
  RATIO_TO_ROCKSDB_LRU(
      "Strata rows: ops/s over rocksdb-lru's in the same step, benchmark, threads, state"),
  RATIO_TO_ROCKSDB_HCC(
      "Strata rows: ops/s over rocksdb-hcc's in the same step, benchmark, threads, state"),
  READER_RATIO_TO_ROCKSDB("Strata rows of readwhileoverwriting: reader_ops_per_sec over that of the"
      + " RocksDB configuration that ran it");

  private final String description;

  Column(String description) {
    this.description = description;
  }

  /** The header of the column in the CSV. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** What the column holds, for the report and the README. */
  String description() {
    return description;
  }
}
