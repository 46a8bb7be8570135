package dev.strata.bench.readamp;

import dev.strata.bench.common.RocksDbLibrary;
import dev.strata.bench.common.RocksDbRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * RocksDB under test, through rocksdbjni, configured for parity with Strata:
 *
 * <ul>
 *   <li>block-based tables of 4 KiB blocks, LZ4, {@code format_version} at least 5 (the
 *       cache-local FastLocalBloom filter), {@code optimize_filters_for_memory=false} (Java's
 *       default of true rounds filter sizes to allocator sizes and changes bits/key);
 *   <li>BLOOM: {@code BloomFilter(bitsPerKey)}, one whole-table ("full") filter per table;
 *       BLOOM_PARTITIONED: partitioned filters with {@code kTwoLevelIndexSearch}, partitions of
 *       {@code metadata_block_size} = Strata's filter chunk size, top-level index pinned (Strata
 *       pins its filter index at open too);
 *   <li>with a filter, whole keys and a 16-byte row prefix ({@code useFixedLengthPrefixExtractor}):
 *       the filter holds every cell and every row, like Strata's ROWCOL, and a row read (a prefix
 *       iterator) can skip tables;
 *   <li>{@code cache_index_and_filter_blocks=true} with high priority, an {@code LRUCache} of the
 *       same capacity as Strata's with an explicit {@code numShardBits} (the one-argument
 *       constructor makes 64 shards, and a filter larger than a shard is re-read on every Get)
 *       and a high-priority pool of half the capacity (Strata's protected share);
 *   <li>auto compactions off, level-0 slowdown and stop triggers raised so N level-0 tables stay,
 *       a write buffer above the whole load so only explicit flushes cut tables, the WAL on and not
 *       synced.
 * </ul>
 *
 * <p>Counters: Statistics tickers {@code BLOOM_FILTER_USEFUL}, {@code BLOOM_FILTER_FULL_POSITIVE},
 * {@code BLOOM_FILTER_FULL_TRUE_POSITIVE} (point Gets), {@code BLOOM_FILTER_PREFIX_CHECKED}, {@code
 * BLOOM_FILTER_PREFIX_USEFUL} (row reads), {@code BLOCK_CACHE_FILTER_MISS/HIT}, {@code
 * BLOCK_CACHE_DATA_MISS/HIT}; bytes read from table files from the reader thread's PerfContext
 * {@code block_read_byte}.
 *
 * <p>Not thread-safe: the PerfContext and perf level belong to the thread that opened the target,
 * which must also be the one that reads.
 */
final class RocksDbTarget implements Target {
  private static final int MAX_LEVELS = 7;

  private final Path dir;
  private final Setup setup;
  private final Settings settings;
  private final WriteOptions writeOptions = new WriteOptions().setSync(false).setDisableWAL(false);
  private final ReadOptions readOptions = new ReadOptions();
  private final ReadOptions rowReadOptions = new ReadOptions();
  private Options options;
  private Statistics statistics;
  private LRUCache cache;
  private BloomFilter filter;
  private RocksDB db;
  private PerfContext perf;

  RocksDbTarget(Path dir, Setup setup, Settings settings) throws IOException {
    this.dir = dir;
    this.setup = setup;
    this.settings = settings;
    // With the prefix in the filter a row read checks it (prefix_same_as_start); without, the
    // iterator stops at the row's end by our own prefix check.
    rowReadOptions.setPrefixSameAsStart(setup.hasFilter());
    open();
  }

  private void open() throws IOException {
    statistics = new Statistics();
    cache = new LRUCache(settings.cacheBytes(), settings.rocksDbShardBits(), false,
        Settings.HIGH_PRIORITY_POOL_RATIO);
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockSize(Settings.BLOCK_SIZE_BYTES)
        .setBlockCache(cache)
        .setCacheIndexAndFilterBlocks(true)
        .setCacheIndexAndFilterBlocksWithHighPriority(true)
        .setPinL0FilterAndIndexBlocksInCache(false)
        .setOptimizeFiltersForMemory(false)
        .setWholeKeyFiltering(true);
    table.setFormatVersion(RocksDbLibrary.formatVersion());
    options = new Options()
        .setCreateIfMissing(true)
        .setStatistics(statistics)
        .setCompressionType(CompressionType.LZ4_COMPRESSION)
        .setDisableAutoCompactions(true)
        .setLevel0FileNumCompactionTrigger(1 << 20)
        .setLevel0SlowdownWritesTrigger(1 << 20)
        .setLevel0StopWritesTrigger(1 << 20)
        .setWriteBufferSize(Settings.MEMTABLE_BYTES)
        .setMaxWriteBufferNumber(2)
        .setInfoLogLevel(InfoLogLevel.WARN_LEVEL);
    if (setup.hasFilter()) {
      filter = new BloomFilter(settings.bitsPerKey(), false);
      table.setFilterPolicy(filter);
      options.useFixedLengthPrefixExtractor(Workload.ROW_BYTES);
      if (setup == Setup.ROCKSDB_BLOOM_PARTITIONED) {
        table.setPartitionFilters(true)
            .setIndexType(IndexType.kTwoLevelIndexSearch)
            .setMetadataBlockSize(settings.filterChunkBytes())
            .setPinTopLevelIndexAndFilter(true);
      }
    }
    options.setTableFormatConfig(table);
    try {
      db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException e) {
      throw new IOException("cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
    }
    db.setPerfLevel(PerfLevel.ENABLE_COUNT);
    perf = db.getPerfContext();
    perf.reset();
  }

  @Override
  public void put(byte[] row, byte[] column, byte[] value) throws IOException {
    try {
      db.put(writeOptions, RocksDbRows.cellKey(row, column), value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
      db.flush(f);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void compact() throws IOException {
    try {
      db.compactRange();
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void reopen() throws IOException {
    closeAll();
    open();
  }

  @Override
  public byte[] get(byte[] row, byte[] column) throws IOException {
    try {
      return db.get(readOptions, RocksDbRows.cellKey(row, column));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public int getRow(byte[] row) {
    return RocksDbRows.readRow(db, rowReadOptions, row);
  }


  @Override
  public Counters counters() {
    Statistics s = statistics;
    return new Counters(
        0,
        s.getTickerCount(TickerType.BLOOM_FILTER_USEFUL),
        0,
        s.getTickerCount(TickerType.BLOOM_FILTER_FULL_POSITIVE),
        s.getTickerCount(TickerType.BLOOM_FILTER_FULL_TRUE_POSITIVE),
        s.getTickerCount(TickerType.BLOCK_CACHE_FILTER_MISS),
        s.getTickerCount(TickerType.BLOCK_CACHE_FILTER_HIT),
        s.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS),
        s.getTickerCount(TickerType.BLOCK_CACHE_DATA_HIT),
        perf.getBlockReadByte(),
        s.getTickerCount(TickerType.NON_LAST_LEVEL_SEEK_FILTERED)
            + s.getTickerCount(TickerType.LAST_LEVEL_SEEK_FILTERED),
        s.getTickerCount(TickerType.NON_LAST_LEVEL_SEEK_FILTER_MATCH)
            + s.getTickerCount(TickerType.LAST_LEVEL_SEEK_FILTER_MATCH),
        s.getTickerCount(TickerType.NON_LAST_LEVEL_SEEK_DATA_USEFUL_FILTER_MATCH)
            + s.getTickerCount(TickerType.LAST_LEVEL_SEEK_DATA_USEFUL_FILTER_MATCH));
  }

  @Override
  public PassMetrics metrics(QueryKind kind, Counters before, Counters after, long gets) {
    boolean filter = setup.hasFilter();
    Double consulted = null;
    Double skipped = filter ? null : 0.0;
    Double falsePositives = null;
    Double fpr = null;
    if (filter && kind.isPointGet()) {
      long useful = after.skipped() - before.skipped();
      long positives = after.positives() - before.positives();
      long fp = positives - (after.truePositives() - before.truePositives());
      consulted = PassMetrics.perGet(useful + positives, gets);
      skipped = PassMetrics.perGet(useful, gets);
      falsePositives = PassMetrics.perGet(fp, gets);
      fpr = PassMetrics.fpr(fp, useful);
    } else if (filter) {
      // A row read checks the prefix filter of each table once, at its seek: a table is either
      // filtered out or a filter match, and a match whose data held the prefix was useful.
      long filtered = after.seekFiltered() - before.seekFiltered();
      long matches = after.seekFilterMatches() - before.seekFilterMatches();
      long fp = matches - (after.seekFilterMatchesUseful() - before.seekFilterMatchesUseful());
      consulted = PassMetrics.perGet(filtered + matches, gets);
      skipped = PassMetrics.perGet(filtered, gets);
      falsePositives = PassMetrics.perGet(fp, gets);
      fpr = PassMetrics.fpr(fp, filtered);
    }
    return PassMetrics.of(consulted, skipped, falsePositives, fpr, before, after, gets);
  }

  @Override
  public int tableCount() throws IOException {
    int n = 0;
    try {
      for (int level = 0; level < MAX_LEVELS; level++) {
        n += Integer.parseInt(db.getProperty("rocksdb.num-files-at-level" + level).trim());
      }
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    return n;
  }

  private Map<String, TableProperties> tableProperties() throws IOException {
    try {
      return db.getPropertiesOfAllTables();
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public long filterBytesOnDisk() throws IOException {
    long bytes = 0;
    for (TableProperties p : tableProperties().values()) {
      bytes += p.getFilterSize();
    }
    return bytes;
  }

  @Override
  public Double fprModel() throws IOException {
    if (!setup.hasFilter()) {
      return null;
    }
    Map<String, TableProperties> tables = tableProperties();
    long entries = 0;
    for (TableProperties p : tables.values()) {
      entries += p.getNumEntries();
    }
    return tables.isEmpty() ? null : FprModels.rocksDb(entries / tables.size(), settings.bitsPerKey());
  }

  private void closeAll() {
    db.close();
    options.close();
    statistics.close();
    cache.close();
    if (filter != null) {
      filter.close();
      filter = null;
    }
  }

  @Override
  public void close() {
    closeAll();
    writeOptions.close();
    readOptions.close();
    rowReadOptions.close();
  }
}
