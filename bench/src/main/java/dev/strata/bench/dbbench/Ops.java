package dev.strata.bench.dbbench;

import dev.strata.bench.common.CompressibleValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The operation of each benchmark over the run's keys and values: which key an operation touches
 * and what it does with it. Present keys (and missing keys, and wide rows) are drawn from the
 * filled ones by the run's {@link KeyDistribution}; fills take them in index order (fillseq) or in
 * the order of a seeded {@link Permutation} (fillrandom, fillrows).
 *
 * <p>Immutable.
 */
final class Ops {
  private final RunConfig config;
  private final KeySpace keys;
  private final KeySpace rows;
  private final CompressibleValues values;
  private final KeyDistribution.Chooser key;
  private final KeyDistribution.Chooser row;

  Ops(RunConfig config) {
    this.config = config;
    this.keys = new KeySpace(config.num(), config.seed());
    this.rows = new KeySpace(config.wideRows(), config.seed() ^ 0x726f7773L);
    this.values = new CompressibleValues(config.valueBytes(), config.compressionRatio(),
        config.seed());
    this.key = config.keyDistribution().over(keys.size());
    this.row = config.keyDistribution().over(rows.size());
  }

  /** The operation of {@code benchmark} on {@code store}. */
  LoadRunner.Op of(Benchmark benchmark, Store store) {
    long n = keys.size();
    return switch (benchmark) {
      case FILLSEQ -> (i, r) -> {
        store.put(keys.key(i), values.value(i));
        return 1;
      };
      case FILLRANDOM -> {
        Permutation order = new Permutation(n, config.seed());
        yield (i, r) -> {
          long k = order.apply(i);
          store.put(keys.key(k), values.value(k));
          return 1;
        };
      }
      case OVERWRITE, READWHILEWRITING, READWHILEOVERWRITING -> overwrite(store);
      case READRANDOM -> (i, r) -> store.get(keys.key(key.next(r))) ? 1 : 0;
      case READMISSING -> (i, r) -> store.get(keys.missingKey(key.next(r))) ? 1 : 0;
      case MULTIREADRANDOM -> (i, r) -> {
        List<byte[]> batch = new ArrayList<>(config.batchSize());
        for (int k = 0; k < config.batchSize(); k++) {
          batch.add(keys.key(key.next(r)));
        }
        return store.multiGet(batch);
      };
      case SEEKRANDOM -> (i, r) -> store.seek(keys.key(key.next(r)), config.seekCells());
      case SEEKRANDOMREVERSE ->
          (i, r) -> store.seekReverse(keys.key(key.next(r)), config.seekCells());
      case PREFIXSCANRANDOM -> {
        int length = prefixLength(n);
        yield (i, r) -> store.scanPrefix(Arrays.copyOf(keys.key(key.next(r)), length));
      }
      case GETROWRANDOM -> (i, r) -> store.getRow(rows.key(row.next(r)));
      case FILLROWS -> {
        int columns = config.columns();
        Permutation order = new Permutation(rows.size(), config.seed());
        yield (i, r) -> {
          long row = order.apply(i);
          byte[] rowKey = rows.key(row);
          for (int c = 0; c < columns; c++) {
            store.putCell(rowKey, KeySpace.column(c), values.value(row * columns + c));
          }
          return columns;
        };
      }
    };
  }

  /**
   * The prefix length of prefixscanrandom for {@code n} keys: the fewest leading bytes that leave at
   * most 16 keys per prefix on average (keys spread uniformly over their first 8 bytes).
   */
  static int prefixLength(long n) {
    int length = 1;
    double perPrefix = n / 256.0;
    while (perPrefix > 16 && length < KeySpace.KEY_BYTES) {
      perPrefix /= 256;
      length++;
    }
    return length;
  }

  /** The reads beside a writer (readwhilewriting, readwhileoverwriting): Gets of present keys. */
  LoadRunner.Op readsWhileWriting(Store store) {
    return of(Benchmark.READRANDOM, store);
  }

  /** A put of a random present key with a fresh value: what overwrite and the writer of
   * readwhilewriting and readwhileoverwriting do. */
  LoadRunner.Op overwrite(Store store) {
    return (i, r) -> {
      long k = key.next(r);
      store.put(keys.key(k), values.value(k + i + 1));
      return 1;
    };
  }

  /** Keys one call of {@code benchmark} reads or writes, as counted in ops: the batch size for
   * multireadrandom, else 1 (fillrows counts rows). */
  int keysPerCall(Benchmark benchmark) {
    return benchmark == Benchmark.MULTIREADRANDOM ? config.batchSize() : 1;
  }

  /** Operations one write phase runs: keys for a fill, wide rows for fillrows, else --writes. */
  long writeCount(Benchmark benchmark) {
    return switch (benchmark) {
      case FILLROWS -> rows.size();
      case FILLSEQ, FILLRANDOM -> keys.size();
      default -> config.writes();
    };
  }
}
