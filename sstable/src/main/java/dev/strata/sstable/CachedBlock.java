package dev.strata.sstable;

/**
 * A value the {@link BlockCache} holds: a parsed, checksum-verified block, immutable once cached.
 * Table readers create them; the cache only weighs them.
 *
 * <p>Implementations are immutable.
 */
public interface CachedBlock {
  /** The bytes this block holds in memory, the weight the cache charges for it. */
  int sizeBytes();
}
