package dev.strata.bench.levels;

import dev.strata.bench.common.RocksDbLibrary;
import dev.strata.bench.dbbench.Parity;
import dev.strata.bench.dbbench.Tree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.LevelMetaData;
import org.rocksdb.Options;
import org.rocksdb.OptionsUtil;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileMetaData;
import org.rocksdb.Statistics;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * One RocksDB configuration of {@code filterlevels}: the parity tree and table setup ({@link
 * Parity}) with a Bloom filter everywhere, or with RocksDB's Ribbon filter and Bloom for level 0
 * ({@code ribbonfilter:BITS:1}, i.e. {@code bloom_before_level=1}). rocksdbjni has no Java class
 * for the Ribbon policy, so that setup goes through RocksDB's options-from-string parser with the
 * values {@link Parity#rocksDbTable} sets; the OPTIONS file RocksDB writes is read back so the
 * report shows what really applied (and that the two setups differ only in the filter policy).
 *
 * <p>Filter bytes per level: each table's {@code TableProperties.getFilterSize()} (all filter
 * partitions and their top-level index), summed over the level's files. False positives: the
 * statistics {@code BLOOM_FILTER_FULL_POSITIVE - BLOOM_FILTER_FULL_TRUE_POSITIVE} over the absent
 * Gets (full and partitioned filters both count there).
 *
 * <p>Not thread-safe: one run at a time.
 */
final class RocksDbFilterRun {
  /** How the report names the false-positive count. */
  static final String COUNTED_AS = "FULL_POSITIVE - FULL_TRUE_POSITIVE";

  private static final int LEVEL0_TRIGGER = 4;
  private static final int MULTIPLIER = 10;
  private static final long CACHE_BYTES = 16L << 20;
  private static final long MEMTABLE_BYTES = 1L << 30; // never full: the fill flushes

  private final double bits;
  private final long fileBytes;
  private final boolean ribbon;

  RocksDbFilterRun(double bits, long fileBytes, boolean ribbon) {
    this.bits = bits;
    this.fileBytes = fileBytes;
    this.ribbon = ribbon;
  }

  FilterResult run(String label, Path db, FilterWorkload w)
      throws IOException, InterruptedException {
    RocksDbLibrary.load(Path.of(System.getProperty("java.io.tmpdir")));
    Files.createDirectories(db);
    Tree tree = new Tree(MEMTABLE_BYTES, LEVEL0_TRIGGER, fileBytes, 4 * fileBytes, MULTIPLIER);
    try (Statistics statistics = new Statistics();
        LRUCache cache = new LRUCache(CACHE_BYTES, -1, false, Parity.HIGH_PRIORITY_POOL_RATIO);
        BloomFilter bloom = new BloomFilter(bits, false);
        Options options = options(tree, Parity.rocksDbTable(cache, bloom)).setStatistics(statistics);
        WriteOptions writes = new WriteOptions().setDisableWAL(true);
        ReadOptions reads = new ReadOptions();
        FlushOptions flush = new FlushOptions().setWaitForFlush(true);
        RocksDB d = RocksDB.open(options, db.toString())) {
      Target target = new Target(d, writes, reads, flush);
      long fillStart = System.nanoTime();
      SplittableRandom random = w.fill(target);
      double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
      long positiveBefore = statistics.getTickerCount(TickerType.BLOOM_FILTER_FULL_POSITIVE);
      long trueBefore = statistics.getTickerCount(TickerType.BLOOM_FILTER_FULL_TRUE_POSITIVE);
      long usefulBefore = statistics.getTickerCount(TickerType.BLOOM_FILTER_USEFUL);
      w.absentGets(target, random);
      long positive = statistics.getTickerCount(TickerType.BLOOM_FILTER_FULL_POSITIVE) - positiveBefore;
      long truePositive =
          statistics.getTickerCount(TickerType.BLOOM_FILTER_FULL_TRUE_POSITIVE) - trueBefore;
      long useful = statistics.getTickerCount(TickerType.BLOOM_FILTER_USEFUL) - usefulBefore;
      return new FilterResult(label, fillSeconds, levels(d), positive - truePositive,
          positive + useful, w.gets(), Double.NaN, COUNTED_AS, tableOptions(db, options));
    } catch (RocksDBException e) {
      throw new IOException("RocksDB in " + db + ": " + e.getMessage(), e);
    }
  }

  private Options options(Tree tree, BlockBasedTableConfig parity) throws RocksDBException {
    return ribbon ? ribbonOptions(tree, parity) : Parity.rocksDbOptions(tree, parity);
  }

  /**
   * The Ribbon setup: {@link Parity#rocksDbOptions}' tree and {@code parity}'s table settings (the
   * Bloom setup's, read back from its config so the two cannot drift apart) as an options string,
   * the filter policy {@code ribbonfilter:BITS:1} instead of the Bloom filter.
   */
  private Options ribbonOptions(Tree tree, BlockBasedTableConfig parity) throws RocksDBException {
    String table = String.join(";",
        "block_size=" + parity.blockSize(),
        "block_cache={capacity=" + CACHE_BYTES + ";high_pri_pool_ratio="
            + Parity.HIGH_PRIORITY_POOL_RATIO + "}",
        "filter_policy=ribbonfilter:" + bits + ":1",
        "cache_index_and_filter_blocks=" + parity.cacheIndexAndFilterBlocks(),
        "cache_index_and_filter_blocks_with_high_priority="
            + parity.cacheIndexAndFilterBlocksWithHighPriority(),
        "pin_l0_filter_and_index_blocks_in_cache=" + parity.pinL0FilterAndIndexBlocksInCache(),
        "partition_filters=" + parity.partitionFilters(),
        "index_type=" + parity.indexType().name(),
        "metadata_block_size=" + parity.metadataBlockSize(),
        "pin_top_level_index_and_filter=" + parity.pinTopLevelIndexAndFilter(),
        "optimize_filters_for_memory=" + parity.optimizeFiltersForMemory(),
        "whole_key_filtering=" + parity.wholeKeyFiltering(),
        "uniform_cv_threshold=" + parity.uniformCvThreshold(),
        "format_version=" + parity.formatVersion());
    Properties cf = new Properties();
    cf.setProperty("compression", "kLZ4Compression");
    cf.setProperty("write_buffer_size", Long.toString(tree.memtableBytes()));
    cf.setProperty("level0_file_num_compaction_trigger", Integer.toString(tree.level0Trigger()));
    cf.setProperty("target_file_size_base", Long.toString(tree.targetFileBytes()));
    cf.setProperty("max_bytes_for_level_base", Long.toString(tree.level1Bytes()));
    cf.setProperty("max_bytes_for_level_multiplier", Integer.toString(tree.multiplier()));
    cf.setProperty("level_compaction_dynamic_level_bytes", "false");
    cf.setProperty("block_based_table_factory", "{" + table + "}");
    try (ConfigOptions config = new ConfigOptions().setIgnoreUnknownOptions(false);
        ColumnFamilyOptions family = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, cf);
        DBOptions dbOptions = new DBOptions().setCreateIfMissing(true)) {
      if (family == null) {
        throw new RocksDBException("RocksDB rejected the Ribbon options " + cf);
      }
      return new Options(dbOptions, family)
          .setInfoLogLevel(org.rocksdb.InfoLogLevel.WARN_LEVEL);
    }
  }

  /** Each non-empty level's tables, entries and filter bytes from the tables' properties. */
  private static List<FilterResult.Level> levels(RocksDB d) throws RocksDBException {
    Map<String, TableProperties> byName = new HashMap<>();
    for (Map.Entry<String, TableProperties> e : d.getPropertiesOfAllTables().entrySet()) {
      byName.put(Path.of(e.getKey()).getFileName().toString(), e.getValue());
    }
    List<FilterResult.Level> levels = new ArrayList<>();
    for (LevelMetaData l : d.getColumnFamilyMetaData().levels()) {
      long entries = 0;
      long filterBytes = 0;
      for (SstFileMetaData f : l.files()) {
        TableProperties p = byName.get(Path.of(f.fileName()).getFileName().toString());
        if (p == null) {
          throw new RocksDBException("no table properties for " + f.fileName());
        }
        entries += p.getNumEntries();
        filterBytes += p.getFilterSize();
      }
      if (!l.files().isEmpty()) {
        levels.add(new FilterResult.Level(l.level(), l.files().size(), entries, filterBytes,
            Double.NaN));
      }
    }
    return levels;
  }

  /** The block-based table section of the OPTIONS file RocksDB wrote for {@code db}. */
  private static Map<String, String> tableOptions(Path db, Options options)
      throws RocksDBException, IOException {
    String name = OptionsUtil.getLatestOptionsFileName(db.toString(), options.getEnv());
    Map<String, String> table = new TreeMap<>();
    boolean inTable = false;
    for (String line : Files.readAllLines(db.resolve(name))) {
      String t = line.trim();
      if (t.startsWith("[")) {
        inTable = t.startsWith("[TableOptions/BlockBasedTable");
      } else if (inTable && t.contains("=")) {
        int eq = t.indexOf('=');
        table.put(t.substring(0, eq).trim(), t.substring(eq + 1).trim());
      }
    }
    return table;
  }

  /** The fill's and Gets' operations on an open RocksDB. */
  private record Target(RocksDB d, WriteOptions writes, ReadOptions reads, FlushOptions flush)
      implements FilterTarget {
    @Override
    public void put(byte[] key, byte[] value) throws IOException {
      try {
        d.put(writes, key, value);
      } catch (RocksDBException e) {
        throw new IOException(e);
      }
    }

    @Override
    public void flushAndSettle() throws IOException, InterruptedException {
      try {
        d.flush(flush);
        while (busy()) {
          Thread.sleep(10); // the compactions this flush starts run before the next writes
        }
      } catch (RocksDBException e) {
        throw new IOException(e);
      }
    }

    private boolean busy() throws RocksDBException {
      return d.getLongProperty("rocksdb.compaction-pending") != 0
          || d.getLongProperty("rocksdb.num-running-compactions") != 0
          || d.getLongProperty("rocksdb.num-running-flushes") != 0
          || d.getLongProperty("rocksdb.mem-table-flush-pending") != 0;
    }

    @Override
    public void get(byte[] key) throws IOException {
      try {
        d.get(reads, key);
      } catch (RocksDBException e) {
        throw new IOException(e);
      }
    }
  }
}
