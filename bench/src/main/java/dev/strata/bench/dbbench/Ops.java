package dev.strata.bench.dbbench;

import dev.strata.bench.common.CompressibleValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The operation of each benchmark over the run's keys and values: which key an operation touches
 * and what it does with it. Present keys are drawn uniformly from the filled ones; fills take them
 * in index order (fillseq) or in the order of a seeded {@link Permutation} (fillrandom, fillrows).
 *
 * <p>Immutable.
 */
final class Ops {
  private final RunConfig config;
  private final KeySpace keys;
  private final KeySpace rows;
  private final CompressibleValues values;

  Ops(RunConfig config) {
    this.config = config;
    this.keys = new KeySpace(config.num(), config.seed());
    this.rows = new KeySpace(config.wideRows(), config.seed() ^ 0x726f7773L);
    this.values = new CompressibleValues(config.valueBytes(), config.compressionRatio(),
        config.seed());
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
      case OVERWRITE, READWHILEWRITING -> overwrite(store);
      case READRANDOM -> (i, r) -> store.get(keys.key(r.nextLong(n))) ? 1 : 0;
      case READMISSING -> (i, r) -> store.get(keys.missingKey(r.nextLong(n))) ? 1 : 0;
      case MULTIREADRANDOM -> (i, r) -> {
        List<byte[]> batch = new ArrayList<>(config.batchSize());
        for (int k = 0; k < config.batchSize(); k++) {
          batch.add(keys.key(r.nextLong(n)));
        }
        return store.multiGet(batch);
      };
      case SEEKRANDOM -> (i, r) -> store.seek(keys.key(r.nextLong(n)), config.seekCells());
      case SEEKRANDOMREVERSE ->
          (i, r) -> store.seekReverse(keys.key(r.nextLong(n)), config.seekCells());
      case PREFIXSCANRANDOM -> {
        int length = prefixLength(n);
        yield (i, r) -> store.scanPrefix(Arrays.copyOf(keys.key(r.nextLong(n)), length));
      }
      case GETROWRANDOM -> (i, r) -> store.getRow(rows.key(r.nextLong(rows.size())));
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

  /** The reads readwhilewriting measures: random Gets of present keys. */
  LoadRunner.Op readsWhileWriting(Store store) {
    return of(Benchmark.READRANDOM, store);
  }

  /** A put of a random present key with a fresh value: what overwrite and the writer of
   * readwhilewriting do. */
  LoadRunner.Op overwrite(Store store) {
    long n = keys.size();
    return (i, r) -> {
      long k = r.nextLong(n);
      store.put(keys.key(k), values.value(k + i + 1));
      return 1;
    };
  }

  /** Keys one call of {@code benchmark} reads or writes, as counted in ops: the batch size for
   * multireadrandom, else 1 (fillrows counts rows). */
  int keysPerCall(Benchmark benchmark) {
    return benchmark == Benchmark.MULTIREADRANDOM ? config.batchSize() : 1;
  }

  /** Operations one fill or overwrite phase runs: keys, or wide rows for fillrows. */
  long writeCount(Benchmark benchmark) {
    return benchmark == Benchmark.FILLROWS ? rows.size() : keys.size();
  }
}
