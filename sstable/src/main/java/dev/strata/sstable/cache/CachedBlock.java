package dev.strata.sstable.cache;

/**
 * A value the {@link BlockCache} holds: a parsed, checksum-verified block, immutable once cached.
 * Table readers create them; the cache only weighs them.
 *
 * <p>Implementations are immutable.
 */
public interface CachedBlock {
  /**
   * What this block costs on the heap: its objects and arrays with their headers and alignment
   * ({@link HeapCost}). The cache charges this plus its own per-entry bookkeeping.
   */
  int sizeBytes();
}
