package dev.strata.sstable.cache;

import dev.strata.sstable.block.BlockBytes;
import java.lang.invoke.VarHandle;

/**
 * A view of a data block whose bytes the cache holds off the heap: what {@link BlockCache#getIfPresent}
 * and {@link BlockCache#getOrLoad} return for such a block. The cache keeps no object per block (its
 * entries are numbers in primitive arrays, {@code DataEntries}); a view names an entry and the
 * generation of the block it held when the view was aimed, and a reader may reuse one view for
 * block after block ({@link BlockCache#getIfPresent(long, long, BlockKind, OffHeapBlock)}), so a
 * hit allocates nothing. A reader copies the bytes out and rebuilds what it needs from them (a data
 * block's restart points are in its payload; see {@code OffHeapCopy} in the block package).
 *
 * <p>Reference counted, so that a slot is reused only when no reader holding the block still reads
 * it: the cache holds one reference from the moment it stores the bytes until it drops the block; a
 * reader that reads the bytes in place, or whose optimistic copy failed (below), takes one with
 * {@link #retain} before it reads them and drops it with {@link #release} when done. The last
 * release gives the slots back to the arena at once. {@link #retain} fails once the block is gone
 * (the cache dropped it and no reader held it, even if its entry now holds another block): the
 * reader then treats the lookup as a miss; the cache removes a block from its table before it drops
 * its reference, so a retry finds a newer entry or loads one.
 *
 * <p>Optimistic copies. A reader that only copies the bytes out need not take a reference: {@link
 * #tryCopyTo} copies them, then checks that the block was never freed meanwhile, as {@link
 * java.util.concurrent.locks.StampedLock}'s {@code tryOptimisticRead}/{@code validate} do. A hot
 * block's reference count is one word that every core's retain and release write, so it bounces
 * between the cores' caches; the optimistic copy writes nothing of the block's and reads its state
 * word twice, which the cores share read-only. Why it is sound:
 * <ul>
 *   <li>The invariants (DataEntries). An entry's state word is (generation, refs). Within one
 *       generation refs never rises from 0 (retain's compare-and-set requires refs &gt; 0), and a
 *       store into a reused entry sets the next generation; generations only rise. The slots of a
 *       block are given back to the arena only by the release that takes refs to 0, and reused only
 *       after that (taken from the arena under its monitor, then written). So if the state word
 *       reads (g, refs &gt; 0) at some moment, no release of generation g's last reference
 *       preceded that read in the word's order, and neither did any write into its slots by a
 *       later block.
 *   <li>The reads. {@link #aim} read the state with acquire semantics, (g, refs &gt; 0), and
 *       the slot and length after it: they are generation g's (or the view fails, below). The
 *       copy reads the slots and their links with plain reads; then {@code
 *       VarHandle.acquireFence()} keeps those reads before the second read of the state, so if
 *       any of them saw a write into a slot reused by a later block, the state read sees the
 *       release that freed it, or something later: a changed generation or refs 0. That write
 *       followed the release through a chain of atomic and monitor operations (the releasing
 *       thread's atomic decrement, then the arena's monitor, which the storing thread takes
 *       before it writes), the ordering StampedLock relies on for its writers' plain writes after
 *       the compare-and-set that takes the lock. So (g, refs &gt; 0) again means every byte copied
 *       is generation g's: the copy is the block's.
 *   <li>Garbage. A copy that fails validation may have followed any link: a freed slot's link
 *       points into the free list or another block. {@link SlabArena#readUnreferenced} checks
 *       each slot against the slabs and ends after the slots the length needs, so it returns
 *       (false or garbage, never an exception) and the bytes are discarded. A view aimed while
 *       its entry was being stored names generation g, whose state no longer holds: it fails too.
 *   <li>Freed memory. Reading a slab whose direct memory was freed would fault, not return
 *       garbage; slabs are freed only once their arena is closed, and {@link SlabReaders} keeps
 *       a closing arena from freeing one while an optimistic reader is in.
 *   <li>ABA. A generation is 32 bits: a copy would have to span 2^32 reuses of its entry.
 * </ul>
 * A failed copy means the block was dropped or replaced: the caller falls back to {@link #retain}
 * (which fails as well when the block is gone, a miss) or treats it as a miss.
 *
 * <p>Optimistic searches in place. A Get's point search reads a block whose slots are one run
 * where it lies ({@link #beginInPlaceRead}, {@link #endInPlaceRead}; {@code InPlaceBlock} in the
 * block package), validated as a copy is, by the same argument: its reads are the copy's reads,
 * only fewer, and none of its results is used before the validation after its last read. Readers
 * that keep reading the bytes in place across calls ({@link #get}) still take a reference.
 *
 * <p>Not thread-safe: a view belongs to the reader that aims it; the block it names is shared safely.
 */
public final class OffHeapBlock implements CachedBlock {
  private DataEntries entries;
  private int entry;
  private int generation;
  private int firstSlot;
  private int length;
  private boolean metadata;

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
    this.metadata = entries.metadata(i);
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

  /**
   * Whether the block is an index partition (metadata), not a data block: the cache keys blocks by
   * offset alone, so a reader of one kind that finds the other was led there by a damaged handle.
   */
  public boolean metadata() {
    return metadata;
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

  /**
   * Copies the bytes into {@code dst} from {@code offset} without a reference: true when they are
   * this block's; false when it was dropped, its entry reused or the cache closed since the view was
   * aimed (what {@code dst} then holds is meaningless). Throws nothing on a block freed under it.
   */
  public boolean tryCopyTo(byte[] dst, int offset) {
    SlabArena arena = entries.arena();
    arena.enterReads();
    try {
      return copyUnreferenced(dst, offset);
    } finally {
      arena.exitReads();
    }
  }

  /**
   * Opens a section for {@link #copyUnreferenced} and {@link #peek} of this view, which must stay
   * aimed at its block until {@link #endUnreferencedRead}: while it is open, closing the cache frees
   * no slab that the view's block may lie in. A batch opens one for each of its blocks, then reads
   * the first byte of each, then copies them.
   */
  public void beginUnreferencedRead() {
    entries.arena().enterReads();
  }

  /** Closes a section {@link #beginUnreferencedRead} opened, on the same view. */
  public void endUnreferencedRead() {
    entries.arena().exitReads();
  }

  /** {@link #tryCopyTo} inside a section the caller opened ({@link #beginUnreferencedRead}). */
  public boolean copyUnreferenced(byte[] dst, int offset) {
    return copyUnvalidated(dst, offset) && validate();
  }

  /**
   * The byte at {@code index}, read without a reference inside a section ({@link
   * #beginUnreferencedRead}): any byte, or 0, when the block went meanwhile. A batch reads the first
   * byte of each of its blocks before it copies any, so that their first cache and TLB misses wait
   * together.
   */
  public byte peek(int index) {
    return entries.arena().peekUnreferenced(firstSlot, index);
  }

  /** Aims this view at the block {@code other} names, as {@code other} was aimed. */
  public void aimAs(OffHeapBlock other) {
    this.entries = other.entries;
    this.entry = other.entry;
    this.generation = other.generation;
    this.firstSlot = other.firstSlot;
    this.length = other.length;
    this.metadata = other.metadata;
  }

  /**
   * Opens a section for a search of the bytes where they lie, without a reference, and aims {@code
   * into} at them: true when they are one run of slots (a block's slots need not be adjacent), the
   * section then open until {@link #endInPlaceRead}; false, with no section open, otherwise (the
   * caller copies). Sound for the reasons {@link #tryCopyTo} is: the search's reads are validated by
   * {@link #endInPlaceRead}, and while the section is open no slab is freed.
   */
  public boolean beginInPlaceRead(BlockBytes.Direct into) {
    SlabArena arena = entries.arena();
    arena.enterReads();
    if (arena.aimRun(firstSlot, length, into)) {
      return true;
    }
    arena.exitReads();
    return false;
  }

  /**
   * Ends a section {@link #beginInPlaceRead} opened: whether the block stayed unfreed through every
   * read of it since, that is, whether they read this block's bytes.
   */
  public boolean endInPlaceRead() {
    boolean valid = validate();
    entries.arena().exitReads();
    return valid;
  }

  /** The optimistic copy's first step: the bytes, or false when the chain leads out of the slabs. */
  boolean copyUnvalidated(byte[] dst, int offset) {
    return entries.arena().readUnreferenced(firstSlot, length, dst, offset);
  }

  /** The optimistic copy's second step: whether the block stayed unfreed through the reads before. */
  boolean validate() {
    VarHandle.acquireFence(); // the copy's reads stay before the state's
    return entries.held(entry, generation);
  }

  /** Copies the bytes into {@code dst} from {@code offset}; the caller holds a reference. */
  public void copyTo(byte[] dst, int offset) {
    assert held() : "read without a reference";
    entries.arena().read(firstSlot, length, dst, offset);
  }

  /**
   * The byte at {@code index}, read in place; the caller holds a reference. {@code
   * OffHeapHitBenchmark} measures a search in place through it against the copy.
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
