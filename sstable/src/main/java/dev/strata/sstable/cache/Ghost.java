package dev.strata.sstable.cache;

import dev.strata.sstable.HeapCost;

/**
 * The keys of data blocks recently evicted from probation, as 64-bit fingerprints: S3-FIFO's ghost
 * queue. A data block loaded again while its ghost remains goes straight to main: it has been used
 * twice within about a cache's worth of misses, which a one-shot scan block never is.
 *
 * <p>Direct-mapped: a fingerprint lives in the slot its low bits choose and a newer one overwrites
 * it, so the set forgets old keys at about the rate it learns new ones (a FIFO's behaviour without a
 * queue), costs 8 bytes a slot allocated once, and allocates nothing per eviction. A collision of
 * two fingerprints can only misplace a block in main, never return a wrong one.
 *
 * <p>Not thread-safe: guarded by the owning shard's lock.
 */
final class Ghost {
  /** Capacity bytes per slot: about one slot per 4 KiB data block the shard can hold. */
  static final int BYTES_PER_SLOT = 4096;

  /** Fewer slots than this and the ghost is left out (a shard of a few blocks). */
  static final int MIN_SLOTS = 16;

  private final long[] slots;
  private final int mask;

  private Ghost(int slotCount) {
    this.slots = new long[slotCount];
    this.mask = slotCount - 1;
  }

  /** A ghost sized for a shard of {@code capacity} bytes, or null when the shard is too small. */
  static Ghost forCapacity(long capacity) {
    long wanted = capacity / BYTES_PER_SLOT;
    if (wanted < MIN_SLOTS) {
      return null;
    }
    return new Ghost(Integer.highestOneBit((int) Math.min(wanted, 1 << 30)));
  }

  /** What the ghost costs on the heap: this object and its array. */
  long heapBytes() {
    return HeapCost.object(HeapCost.REFERENCE + 4) + HeapCost.longArray(slots.length);
  }

  void add(long hash) {
    slots[(int) hash & mask] = fingerprint(hash);
  }

  /** Whether {@code hash} was added and not overwritten since; forgets it either way. */
  boolean remove(long hash) {
    int i = (int) hash & mask;
    if (slots[i] == fingerprint(hash)) {
      slots[i] = 0;
      return true;
    }
    return false;
  }

  private static long fingerprint(long hash) {
    return hash == 0 ? 1 : hash; // 0 marks an empty slot
  }
}
