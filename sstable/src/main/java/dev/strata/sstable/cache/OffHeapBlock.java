package dev.strata.sstable.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A cached block whose bytes live in a {@link SlabArena}, off the heap: what {@link BlockCache#getIfPresent}
 * and {@link BlockCache#getOrLoad} return for a data block the cache holds there. The block is the
 * cache entry itself (its {@code Node}, the only subclass): on the heap it costs the entry's fields,
 * a first slot and a length, and the links of its slots in the arena, nothing per block besides.
 * A reader copies the bytes out and rebuilds what it needs from them (a data block's restart points
 * are in its payload; see {@code OffHeapCopy} in the block package).
 *
 * <p>Reference counted, so that a slot is reused only when no reader still copies from it: the
 * cache holds one reference from the moment it stores the bytes until it evicts the block; a reader
 * takes one with {@link #retain} before it reads the bytes and drops it with {@link #release} when
 * done. The last release gives the slots back to the arena at once. {@link #retain} fails once the
 * count has reached 0 (the cache evicted the block and no reader held it): the reader then treats
 * the lookup as a miss; the cache removes a block from its table before it drops its reference,
 * so a retry finds a newer entry or loads one.
 *
 * <p>Thread-safe.
 */
public abstract sealed class OffHeapBlock implements CachedBlock permits Node {
  private static final VarHandle REFS;

  static {
    try {
      REFS = MethodHandles.lookup().findVarHandle(OffHeapBlock.class, "refs", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Set by {@link #store}, before the block is published; null for an entry kept on the heap. */
  private SlabArena arena;

  private int firstSlot;

  private int length;

  /** References held: the cache's (until it evicts the block) and readers'. Accessed through REFS. */
  @SuppressWarnings("unused")
  private volatile int refs;

  OffHeapBlock() {}

  /**
   * Stores {@code src[0, length)} in {@code arena}, holding the cache's reference; false when the
   * arena had no room (nothing is then held). Called once, before the block is published.
   */
  final boolean store(SlabArena arena, byte[] src, int length) {
    int first = arena.store(src, 0, length);
    if (first < 0) {
      return false;
    }
    this.arena = arena;
    this.firstSlot = first;
    this.length = length;
    REFS.set(this, 1);
    return true;
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
      arena.free(firstSlot, length);
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
    arena.read(firstSlot, length, dst, offset);
  }

  /**
   * The byte at {@code index}, read in place; the caller holds a reference. A batch reads the first
   * byte of each of its blocks before it copies any, so that their first cache and TLB misses wait
   * together ({@code TableReader.getAll}); {@code OffHeapHitBenchmark} measures a search in place
   * through it against the copy.
   */
  public final byte get(int index) {
    assert held() : "read without a reference";
    return arena.get(firstSlot, index);
  }

  /** What the block costs off the heap: its slots. Its heap fields are the entry's, charged as such. */
  @Override
  public final int sizeBytes() {
    return (int) SlabArena.slotBytes(length);
  }

  /** The cache's reference goes: the block left the cache. */
  @Override
  public final void evicted() {
    release();
  }
}
