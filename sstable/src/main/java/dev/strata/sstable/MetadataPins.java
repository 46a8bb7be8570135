package dev.strata.sstable;

/**
 * Which of a table's metadata blocks its open loads into the block cache pinned, to stay there
 * (charged to the cache, never evicted) until the table closes.
 *
 * <p>Immutable.
 */
public enum MetadataPins {
  /** Nothing pinned: filter chunks and index partitions load on the Gets that need them. */
  NONE,
  /**
   * Every filter chunk (and the row-tombstone filter): an absent Get whose filter says no reads
   * nothing from the file, however many data blocks pass through the cache.
   */
  FILTERS,
  /** Every filter chunk and index partition (RocksDB's {@code pin_l0_filter_and_index_blocks_in_cache}). */
  FILTERS_AND_INDEX;

  /** {@link #FILTERS_AND_INDEX} when {@code pinMetadata}, else {@link #NONE}. */
  public static MetadataPins of(boolean pinMetadata) {
    return pinMetadata ? FILTERS_AND_INDEX : NONE;
  }
}
