package dev.strata.bench.dbbench;

/**
 * Counts the operations over {@link #SLOW_NANOS}, {@link #BOUND_NANOS} and {@link
 * #VERY_SLOW_NANOS} and sums the latencies of the first: the "time spent in puts over 10 ms",
 * which a count alone cannot show (ten puts of 11 ms and ten of 90 ms count the same).
 *
 * <p>Not thread-safe: one per thread, then {@linkplain #add merged}.
 */
final class SlowOps {
  /** Operations slower than this are counted (as db_bench's "over 10 ms"). */
  static final long SLOW_NANOS = 10_000_000L;

  /** Operations slower than this are counted too ("over 50 ms", the tail bound). */
  static final long BOUND_NANOS = 50_000_000L;

  /** Operations slower than this are counted too ("over 100 ms"). */
  static final long VERY_SLOW_NANOS = 100_000_000L;

  private long slow;
  private long overBound;
  private long verySlow;
  private long slowNanos;

  /** Accounts one operation that took {@code nanos}; true when it was over {@link #SLOW_NANOS}. */
  boolean record(long nanos) {
    if (nanos <= SLOW_NANOS) {
      return false;
    }
    slow++;
    slowNanos += nanos;
    if (nanos > BOUND_NANOS) {
      overBound++;
    }
    if (nanos > VERY_SLOW_NANOS) {
      verySlow++;
    }
    return true;
  }

  /** Adds what {@code other} accounted. */
  void add(SlowOps other) {
    slow += other.slow;
    overBound += other.overBound;
    verySlow += other.verySlow;
    slowNanos += other.slowNanos;
  }

  /** Operations over {@link #SLOW_NANOS}. */
  long slow() {
    return slow;
  }

  /** Operations over {@link #BOUND_NANOS}. */
  long overBound() {
    return overBound;
  }

  /** Operations over {@link #VERY_SLOW_NANOS}. */
  long verySlow() {
    return verySlow;
  }

  /** Summed latency of the operations over {@link #SLOW_NANOS}, nanoseconds (whole latencies). */
  long slowNanos() {
    return slowNanos;
  }
}
