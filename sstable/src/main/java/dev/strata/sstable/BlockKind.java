package dev.strata.sstable;

/**
 * The three kinds of block the {@link BlockCache} holds and counts apart. In memory only, never
 * persisted. {@link #INDEX} and {@link #FILTER} blocks share the cache's protected segment.
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

  /** True for the kinds that get the cache's protected share. */
  public boolean isProtected() {
    return this != DATA;
  }
}
