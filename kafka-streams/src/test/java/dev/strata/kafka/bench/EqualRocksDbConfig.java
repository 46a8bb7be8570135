package dev.strata.kafka.bench;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;

/**
 * Gives Kafka Streams' default RocksDB store the benchmark's cache and memtable sizes (system
 * properties {@code bench.cacheBytes}, {@code bench.memtableBytes}), leaving every other setting
 * of Kafka's default store as it is.
 *
 * <p>Instantiated by Kafka Streams per store.
 */
public final class EqualRocksDbConfig implements RocksDBConfigSetter {
  private Cache cache;

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    cache = new LRUCache(Long.getLong("bench.cacheBytes", 8L << 20));
    table.setBlockCache(cache);
    options.setTableFormatConfig(table);
    options.setWriteBufferSize(Long.getLong("bench.memtableBytes", 16L << 20));
  }

  @Override
  public void close(String storeName, Options options) {
    cache.close();
  }
}
