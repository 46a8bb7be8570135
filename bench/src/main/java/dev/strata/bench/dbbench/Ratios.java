package dev.strata.bench.dbbench;

import java.util.List;

/**
 * Adds to every Strata row its throughput ratio to each RocksDB configuration measured at the same
 * point (benchmark, threads, cache state): above 1, Strata was faster.
 *
 * <p>Immutable (static methods only).
 */
final class Ratios {
  private Ratios() {}

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
        Double mine = s.number(Column.OPS_PER_SEC);
        Double theirs = o.number(Column.OPS_PER_SEC);
        if (c != null && mine != null && theirs != null && theirs > 0) {
          s.set(c, mine / theirs);
        }
      }
    }
  }
}
