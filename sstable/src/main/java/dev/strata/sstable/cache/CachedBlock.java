package dev.strata.sstable.cache;

/**
 * A value the {@link BlockCache} holds: a parsed, checksum-verified block, immutable once cached.
 * Table readers create them; the cache weighs them and, when it keeps data blocks off the heap,
 * asks them for the bytes to keep there ({@link #offHeapBytes}).
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
   * How many bytes of {@link #offHeapBytes} the cache may hold off the heap in place of this block,
   * or -1 (the default) for a block that stays on the heap. A reader of the cache then gets an
   * {@link OffHeapBlock} of those bytes and rebuilds the block from them.
   */
  default int offHeapLength() {
    return -1;
  }

  /** The array whose first {@link #offHeapLength} bytes are the off-heap form; unused by default. */
  default byte[] offHeapBytes() {
    throw new UnsupportedOperationException("no off-heap form");
  }

  /**
   * Whether this block lies over its loading thread's reused buffers (a Get's miss parses its data
   * block into the thread's scratch block, so that a miss allocates no array of the block's size):
   * the loader's caller may use it until its thread's next load or copy, and nobody else may see
   * it. A cache that accepts such blocks ({@link BlockCache#takesBorrowedBlocks}) copies the bytes
   * out (off the heap, or into {@link #owned}) and never keeps, shares or hands out the block itself.
   */
  default boolean borrowed() {
    return false;
  }

  /** This block, or for a {@link #borrowed} one a copy in arrays of its own, which a cache may keep and share. */
  default CachedBlock owned() {
    return this;
  }

  /**
   * {@link #sizeBytes} of {@link #owned}, known without making the copy: a cache weighs a borrowed
   * block by it and copies only once the block has its room, so a block the cache refuses (no room
   * above the pinned and protected metadata) costs no copy.
   */
  default int ownedSizeBytes() {
    return sizeBytes();
  }

  /** Called once when the cache lets go of this block (evicted, refused, or the cache closed). */
  default void evicted() {}
}
