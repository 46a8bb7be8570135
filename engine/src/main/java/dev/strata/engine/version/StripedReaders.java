package dev.strata.engine.version;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts the short reads (Gets) inside an object on per-thread stripes, and lets its owner close it
 * to new reads and learn when none is left inside. A Get entering and leaving a shared count writes
 * one cache line that every reader thread writes too, so readers on different cores serialise on
 * it; here a thread writes a stripe of its own, and only closing, which is rare, reads them all.
 *
 * <p>Why closing never misses a read: {@link #tryEnter} increments its stripe and then reads {@code
 * closed}; {@link #close} writes {@code closed} and then {@link #idle} reads the stripes. All are
 * volatile accesses, so in their single total order either the reader sees {@code closed} (and
 * leaves again without reading anything) or the scan sees its increment. Every increment that
 * counts therefore came before the scan and is seen by it; a decrement the scan misses only makes
 * the sum larger. So a sum of zero after {@link #close} means no read is inside, even though the
 * stripes are read one at a time and a read may leave on another thread's stripe. A close that
 * finds reads inside may be undone ({@link #reopen}); reads refused meanwhile retry elsewhere.
 *
 * <p>Thread-safe. Who acts on an idle, closed object, and only once, is the owner's business.
 */
final class StripedReaders {
  /**
   * Stripes: a power of two, enough that a few reader threads each find their own. Every open table
   * reader holds one set, so it is kept small: 8 stripes of a 64-byte line each, plus a line of
   * padding at each end (see {@link #slot}), 640 bytes.
   */
  private static final int STRIPES = 8;
  /** Longs from one stripe to the next: one 64-byte cache line each. */
  private static final int SPACING = 8;

  /** Volatile access to {@link #counts}' elements, as an AtomicLongArray gives, one load closer. */
  private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

  /**
   * The stripes' counts, read and written only through {@link #COUNT}. A plain array rather than
   * an AtomicLongArray: a Get enters one of these per table it consults, and the wrapper was one
   * more dependent load (often a CPU cache miss) before the stripe.
   */
  private final long[] counts = new long[arrayLength(STRIPES)];
  private volatile boolean closed;

  /**
   * Enters a read unless closed; a true return must be matched by one {@link #leave}. A false one
   * counts as a read that entered and left at once: a scan running meanwhile may have seen it
   * inside, so the caller must do what it does after a {@link #leave} that reports the close.
   */
  boolean tryEnter() {
    int s = stripe();
    COUNT.getAndAdd(counts, s, 1L);
    if (closed) {
      COUNT.getAndAdd(counts, s, -1L);
      return false;
    }
    return true;
  }

  /** Leaves a read entered before; true when closed now (the caller may check {@link #idle}). */
  boolean leave() {
    COUNT.getAndAdd(counts, stripe(), -1L);
    return closed;
  }

  /** Refuses new reads from now on. */
  void close() {
    closed = true;
  }

  /** Admits reads again after a {@link #close} that found some inside. */
  void reopen() {
    closed = false;
  }

  boolean isClosed() {
    return closed;
  }

  /** True when no read is inside; meaningful only after {@link #close}. */
  boolean idle() {
    long sum = 0;
    for (int i = 0; i < STRIPES; i++) {
      sum += (long) COUNT.getVolatile(counts, slot(i));
    }
    if (sum < 0) {
      throw new IllegalStateException("more reads left than entered: " + sum);
    }
    return sum == 0;
  }

  /** This thread's stripe's index in {@link #counts}. */
  private static int stripe() {
    return slot(stripeOfThisThread(STRIPES));
  }

  /**
   * The index of stripe {@code s} in an array of {@link #arrayLength} longs: one line of padding
   * before the first. Element 0 shares a cache line with the array's header (its length, which every
   * access reads for the bounds check) and with whatever was allocated just before it (here the
   * owner's fields, {@code closed} among them, which every Get reads); a stripe there made each
   * Get of one thread invalidate a line every other reader thread reads. The first stripe now
   * starts 64 bytes past element 0, so no line holding a stripe holds the header.
   */
  static int slot(int s) {
    return (s + 1) * SPACING;
  }

  /** Longs in an array of {@code stripes} stripes: a line of padding at each end (see {@link #slot}). */
  static int arrayLength(int stripes) {
    return (stripes + 2) * SPACING;
  }

  /**
   * This thread's stripe of {@code stripes} (a power of two): its id's top bits after a Fibonacci
   * hash, so consecutive ids spread.
   */
  static int stripeOfThisThread(int stripes) {
    long h = Thread.currentThread().getId() * 0x9E3779B97F4A7C15L;
    return (int) (h >>> (64 - Integer.numberOfTrailingZeros(stripes)));
  }
}
