package dev.strata.engine;

/**
 * The CPU the read path may use beyond the calling thread: pool threads for batched Gets, and a
 * warm-up of the read paths at open. Both are off by default, so reads run on their callers and an
 * open does nothing else. Each component is set by the {@link DbOptions.Builder} method of the same
 * name; the constructor rejects a value out of range with an {@link IllegalArgumentException}
 * naming it.
 *
 * <p>Immutable.
 *
 * @param multiGetThreads threads a batched Get ({@code multiGet}) may use besides its caller, 0 to
 *     {@value #MAX_MULTI_GET_THREADS}; default 0, every batch on its caller's thread. Java cannot
 *     overlap the reads of one thread (it has no asynchronous positional read of a buffered file),
 *     so a batch whose blocks come from files rather than the block cache overlaps them by running
 *     parts of itself (8 keys each, by key range) on this many pool threads as well, when it has 16
 *     undecided keys or more after the memtables. The choice is this option's alone, never a
 *     clock's: the same batch always takes the same path. The threads start with the first batch
 *     that uses them, park when idle and end after 30 seconds without work. RocksDB's {@code
 *     ReadOptions::async_io} is the nearest equivalent. docs/PERFORMANCE.md ("Batched Gets") gives
 *     what it saves, and costs, with a caller per core and with fewer callers than cores
 * @param warmUpOnOpen whether the first open in a JVM runs every read path once before it returns;
 *     default false: an open opens, and does nothing else. A JVM's first Get loads, verifies and
 *     links the read path's classes and lambdas (some tens of classes): CPU time that a first Get
 *     otherwise pays (its first compressed blocks decode in plain Java while LZ4's native
 *     library loads on a thread of its own). With this on, the
 *     open pays it instead, on a thread beside its own table reads, and waits for it: Gets, a
 *     batched Get, cursor steps and a row read over up to two of the database's tables (a few tens
 *     of KB read, through a block cache of its own, so nothing shows in the statistics or the
 *     cache), and the loading of LZ4 and the platform MBean server. It costs the first open that
 *     much more time and CPU; later opens in the JVM do nothing. docs/PERFORMANCE.md gives the
 *     measured first Get with and without it
 */
public record ReadOptions(int multiGetThreads, boolean warmUpOnOpen) {

  /** Upper bound of {@link #multiGetThreads()}. */
  public static final int MAX_MULTI_GET_THREADS = 64;

  /** Checks every component's range. */
  public ReadOptions {
    OptionRanges.check("multiGetThreads", multiGetThreads, 0, MAX_MULTI_GET_THREADS);
  }
}
