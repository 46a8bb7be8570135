package dev.strata.sstable.cache;

/**
 * A value the {@link BlockCache} holds: a parsed, checksum-verified block, immutable once cached.
 * Table readers create them; the cache weighs them and, when it keeps data blocks off the heap,
 * asks them for an off-heap copy ({@link #offHeap}).
 *
 * <p>Implementations are immutable, but for the reference count of an {@link OffHeapBlock}.
 */
public interface CachedBlock {
  /**
   * What this block costs: its objects and arrays with their headers and alignment ({@link
   * HeapCost}), and for an {@link OffHeapBlock} its slots. The cache charges this plus its own
   * per-entry bookkeeping.
   */
  int sizeBytes();

  /**
   * What {@link #offHeap} would cost ({@link #sizeBytes} of the copy), or -1 for a block that has no
   * off-heap form (the default): the cache makes that much room before it asks for the copy.
   */
  default int offHeapSizeBytes() {
    return -1;
  }

  /**
   * A copy of this block whose bytes live in {@code arena}, holding the cache's reference; or null
   * when the block has no off-heap form (the default) or the arena has no room left (the cache then
   * keeps this block on the heap).
   */
  default OffHeapBlock offHeap(SlabArena arena) {
    return null;
  }

  /** Called once when the cache lets go of this block (evicted, refused, or the cache closed). */
  default void evicted() {}
}
