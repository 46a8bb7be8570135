package dev.strata.engine.compaction;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The two background threads of one database: {@code strata-flush-N} writes frozen memtables to
 * level 0 and {@code strata-compaction-N} runs compactions. They are separate so that a flush never
 * queues behind a compaction: a compaction of level 0 into level 1 can take seconds to minutes, and
 * writers wait for a flush whenever every memtable is full, never for a compaction (unless level 0
 * has reached its stop trigger).
 *
 * <p>Each is a single thread: flushes install in the order their memtables were frozen, and one
 * compaction at a time picks from the current version, so two compactions never choose the same
 * table. A flush only adds level-0 tables, which are newer than everything a running compaction
 * reads, so the two never conflict (see {@code Db}).
 *
 * <p>Thread-safe.
 */
public final class BackgroundThreads {
  /** Numbers the background threads of all databases in this JVM. */
  private static final AtomicInteger THREAD_NUMBERS = new AtomicInteger();

  private final ExecutorService flushes = singleThread("strata-flush-");
  private final ExecutorService compactions = singleThread("strata-compaction-");

  /** Runs {@code job} on the flush thread, after the flushes submitted before it. */
  public void submitFlush(Runnable job) {
    flushes.execute(job);
  }

  /** Runs {@code job} on the compaction thread, after the compactions submitted before it. */
  public void submitCompaction(Runnable job) {
    compactions.execute(job);
  }

  /**
   * Lets submitted jobs finish and stops both threads; false when they did not stop within {@code
   * timeout}.
   */
  public boolean shutdown(long timeout, TimeUnit unit) throws InterruptedException {
    flushes.shutdown();
    compactions.shutdown();
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    return flushes.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)
        && compactions.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
  }

  private static ExecutorService singleThread(String prefix) {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, prefix + THREAD_NUMBERS.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }
}
