package dev.strata.sstable.cache;

/**
 * A view of a data block whose bytes the cache holds off the heap: what {@link BlockCache#getIfPresent}
 * and {@link BlockCache#getOrLoad} return for such a block. The cache keeps no object per block (its
 * entries are numbers in primitive arrays, {@code DataEntries}); a view names an entry and the
 * generation of the block it held when the view was aimed, and a reader may reuse one view for
 * block after block ({@link BlockCache#getIfPresent(long, long, BlockKind, OffHeapBlock)}), so a
 * hit allocates nothing. A reader copies the bytes out and rebuilds what it needs from them (a data
 * block's restart points are in its payload; see {@code OffHeapCopy} in the block package).
 *
 * <p>Reference counted, so that a slot is reused only when no reader still copies from it: the
 * cache holds one reference from the moment it stores the bytes until it drops the block; a reader
 * takes one with {@link #retain} before it reads the bytes and drops it with {@link #release} when
 * done. The last release gives the slots back to the arena at once. {@link #retain} fails once the
 * block is gone (the cache dropped it and no reader held it, even if its entry now holds another
 * block): the reader then treats the lookup as a miss; the cache removes a block from its table
 * before it drops its reference, so a retry finds a newer entry or loads one.
 *
 * <p>Not thread-safe: a view belongs to the reader that aims it; the block it names is shared safely.
 */
public final class OffHeapBlock implements CachedBlock {
  private DataEntries entries;
  private int entry;
  private int generation;
  private int firstSlot;
  private int length;

  /** A batch's node chain head between its lookup passes; see {@link #stash}. */
  private Node stashedNode;

  /** A view aimed at no block, for a reader to pass to the cache's lookups and reuse. */
  public OffHeapBlock() {}

  /**
   * Aims this view at entry {@code i} of {@code entries}, found under key (fileNumber, offset), as
   * it is now; false (the view unchanged) when the entry holds no block or holds another key's. The
   * key, slots and length are read after the state, so a view aimed while the entry was reused
   * names the old generation, which its {@link #retain} then refuses; and the key is compared after
   * the state, so a view never names the block of another key that reused the entry after the
   * lookup found it.
   */
  boolean aim(DataEntries entries, int i, long fileNumber, long offset) {
    long state = entries.state(i);
    if (DataEntries.refs(state) <= 0 || entries.offset(i) != offset || entries.fileNumber(i) != fileNumber) {
      return false;
    }
    this.entries = entries;
    this.entry = i;
    this.generation = DataEntries.generation(state);
    this.firstSlot = entries.firstSlot(i);
    this.length = entries.length(i);
    return true;
  }

  /**
   * The heads of a key's chains, entry {@code i} and node {@code node}, kept by a batch's lookup
   * between its passes ({@code ClockBlockCache.getAllIfPresent}); a later aim replaces them.
   */
  void stash(int i, Node node) {
    this.entry = i;
    this.stashedNode = node;
  }

  int stashed() {
    return entry;
  }

  Node stashedNode() {
    return stashedNode;
  }

  void dropStashedNode() {
    stashedNode = null;
  }

  /** Records a hit on the block this view names. */
  void touch() {
    entries.touch(entry);
  }

  /** The stored bytes' length. */
  public int length() {
    return length;
  }

  /** Takes a reference, or returns false when the block was already released for good. */
  public boolean retain() {
    return entries.retain(entry, generation);
  }

  /** Drops a reference taken by {@link #retain}; the last gives the slots back to the arena. */
  public void release() {
    entries.release(entry);
  }

  /** Whether a reference on the block is still held (for tests and assertions). */
  public boolean held() {
    return entries.held(entry, generation);
  }

  /** Copies the bytes into {@code dst} from {@code offset}; the caller holds a reference. */
  public void copyTo(byte[] dst, int offset) {
    assert held() : "read without a reference";
    entries.arena().read(firstSlot, length, dst, offset);
  }

  /**
   * The byte at {@code index}, read in place; the caller holds a reference. A batch reads the first
   * byte of each of its blocks before it copies any, so that their first cache and TLB misses wait
   * together ({@code TableReader.getAll}); {@code OffHeapHitBenchmark} measures a search in place
   * through it against the copy.
   */
  public byte get(int index) {
    assert held() : "read without a reference";
    return entries.arena().get(firstSlot, index);
  }

  /** What the block costs off the heap: its slots. Its entry's fields are charged as such. */
  @Override
  public int sizeBytes() {
    return (int) SlabArena.slotBytes(length);
  }
}
