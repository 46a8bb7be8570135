package dev.strata.bench.dbbench;

import java.io.IOException;

/**
 * Waits until an engine's background work has quiesced: no flush or compaction running or due, on
 * several polls in a row (an engine may decide on its next compaction a moment after one ends).
 *
 * <p>Immutable (static methods only).
 */
final class Quiescence {
  /** Pause between polls. */
  private static final long POLL_MILLIS = 50;

  /** Consecutive idle polls that count as quiesced. */
  private static final int IDLE_POLLS = 3;

  private Quiescence() {}

  /** Blocks until {@code store} has quiesced; IOException after {@code timeoutSeconds}. */
  static void await(Store store, long timeoutSeconds) throws IOException {
    long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
    int idle = 0;
    while (idle < IDLE_POLLS) {
      idle = store.compactionPending() ? 0 : idle + 1;
      if (System.nanoTime() > deadline) {
        throw new IOException("compaction did not quiesce within " + timeoutSeconds + " s");
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for compaction", e);
      }
    }
  }
}
