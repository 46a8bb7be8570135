package dev.strata.bench.dbbench;

import dev.strata.bench.common.RocksDbLibrary;
import dev.strata.bench.common.RocksDbRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyMetaData;
import org.rocksdb.FlushOptions;
import org.rocksdb.HyperClockCache;
import org.rocksdb.LRUCache;
import org.rocksdb.LevelMetaData;
import org.rocksdb.OptionsUtil;
import org.rocksdb.Options;
import org.rocksdb.PerfLevel;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileMetaData;
import org.rocksdb.Statistics;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * RocksDB under test (rocksdbjni), in the parity setup with Strata:
 *
 * <ul>
 *   <li>the same leveled tree ({@link Tree}): {@code write_buffer_size}, {@code
 *       level0_file_num_compaction_trigger}, {@code target_file_size_base}, {@code
 *       max_bytes_for_level_base} and {@code max_bytes_for_level_multiplier} as Strata's options,
 *       {@code level_compaction_dynamic_level_bytes=false} (Strata sizes levels from level 1 down,
 *       as RocksDB did before 8.4), everything else RocksDB's default: two write buffers, the
 *       level-0 slowdown and stop triggers (20, 36), {@code max_background_jobs} (2);
 *   <li>block-based tables of 4 KiB blocks, LZ4, the library's table format (at least 5), a Bloom
 *       filter of the run's bits per key with {@code optimize_filters_for_memory=false} (it would
 *       change bits per key), partitioned filters and a partitioned index ({@code
 *       kTwoLevelIndexSearch}) with partitions of Strata's filter chunk size ({@code
 *       metadata_block_size}), top-level index and filter pinned (Strata holds its chunk index in
 *       the open table too);
 *   <li>index and filter blocks in the block cache at high priority, an {@code LRUCache} with a
 *       high-priority pool of half its capacity and the library's default sharding, or a {@code
 *       HyperClockCache} of the same capacity;
 *   <li>the wide-row database adds a 16-byte prefix extractor (the row), so a row read can skip
 *       tables by filter as Strata's row filter lets it;
 *   <li>the WAL on and not synced.
 * </ul>
 *
 * <p>Counters: Statistics tickers {@code BLOCK_CACHE_{FILTER,INDEX,DATA}_{MISS,HIT}}, {@code
 * BLOOM_FILTER_USEFUL} (and {@code BLOOM_FILTER_PREFIX_USEFUL}), {@code STALL_MICROS}; bytes read
 * from table files by reads from each reader thread's PerfContext {@code block_read_byte}.
 *
 * <p>Thread-safe, as RocksDB; the PerfContext is per thread by design.
 */
final class RocksDbStore implements Store {
  /** RocksDB's default number of levels. */
  private static final int NUM_LEVELS = 7;

  private final Path dir;
  private final Statistics statistics;
  private final Cache cache;
  private final BloomFilter filter;
  private final Options options;
  private final WriteOptions writeOptions;
  private final ReadOptions readOptions;
  private final ReadOptions rowReadOptions;
  private final RocksDB db;

  RocksDbStore(Path dir, EngineKind engine, Benchmark.Layout layout, RunConfig c)
      throws IOException {
    this.dir = dir;
    RocksDbLibrary.load(Path.of(System.getProperty("java.io.tmpdir")));
    statistics = new Statistics();
    writeOptions = new WriteOptions().setSync(false).setDisableWAL(false);
    readOptions = new ReadOptions();
    rowReadOptions = new ReadOptions().setPrefixSameAsStart(true);
    cache = engine == EngineKind.ROCKSDB_HCC
        ? new HyperClockCache(c.cacheBytes(), 0, -1, false)
        : new LRUCache(c.cacheBytes(), -1, false, Parity.HIGH_PRIORITY_POOL_RATIO);
    filter = new BloomFilter(c.bitsPerKey(), false);
    options = Parity.rocksDbOptions(c.tree(), Parity.rocksDbTable(cache, filter))
        .setStatistics(statistics);
    if (layout == Benchmark.Layout.WIDE) {
      options.useFixedLengthPrefixExtractor(KeySpace.KEY_BYTES);
    }
    try {
      db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException e) {
      closeOptions();
      throw new IOException("cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    try {
      db.put(writeOptions, key, value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void putCell(byte[] row, byte[] column, byte[] value) throws IOException {
    put(RocksDbRows.cellKey(row, column), value);
  }

  @Override
  public boolean get(byte[] key) throws IOException {
    try {
      return db.get(readOptions, key) != null;
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public int multiGet(List<byte[]> keys) throws IOException {
    try {
      int found = 0;
      for (byte[] v : db.multiGetAsList(readOptions, keys)) {
        found += v == null ? 0 : 1;
      }
      return found;
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public int seek(byte[] key, int cells) {
    int n = 0;
    try (RocksIterator it = db.newIterator(readOptions)) {
      for (it.seek(key); it.isValid() && n < cells; it.next()) {
        it.key();
        it.value();
        n++;
      }
    }
    return n;
  }

  @Override
  public int seekReverse(byte[] key, int cells) {
    int n = 0;
    try (RocksIterator it = db.newIterator(readOptions)) {
      for (it.seekForPrev(key); it.isValid() && n < cells; it.prev()) {
        it.key();
        it.value();
        n++;
      }
    }
    return n;
  }

  @Override
  public int scanPrefix(byte[] prefix) {
    int n = 0;
    try (RocksIterator it = db.newIterator(readOptions)) {
      for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
        it.value();
        n++;
      }
    }
    return n;
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  @Override
  public int getRow(byte[] row) {
    return RocksDbRows.readRow(db, rowReadOptions, row);
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
  public boolean compactionPending() throws IOException {
    try {
      return db.getLongProperty("rocksdb.compaction-pending") != 0
          || db.getLongProperty("rocksdb.num-running-compactions") != 0
          || db.getLongProperty("rocksdb.num-running-flushes") != 0
          || db.getLongProperty("rocksdb.mem-table-flush-pending") != 0
          || db.getLongProperty("rocksdb.estimate-pending-compaction-bytes") != 0;
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public Levels levels() throws IOException {
    // Compactions and bytes written per level, into the phase's log: what a write-amplification
    // gap is compared against.
    try {
      System.err.println(db.getProperty("rocksdb.cfstats-no-file-histogram"));
    } catch (RocksDBException e) {
      System.err.println("no rocksdb.cfstats: " + e);
    }
    ColumnFamilyMetaData meta = db.getColumnFamilyMetaData();
    Map<String, TableProperties> properties = tableProperties();
    List<Integer> tables = new ArrayList<>();
    List<Long> bytes = new ArrayList<>();
    List<Long> filterBytes = new ArrayList<>();
    List<Long> indexBytes = new ArrayList<>();
    for (int level = 0; level < NUM_LEVELS; level++) {
      tables.add(0);
      bytes.add(0L);
      filterBytes.add(0L);
      indexBytes.add(0L);
    }
    long indexTotal = 0;
    for (LevelMetaData l : meta.levels()) {
      if (l.level() < NUM_LEVELS) {
        tables.set(l.level(), l.files().size());
        bytes.set(l.level(), l.size());
        long filter = 0;
        long index = 0;
        for (SstFileMetaData f : l.files()) {
          TableProperties p = properties.get(Path.of(f.fileName()).getFileName().toString());
          if (p != null) {
            filter += p.getFilterSize();
            index += p.getIndexSize();
          }
        }
        filterBytes.set(l.level(), filter);
        indexBytes.set(l.level(), index);
        indexTotal += index;
      }
    }
    return new Levels(tables, bytes, filterBytes, indexBytes, indexTotal);
  }

  /** Every live table's properties, by file name (the keys RocksDB gives are paths). */
  private Map<String, TableProperties> tableProperties() throws IOException {
    Map<String, TableProperties> byName = new HashMap<>();
    try {
      for (Map.Entry<String, TableProperties> e : db.getPropertiesOfAllTables().entrySet()) {
        byName.put(Path.of(e.getKey()).getFileName().toString(), e.getValue());
      }
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    return byName;
  }

  @Override
  public Counters counters() {
    Statistics s = statistics;
    return new Counters(null,
        s.getTickerCount(TickerType.BLOCK_CACHE_FILTER_MISS),
        s.getTickerCount(TickerType.BLOCK_CACHE_INDEX_MISS),
        s.getTickerCount(TickerType.BLOCK_CACHE_DATA_MISS),
        s.getTickerCount(TickerType.BLOCK_CACHE_FILTER_HIT),
        s.getTickerCount(TickerType.BLOCK_CACHE_INDEX_HIT),
        s.getTickerCount(TickerType.BLOCK_CACHE_DATA_HIT),
        s.getTickerCount(TickerType.BLOOM_FILTER_USEFUL)
            + s.getTickerCount(TickerType.BLOOM_FILTER_PREFIX_USEFUL),
        null,
        s.getTickerCount(TickerType.STALL_MICROS));
  }

  @Override
  public void beginReaderThread() {
    db.setPerfLevel(PerfLevel.ENABLE_COUNT);
    db.getPerfContext().reset();
  }

  @Override
  public long readerThreadBytes() {
    return db.getPerfContext().getBlockReadByte();
  }

  /** Copies the OPTIONS file RocksDB wrote for this database, its complete configuration. */
  @Override
  public void writeOptions(Path file) throws IOException {
    try {
      String name = OptionsUtil.getLatestOptionsFileName(dir.toString(), options.getEnv());
      Files.copy(dir.resolve(name), file, StandardCopyOption.REPLACE_EXISTING);
    } catch (RocksDBException e) {
      throw new IOException("cannot find RocksDB's OPTIONS file in " + dir, e);
    }
  }

  @Override
  public void close() {
    db.close();
    closeOptions();
  }

  private void closeOptions() {
    options.close();
    writeOptions.close();
    readOptions.close();
    rowReadOptions.close();
    filter.close();
    cache.close();
    statistics.close();
  }
}
