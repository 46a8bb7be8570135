package dev.strata.engine.version;

import dev.strata.sstable.MetadataPins;

/**
 * What a table pins in the block cache when it opens: with {@link #levelZero} a level-0 table
 * pins its filter chunks and index partitions (RocksDB's {@code
 * pin_l0_filter_and_index_blocks_in_cache}); with {@link #filters} every table pins its filter
 * chunks, for filters sized to stay in the cache's metadata share.
 *
 * <p>Thread-safe: two flags, each set once before or while readers open.
 */
final class MetadataPinning {
  private volatile boolean levelZero;
  private volatile boolean filters;

  /** Level-0 tables pin their filter chunks and index partitions from now on. */
  void levelZero() {
    levelZero = true;
  }

  /** Every table pins its filter chunks from now on. */
  void filters() {
    filters = true;
  }

  /** What a table opening now pins: {@code atLevelZero} when it is a level-0 table. */
  MetadataPins forTable(boolean atLevelZero) {
    if (atLevelZero && levelZero) {
      return MetadataPins.FILTERS_AND_INDEX;
    }
    return filters ? MetadataPins.FILTERS : MetadataPins.NONE;
  }
}
