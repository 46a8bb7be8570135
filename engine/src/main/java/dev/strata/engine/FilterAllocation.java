package dev.strata.engine;

/**
 * How the filter memory budget ({@link FilterOptions#bloomBitsPerKey()}) is spread over the tables
 * of the tree. Each table records the filter it was written with, so changing the allocation never
 * changes how existing tables are read; it applies to tables written from then on.
 *
 * <p>Immutable.
 */
public enum FilterAllocation {
  /** Every new table gets the budget's bits per key, whatever its level (RocksDB's way). */
  UNIFORM,
  /**
   * Each new table's bits per key come from its level and the tree's shape at flush or compaction:
   * the tree's average stays at the budget while the sum of the runs' false-positive rates (what an
   * absent Get pays: one probe per level-0 table and per deeper level) is smallest. Upper levels,
   * small and probed by every Get, get more bits per key; the last level, most of the keys, fewer
   * (Monkey, Dayan et al., SIGMOD 2017).
   */
  BY_LEVEL
}
