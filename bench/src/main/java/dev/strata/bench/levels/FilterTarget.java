package dev.strata.bench.levels;

import java.io.IOException;

/**
 * One engine under {@code filterlevels}: the fill's writes, the settle after each flush, and the
 * absent Gets, so that every configuration sees the same operations in the same order.
 */
interface FilterTarget {
  /** Writes {@code key}. */
  void put(byte[] key, byte[] value) throws IOException;

  /** Flushes the memtable and returns once the compactions it starts are done. */
  void flushAndSettle() throws IOException, InterruptedException;

  /** Reads {@code key}. */
  void get(byte[] key) throws IOException;
}
