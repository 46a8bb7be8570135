package dev.strata.sstable.cache;

/**
 * The three kinds of block the {@link BlockCache} holds and counts apart. In memory only, never
 * persisted. {@link #INDEX} and {@link #FILTER} blocks are metadata: the cache keeps them above a
 * floor of its capacity against data blocks.
 *
 * <p>Immutable.
 */
public enum BlockKind {
  /** Data blocks: the cells. */
  DATA,
  /** Index blocks: where each data block lies. */
  INDEX,
  /** Filter chunks: the partitioned Bloom filter. */
  FILTER;

  /** True for metadata, the kinds the cache protects up to its metadata share. */
  public boolean isProtected() {
    return this != DATA;
  }
}
