package dev.strata.bench.ycsb;

import dev.strata.bench.common.RocksDbLibrary;
import dev.strata.bench.dbbench.Parity;
import java.nio.file.Path;
import org.rocksdb.BloomFilter;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * The YCSB binding of RocksDB (rocksdbjni; {@code -db dev.strata.bench.ycsb.RocksDbBinding}): one
 * database per process in the parity setup ({@link Parity#rocksDbTable}, {@link
 * Parity#rocksDbOptions}) with an {@code LRUCache} of the same bytes as Strata's, the WAL on and
 * not synced.
 *
 * <p>One instance per client thread; the database is shared and thread-safe.
 */
public final class RocksDbBinding extends KvBinding {
  private static final Shared<Handle> DB = new Shared<>();

  private Handle h;

  /** The database and the native objects it uses, closed together. */
  private static final class Handle implements AutoCloseable {
    final LRUCache cache;
    final BloomFilter filter;
    final Options options;
    final WriteOptions write;
    final ReadOptions read;
    final RocksDB db;

    Handle(BindingConfig c) throws Exception {
      RocksDbLibrary.load(Path.of(System.getProperty("java.io.tmpdir")));
      write = new WriteOptions().setSync(false).setDisableWAL(false);
      read = new ReadOptions();
      cache = new LRUCache(c.cacheBytes(), -1, false, Parity.HIGH_PRIORITY_POOL_RATIO);
      filter = new BloomFilter(c.bitsPerKey(), false);
      options = Parity.rocksDbOptions(c.tree(), Parity.rocksDbTable(cache, filter));
      db = RocksDB.open(options, c.dir().toString());
    }

    @Override
    public void close() {
      db.close();
      options.close();
      write.close();
      read.close();
      filter.close();
      cache.close();
    }
  }

  @Override
  void open(BindingConfig c) throws Exception {
    h = DB.acquire(() -> new Handle(c));
  }

  @Override
  void close() throws Exception {
    h = null;
    DB.release();
  }

  @Override
  byte[] get(byte[] key) throws Exception {
    return h.db.get(h.read, key);
  }

  @Override
  void put(byte[] key, byte[] value) throws Exception {
    h.db.put(h.write, key, value);
  }

  @Override
  void remove(byte[] key) throws Exception {
    h.db.delete(h.write, key);
  }

  @Override
  void scan(byte[] start, int count, ScanSink sink) {
    try (RocksIterator it = h.db.newIterator(h.read)) {
      it.seek(start);
      for (int n = 0; n < count && it.isValid(); n++, it.next()) {
        if (!sink.accept(it.key(), it.value())) {
          return;
        }
      }
    }
  }
}
