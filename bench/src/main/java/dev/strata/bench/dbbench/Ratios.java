package dev.strata.bench.dbbench;

import java.util.List;

/**
 * Adds to every Strata row its throughput ratio to each RocksDB configuration measured at the same
 * point (step, benchmark, threads, cache state), and its readers' where a writer had readers
 * beside it: above 1, Strata was faster.
 *
 * <p>Immutable (static methods only).
 */
final class Ratios {
  private Ratios() {}

  /** Sets {@code ratio} of {@code strata} to its {@code column} over {@code rocksdb}'s, if both. */
  private static void ratio(Result strata, Result rocksdb, Column column, Column ratio) {
    Double mine = strata.number(column);
    Double theirs = rocksdb.number(column);
    if (mine != null && theirs != null && theirs > 0) {
      strata.set(ratio, mine / theirs);
    }
  }

  /** Sets the ratio columns of the Strata rows of {@code rows}. */
  static void add(List<Result> rows) {
    for (Result s : rows) {
      if (s.engine() != EngineKind.STRATA) {
        continue;
      }
      for (Result o : rows) {
        if (!o.samePoint(s)) {
          continue;
        }
        Column c = switch (o.engine()) {
          case ROCKSDB_LRU -> Column.RATIO_TO_ROCKSDB_LRU;
          case ROCKSDB_HCC -> Column.RATIO_TO_ROCKSDB_HCC;
          case STRATA -> null;
        };
        if (c != null) {
          ratio(s, o, Column.OPS_PER_SEC, c);
          ratio(s, o, Column.READER_OPS_PER_SEC, Column.READER_RATIO_TO_ROCKSDB);
        }
      }
    }
  }
}
