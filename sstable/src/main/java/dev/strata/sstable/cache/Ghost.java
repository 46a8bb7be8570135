package dev.strata.sstable.cache;


/**
 * The keys of data blocks recently evicted from probation, as 64-bit fingerprints: S3-FIFO's ghost
 * queue. A data block loaded again while its ghost remains goes straight to main: it has been used
 * twice within about a cache's worth of misses, which a one-shot scan block never is.
 *
 * <p>Direct-mapped: a fingerprint lives in the slot its low bits choose and a newer one overwrites
 * it, so the set forgets old keys at about the rate it learns new ones (a FIFO's behaviour without a
 * queue), costs 8 bytes a slot, and allocates nothing per eviction. The array is allocated at the
 * first eviction from probation, when the shard is full (its cost is charged to the shard from the
 * start): a cache configured far larger than it ever fills costs nothing here. A collision of two
 * fingerprints can only misplace a block in main, never return a wrong one.
 *
 * <p>Not thread-safe: guarded by the owning shard's lock.
 */
final class Ghost {
  /** Capacity bytes per slot: about one slot per 4 KiB data block the shard can hold. */
  static final int BYTES_PER_SLOT = 4096;

  /** Fewer slots than this and the ghost is left out (a shard of a few blocks). */
  static final int MIN_SLOTS = 16;

  /** The most slots: 512 KiB, enough for a shard of 256 MiB of 4 KiB blocks. */
  static final int MAX_SLOTS = 1 << 16;

  private final int slotCount;
  private final int mask;
  private long[] slots;

  private Ghost(int slotCount) {
    this.slotCount = slotCount;
    this.mask = slotCount - 1;
  }

  /** A ghost sized for a shard of {@code capacity} bytes, or null when the shard is too small. */
  static Ghost forCapacity(long capacity) {
    long wanted = capacity / BYTES_PER_SLOT;
    if (wanted < MIN_SLOTS) {
      return null;
    }
    return new Ghost(Integer.highestOneBit((int) Math.min(wanted, MAX_SLOTS)));
  }

  /** What the ghost costs on the heap: this object and its array. */
  long heapBytes() {
    return HeapCost.object(HeapCost.REFERENCE + 2 * 4) + HeapCost.longArray(slotCount);
  }

  void add(long hash) {
    if (slots == null) {
      slots = new long[slotCount];
    }
    slots[(int) hash & mask] = fingerprint(hash);
  }

  /** Whether {@code hash} was added and not overwritten since; forgets it either way. */
  boolean remove(long hash) {
    if (slots == null) {
      return false;
    }
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
