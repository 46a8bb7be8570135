package dev.strata.sstable.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A block whose bytes the cache holds in a {@link SlabArena}, off the heap: on the heap only this
 * object and its slot numbers. Subclasses add what the table code needs to use the bytes (a data
 * block's restart points); see {@link CachedBlock#offHeap}.
 *
 * <p>Reference counted, so that a slot is reused only when no reader still copies from it: the
 * cache holds one reference from the moment the block is made until it evicts it; a reader takes one
 * with {@link #retain} before it reads the bytes and drops it with {@link #release} when done. The
 * last release gives the slots back to the arena at once. {@link #retain} fails once the count has
 * reached 0 (the cache evicted the block and no reader held it): the reader then treats the lookup as
 * a miss; the cache removes a block from its map before it drops its reference, so a retry finds a
 * newer entry or loads one.
 *
 * <p>Thread-safe.
 */
public abstract class OffHeapBlock implements CachedBlock {
  private static final VarHandle REFS;

  static {
    try {
      REFS = MethodHandles.lookup().findVarHandle(OffHeapBlock.class, "refs", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final SlabArena arena;
  private final int[] slots;
  private final int length;

  /** References held: the cache's (until it evicts the block) and readers'. Accessed through REFS. */
  @SuppressWarnings("unused")
  private volatile int refs = 1;

  /**
   * Stores {@code src[offset, offset + length)} in {@code arena}; {@link #stored} is false when the
   * arena had no room (nothing is then held).
   */
  protected OffHeapBlock(SlabArena arena, byte[] src, int offset, int length) {
    this.arena = arena;
    this.length = length;
    this.slots = arena.store(src, offset, length);
    if (slots == null) {
      REFS.setVolatile(this, 0);
    }
  }

  /** False when the arena had no room for the bytes: the block must not be used. */
  public final boolean stored() {
    return slots != null;
  }

  /** The stored bytes' length. */
  public final int length() {
    return length;
  }

  /** Takes a reference, or returns false when the block was already released for good. */
  public final boolean retain() {
    int r = (int) REFS.getVolatile(this);
    while (r > 0) {
      int seen = (int) REFS.compareAndExchange(this, r, r + 1);
      if (seen == r) {
        return true;
      }
      r = seen;
    }
    return false;
  }

  /** Drops a reference; the last gives the slots back to the arena. */
  public final void release() {
    int r = (int) REFS.getAndAdd(this, -1);
    if (r == 1) {
      arena.free(slots);
    } else if (r < 1) {
      throw new IllegalStateException("released more often than retained");
    }
  }

  /** Whether a reference is still held (for tests and assertions). */
  public final boolean held() {
    return (int) REFS.getVolatile(this) > 0;
  }

  /** Copies the bytes into {@code dst} from {@code offset}; the caller holds a reference. */
  public final void copyTo(byte[] dst, int offset) {
    assert held() : "read without a reference";
    arena.read(slots, length, dst, offset);
  }

  /**
   * The byte at {@code index}, read in place; the caller holds a reference. What a search in place
   * would read through (no reader does yet: {@code OffHeapHitBenchmark} measures it against the copy).
   */
  public final byte get(int index) {
    assert held() : "read without a reference";
    return arena.get(slots, index);
  }

  /** The cache's reference goes: the block left the cache. */
  @Override
  public final void evicted() {
    release();
  }

  /**
   * What a block of {@code length} stored bytes costs: its slots, this object's fields (two
   * references, two ints) and its slot numbers, plus {@code subclassFieldBytes}.
   */
  public static int sizeBytes(int length, int subclassFieldBytes) {
    int slotCount = SlabArena.slotsFor(length);
    return (int) ((long) slotCount * SlabArena.SLOT_BYTES
        + HeapCost.object(2 * HeapCost.REFERENCE + 4 + 4 + subclassFieldBytes)
        + HeapCost.align(HeapCost.ARRAY_HEADER + 4L * slotCount));
  }
}
