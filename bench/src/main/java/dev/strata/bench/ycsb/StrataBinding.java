package dev.strata.bench.ycsb;

import dev.strata.bench.dbbench.Parity;
import dev.strata.engine.BloomType;
import dev.strata.engine.CellCursor;
import dev.strata.engine.Db;

/**
 * The YCSB binding of Strata ({@code -db dev.strata.bench.ycsb.StrataBinding}): one {@link Db} per
 * process in the parity setup ({@link Parity#strataOptions}), keys in the key-value view (a row
 * with the empty column).
 *
 * <p>One instance per client thread; the {@link Db} is shared and thread-safe.
 */
public final class StrataBinding extends KvBinding {
  private static final Shared<Db> DB = new Shared<>();
  private static final byte[] NO_COLUMN = new byte[0];

  private Db db;

  @Override
  void open(BindingConfig c) throws Exception {
    db = DB.acquire(() -> Db.open(c.dir(),
        Parity.strataOptions(c.tree(), c.cacheBytes(), c.bitsPerKey(), BloomType.ROW)));
  }

  @Override
  void close() throws Exception {
    db = null;
    DB.release();
  }

  @Override
  byte[] get(byte[] key) throws Exception {
    return db.get(key);
  }

  @Override
  void put(byte[] key, byte[] value) throws Exception {
    db.put(key, value);
  }

  @Override
  void remove(byte[] key) throws Exception {
    db.delete(key);
  }

  @Override
  void scan(byte[] start, int count, ScanSink sink) throws Exception {
    try (CellCursor c = db.cursor()) {
      c.seek(start, NO_COLUMN);
      for (int n = 0; n < count && c.isValid(); n++, c.next()) {
        if (!sink.accept(c.row(), c.value())) {
          return;
        }
      }
    }
  }
}
