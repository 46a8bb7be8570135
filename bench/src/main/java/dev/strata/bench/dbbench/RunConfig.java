package dev.strata.bench.dbbench;

import dev.strata.engine.BloomType;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * The settings every phase of a run shares, whatever the engine. The parent writes them to {@code
 * run.properties} in the output folder and every child process reads them back from there, so the
 * children cannot disagree with each other or with the report.
 *
 * @param num keys of the narrow database; cells of the wide one
 * @param valueBytes bytes of every value
 * @param compressionRatio db_bench's {@code --compression_ratio}
 * @param bitsPerKey filter bits per key in both engines
 * @param bloomType Strata's filter type; RocksDB filters whole keys (its keys are Strata's rows and
 *     cells alike), with a row-prefix filter in the wide database
 * @param cacheBytes block cache capacity of every engine
 * @param durationSeconds measured seconds of each read phase
 * @param warmupSeconds warm-up seconds before each read phase
 * @param seed seed of every key and value stream
 * @param columns columns of every wide row
 * @param seekCells cells read by one seekrandom operation (the seek included)
 * @param batchSize keys of one multireadrandom call
 * @param dbDir the folder holding every database of the run
 * @param tree the leveled tree of both engines
 * @param quiesceTimeoutSeconds longest wait for compaction to quiesce after a write phase
 * @param keyDistribution how the benchmarks that draw keys at random choose them
 * @param writes puts of one overwrite or readwhileoverwriting phase
 *
 * <p>Immutable.
 */
record RunConfig(long num, int valueBytes, double compressionRatio, double bitsPerKey,
    BloomType bloomType, long cacheBytes, double durationSeconds, double warmupSeconds, long seed,
    int columns, int seekCells, int batchSize, Path dbDir, Tree tree, long quiesceTimeoutSeconds,
    KeyDistribution keyDistribution, long writes) {

  /** File name of the settings in the output folder. */
  static final String FILE = "run.properties";

  /** These settings with a block cache of {@code bytes}. */
  RunConfig withCacheBytes(long bytes) {
    return new RunConfig(num, valueBytes, compressionRatio, bitsPerKey, bloomType, bytes,
        durationSeconds, warmupSeconds, seed, columns, seekCells, batchSize, dbDir, tree,
        quiesceTimeoutSeconds, keyDistribution, writes);
  }

  /** These settings with the databases in {@code dir}. */
  RunConfig withDbDir(Path dir) {
    return new RunConfig(num, valueBytes, compressionRatio, bitsPerKey, bloomType, cacheBytes,
        durationSeconds, warmupSeconds, seed, columns, seekCells, batchSize, dir, tree,
        quiesceTimeoutSeconds, keyDistribution, writes);
  }

  /** The logical bytes of one narrow put: its key and value, what write amplification divides by. */
  long logicalBytesPerPut() {
    return KeySpace.KEY_BYTES + valueBytes;
  }

  /** The database folder of {@code engine} for {@code layout}. */
  Path dbPath(EngineKind engine, Benchmark.Layout layout) {
    return dbDir.resolve(engine.storage() + (layout == Benchmark.Layout.WIDE ? "-wide" : ""));
  }

  /** Rows of the wide database. */
  long wideRows() {
    return Math.max(1, num / columns);
  }

  void write(Path file) throws IOException {
    Properties p = new Properties();
    p.setProperty("num", Long.toString(num));
    p.setProperty("value_bytes", Integer.toString(valueBytes));
    p.setProperty("compression_ratio", Double.toString(compressionRatio));
    p.setProperty("bits_per_key", Double.toString(bitsPerKey));
    p.setProperty("bloom_type", bloomType.name());
    p.setProperty("cache_bytes", Long.toString(cacheBytes));
    p.setProperty("duration_seconds", Double.toString(durationSeconds));
    p.setProperty("warmup_seconds", Double.toString(warmupSeconds));
    p.setProperty("seed", Long.toString(seed));
    p.setProperty("columns", Integer.toString(columns));
    p.setProperty("seek_cells", Integer.toString(seekCells));
    p.setProperty("batch_size", Integer.toString(batchSize));
    p.setProperty("db_dir", dbDir.toAbsolutePath().toString());
    p.setProperty("memtable_bytes", Long.toString(tree.memtableBytes()));
    p.setProperty("level0_trigger", Integer.toString(tree.level0Trigger()));
    p.setProperty("target_file_bytes", Long.toString(tree.targetFileBytes()));
    p.setProperty("level1_bytes", Long.toString(tree.level1Bytes()));
    p.setProperty("multiplier", Integer.toString(tree.multiplier()));
    p.setProperty("quiesce_timeout_seconds", Long.toString(quiesceTimeoutSeconds));
    p.setProperty("key_distribution", keyDistribution.label());
    p.setProperty("writes", Long.toString(writes));
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      p.store(w, "dbbench settings shared by every phase");
    }
  }

  static RunConfig read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    try {
      long num = Long.parseLong(get(p, "num"));
      return new RunConfig(
          num,
          Integer.parseInt(get(p, "value_bytes")),
          Double.parseDouble(get(p, "compression_ratio")),
          Double.parseDouble(get(p, "bits_per_key")),
          BloomType.valueOf(get(p, "bloom_type").toUpperCase(Locale.ROOT)),
          Long.parseLong(get(p, "cache_bytes")),
          Double.parseDouble(get(p, "duration_seconds")),
          Double.parseDouble(get(p, "warmup_seconds")),
          Long.parseLong(get(p, "seed")),
          Integer.parseInt(get(p, "columns")),
          Integer.parseInt(get(p, "seek_cells")),
          Integer.parseInt(get(p, "batch_size")),
          Path.of(get(p, "db_dir")),
          new Tree(Long.parseLong(get(p, "memtable_bytes")),
              Integer.parseInt(get(p, "level0_trigger")),
              Long.parseLong(get(p, "target_file_bytes")),
              Long.parseLong(get(p, "level1_bytes")),
              Integer.parseInt(get(p, "multiplier"))),
          Long.parseLong(get(p, "quiesce_timeout_seconds")),
          // Output folders written before these settings existed ran uniform keys and --num writes.
          KeyDistribution.parse(p.getProperty("key_distribution", "uniform")),
          Long.parseLong(p.getProperty("writes", Long.toString(num))));
    } catch (IllegalArgumentException e) {
      throw new IOException("bad settings in " + file + ": " + e.getMessage(), e);
    }
  }

  private static String get(Properties p, String key) throws IOException {
    String v = p.getProperty(key);
    if (v == null) {
      throw new IOException("setting '" + key + "' missing from " + FILE);
    }
    return v;
  }
}
