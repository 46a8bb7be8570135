package dev.strata.sstable.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The readers copying from one {@link SlabArena}'s slabs without a reference on the block they copy
 * ({@link OffHeapBlock#tryCopyTo}), counted so that the arena, once closed, frees no slab under them.
 *
 * <p>Why. An optimistic copy validates its bytes after reading them, which is enough against a
 * block's slots being reused (the bytes are then discarded), but not against its slab's direct
 * memory being freed: that read would fault. Slabs are freed only once their arena is closed. So a
 * reader enters this count before it reads the arena's closed flag and its slabs, and leaves it
 * once done; the arena sets its flag, then frees slabs only when {@link #idle}. Both sides write
 * before they read (the reader its stripe, then the flag; the arena its flag, then the stripes), all
 * volatile, so in their single total order either the reader sees the arena closed and reads no
 * slab, or the arena sees the reader and frees nothing; the reader, leaving after that, sees the
 * flag and has the arena try again ({@link SlabArena#exitReads}), so the last one out frees.
 *
 * <p>Striped by thread over counts a cache line apart, so readers on different cores write
 * different lines: the point is a hit that writes no line another core reads, unlike the reference
 * count of a hot block. The engine's read views and table readers use the same scheme ({@code
 * engine.version.StripedRefCount}), which this module cannot reach: it depends on nothing above it.
 * As there, a reader may leave on another thread than it entered on: the stripes' sum is what counts.
 *
 * <p>Thread-safe.
 */
final class SlabReaders {
  /** Stripes: a power of two, enough that a few reader threads each find their own. */
  private static final int STRIPES = 8;

  /** Longs from one stripe to the next: one 64-byte cache line. */
  private static final int SPACING = 8;

  /**
   * What one costs on the heap, which its arena's shard charges: the array of the stripes and a line
   * of padding at each end (so that no stripe shares a line with the array's header), and the object.
   */
  static final int HEAP_BYTES = HeapCost.ARRAY_HEADER + 8 * (STRIPES + 2) * SPACING + 16;

  private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] counts = new long[(STRIPES + 2) * SPACING];

  /** Counts this thread in; the caller reads the arena's flag after. */
  void enter() {
    COUNT.getAndAdd(counts, stripe(), 1L);
  }

  /** Counts this thread out; the caller reads the arena's flag after. */
  void exit() {
    COUNT.getAndAdd(counts, stripe(), -1L);
  }

  /** Whether no reader is in; read after the arena's flag is set (see the class comment). */
  boolean idle() {
    long sum = 0;
    for (int s = 0; s < STRIPES; s++) {
      sum += (long) COUNT.getVolatile(counts, (s + 1) * SPACING);
    }
    return sum == 0;
  }

  /** This thread's stripe's index: its id's top bits after a Fibonacci hash, so consecutive ids spread. */
  private static int stripe() {
    long h = Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
    return ((int) (h >>> (64 - Integer.numberOfTrailingZeros(STRIPES))) + 1) * SPACING;
  }
}
