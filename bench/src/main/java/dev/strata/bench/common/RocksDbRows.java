package dev.strata.bench.common;

import java.util.Arrays;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * Strata's wide-row model on RocksDB's flat keys, as both benchmarks map it: cell (row, column) is
 * the key {@code row + column}, and a row is every key that starts with the row's bytes.
 *
 * <p>Immutable (static methods only).
 */
public final class RocksDbRows {
  private RocksDbRows() {}

  /** The RocksDB key of cell (row, column). */
  public static byte[] cellKey(byte[] row, byte[] column) {
    byte[] k = Arrays.copyOf(row, row.length + column.length);
    System.arraycopy(column, 0, k, row.length, column.length);
    return k;
  }

  /**
   * Reads every cell of {@code row} with an iterator under {@code options} (with a prefix
   * extractor and {@code prefix_same_as_start}, its filter can skip tables); returns how many.
   */
  public static int readRow(RocksDB db, ReadOptions options, byte[] row) {
    int n = 0;
    try (RocksIterator it = db.newIterator(options)) {
      for (it.seek(row); it.isValid(); it.next()) {
        byte[] k = it.key();
        if (k.length < row.length || !Arrays.equals(k, 0, row.length, row, 0, row.length)) {
          break;
        }
        it.value();
        n++;
      }
    }
    return n;
  }
}
