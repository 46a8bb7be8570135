package dev.strata.engine.version;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the reclaiming of obsolete tables (closing a reader, deleting its file) on a thread of its
 * own, {@code strata-deletes-N}, for the threads that must not wait on it: a read that lets go of a
 * table's last version, or the last holder of an evicted reader. Deleting a table file is the file
 * system freeing tens of MiB of pages and extents, long enough to show as a read's worst latency
 * (docs/PERFORMANCE.md has the figures). RocksDB keeps it off the foreground the same way ({@code
 * avoid_unnecessary_blocking_io}, its {@code DeleteScheduler}'s thread).
 *
 * <p>The thread starts with the first job and ends when idle for a second, so a database that
 * deletes nothing holds no thread. Jobs run in the order given. After {@link #close} a job runs on the
 * caller's thread: nothing submitted is ever dropped, and a file left behind by a crash meanwhile is
 * deleted by the next open's cleanup of unlisted files.
 *
 * <p>Thread-safe.
 */
final class BackgroundDeletes implements AutoCloseable {
  /** Numbers the threads of all databases in this JVM. */
  private static final AtomicInteger THREAD_NUMBERS = new AtomicInteger();

  private final ThreadPoolExecutor thread =
      new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "strata-deletes-" + THREAD_NUMBERS.incrementAndGet());
        t.setDaemon(true);
        return t;
      });

  /** Runs {@code job} on the deletes thread, or now on this thread once closed. */
  void run(Runnable job) {
    try {
      thread.execute(job);
    } catch (RejectedExecutionException closed) {
      job.run();
    }
  }

  /** Lets the jobs given so far finish and stops the thread; waits at most a minute. */
  @Override
  public void close() {
    thread.shutdown();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          thread.awaitTermination(1, TimeUnit.MINUTES);
          return;
        } catch (InterruptedException e) {
          interrupted = true; // closing must still wait for the deletes it promised
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
