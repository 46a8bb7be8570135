package dev.strata.engine.version;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The reference count of an object that many threads hold at once and one owner closes: a {@link
 * ReadView} every read takes, and a table reader ({@link TableCache}) every Get, scan and compaction
 * of that table takes. A holder that takes and drops a shared count writes one cache line that every
 * other holder's thread writes too, so Gets on different cores would serialise on it; here a thread
 * writes a stripe of its own, and only closing, which is rare, reads them all.
 *
 * <p>The owner's own reference is implicit: the count admits holders until the owner closes it
 * ({@link #close}), and the object may be freed once it is closed and {@link #idle}: no holder left.
 * A holder may release on another thread than it acquired on (a scan's iterator closed elsewhere):
 * the stripes' sum is what counts, never one stripe.
 *
 * <p>Why closing never misses a holder: {@link #tryAcquire} increments its stripe and then reads
 * {@code closed}; {@link #close} writes {@code closed} and then {@link #idle} reads the stripes. All
 * are volatile accesses, so in their single total order either the holder sees {@code closed} (and
 * drops its increment again) or the scan sees its increment. Every increment that counts therefore
 * came before the scan and is seen by it; a decrement the scan misses only makes the sum larger. So
 * a sum of zero after {@link #close} means no holder is left, even though the stripes are read one
 * at a time. A close that finds holders may be undone ({@link #reopen}) when the owner only wanted
 * the object if unheld (a cache choosing a reader to evict); acquirers refused meanwhile retry
 * elsewhere.
 *
 * <p>Thread-safe. Who frees an idle, closed object, and only once, is the owner's business.
 */
final class StripedRefCount {
  /**
   * Stripes: a power of two, enough that a few reader threads each find their own. Every open table
   * reader and every view holds one set, so it is kept small: 8 stripes of a 64-byte line each, plus a line of
   * padding at each end (see {@link #slot}), 640 bytes.
   */
  private static final int STRIPES = 8;
  /** Longs from one stripe to the next: one 64-byte cache line each. */
  private static final int SPACING = 8;

  /** Volatile access to {@link #counts}' elements, as an AtomicLongArray gives, one load closer. */
  private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

  /**
   * The stripes' counts, read and written only through {@link #COUNT}. A plain array rather than
   * an AtomicLongArray: a Get takes one of these per table it consults, and the wrapper would be
   * one more dependent load before the stripe.
   */
  private final long[] counts = new long[arrayLength(STRIPES)];
  private volatile boolean closed;

  /**
   * Takes a reference unless the owner closed the count; a true return must be matched by one
   * {@link #release}. A false one counts as a holder that came and went at once: a scan running
   * meanwhile may have seen it, so the caller must do what it does after a {@link #release} that
   * reports the close.
   */
  boolean tryAcquire() {
    int s = stripe();
    COUNT.getAndAdd(counts, s, 1L);
    if (closed) {
      COUNT.getAndAdd(counts, s, -1L);
      return false;
    }
    return true;
  }

  /** Drops a reference, on any thread; true when the count is closed now (see {@link #idle}). */
  boolean release() {
    COUNT.getAndAdd(counts, stripe(), -1L);
    return closed;
  }

  /** Refuses new holders from now on: the owner lets go. */
  void close() {
    closed = true;
  }

  /** Admits holders again after a {@link #close} that found some. */
  void reopen() {
    closed = false;
  }

  boolean isClosed() {
    return closed;
  }

  /** True when no holder is left; exact after {@link #close}, a hint before. */
  boolean idle() {
    // Before the close a holder releasing on another stripe than it acquired on can make the sum
    // read below zero for a moment; once closed before the scan began, it cannot (see the class
    // comment), and below zero is a reference released twice.
    boolean closedBefore = closed;
    long sum = 0;
    for (int i = 0; i < STRIPES; i++) {
      sum += (long) COUNT.getVolatile(counts, slot(i));
    }
    if (sum < 0 && closedBefore) {
      throw new IllegalStateException("more references released than taken: " + sum);
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
