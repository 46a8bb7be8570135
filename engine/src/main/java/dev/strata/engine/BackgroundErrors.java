package dev.strata.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.compaction.JobAbandonedException;
import dev.strata.sstable.format.LazyLogger;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What went wrong in flushes and compactions, and whether the database can go on: RocksDB's
 * automatic recovery from background errors, for the errors that lost nothing.
 *
 * <p>A flush or compaction that fails with an {@link IOException} (a full disk, most often) leaves
 * nothing behind: its partial outputs are deleted, the manifest is unchanged, and its inputs (a
 * frozen memtable still in memory with its log, or tables still listed) are untouched. Such a
 * failure is <em>retryable</em>: the job runs again after a backoff (100 ms, doubling to 5 s) until
 * it passes, and then the database resumes on its own, with no reopen. Meanwhile writes go on while
 * the memtable has room; a write that would have to wait for the failing flush fails at once with
 * the error instead, and so does {@code flush()}. Anything else (a {@link CorruptionException}, a
 * bug) is <em>permanent</em>: every later write fails until the database is reopened.
 *
 * <p>Thread-safety: guarded by the database mutex, except the permanent error, which is atomic:
 * the log writer records one without the mutex, and writers check it without it.
 */
final class BackgroundErrors {
  private static final System.Logger LOG = LazyLogger.of(BackgroundErrors.class);

  /** The first retry waits this long; each failure in a row doubles it. */
  private static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /** The longest wait between retries. */
  private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final Path dir;
  private final ReentrantLock mutex;

  private final AtomicReference<Throwable> permanent = new AtomicReference<>();

  @GuardedBy("mutex")
  private IOException retryable;

  @GuardedBy("mutex")
  private int failuresInARow;

  @GuardedBy("mutex")
  private long retryAtNanos;

  BackgroundErrors(Path dir, ReentrantLock mutex) {
    this.dir = dir;
    this.mutex = mutex;
  }

  /** True for the failures a retry may cure: I/O errors that are not damage on disk. */
  static boolean isRetryable(Throwable t) {
    return t instanceof IOException
        && !(t instanceof CorruptionException)
        && !(t instanceof FormatVersionException);
  }

  /** Records the failure of a background job. */
  @GuardedBy("mutex")
  void record(Throwable t) {
    assert mutex.isHeldByCurrentThread();
    if (permanent.get() != null) {
      return;
    }
    if (isRetryable(t)) {
      failuresInARow++;
      long backoff = FIRST_BACKOFF_NANOS << Math.min(failuresInARow - 1, 20);
      retryAtNanos = System.nanoTime() + Math.min(backoff, MAX_BACKOFF_NANOS);
      if (retryable == null) {
        LOG.log(
            System.Logger.Level.WARNING,
            "background work failed in " + dir + "; retrying until it passes",
            t);
      }
      retryable = (IOException) t;
    } else {
      recordPermanent(t);
    }
  }

  /**
   * Records a failed step, unless it was a job the close abandoned ({@code closing}): nothing
   * failed then, the inputs stay, and the next open takes up the work.
   */
  @GuardedBy("mutex")
  void recordUnlessAbandoned(Throwable t, boolean closing) {
    if (!(t instanceof JobAbandonedException && closing)) {
      record(t);
    }
  }

  /**
   * Records a failure no retry can cure (the log can no longer vouch for what it holds); the first
   * wins. Needs no lock.
   */
  void recordPermanent(Throwable t) {
    if (permanent.compareAndSet(null, t)) {
      LOG.log(System.Logger.Level.ERROR, "writes stopped in " + dir + " until it is reopened", t);
    }
  }

  /** Records that a background job passed: a retryable failure is over. */
  @GuardedBy("mutex")
  void succeeded() {
    assert mutex.isHeldByCurrentThread();
    if (retryable != null) {
      LOG.log(
          System.Logger.Level.INFO,
          "background work in " + dir + " passed after " + failuresInARow + " failures; resumed");
      retryable = null;
      failuresInARow = 0;
    }
  }

  /**
   * Waits, releasing the mutex, until a retry is due or {@code stop} says to give up (the database
   * is closing); returns at once when no retryable failure is pending.
   */
  @GuardedBy("mutex")
  void awaitRetry(Condition progress, java.util.function.BooleanSupplier stop) {
    assert mutex.isHeldByCurrentThread();
    while (retryable != null && !stop.getAsBoolean()) {
      long left = retryAtNanos - System.nanoTime();
      if (left <= 0) {
        return;
      }
      try {
        progress.awaitNanos(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** True when no write can be taken any more: a permanent failure. */
  boolean failedPermanently() {
    return permanent.get() != null;
  }

  /** Throws the permanent failure, if any. */
  void throwIfPermanent() throws IOException {
    Throwable t = permanent.get();
    if (t != null) {
      throw new IOException("background work failed, the database takes no more writes: " + t, t);
    }
  }

  /**
   * Throws the pending retryable failure, if any: for a caller that would otherwise wait for the
   * failing job (a write with no room, a flush).
   */
  @GuardedBy("mutex")
  void throwIfRetrying() throws IOException {
    assert mutex.isHeldByCurrentThread();
    if (retryable != null) {
      throw new IOException(
          "background work is failing and being retried (" + failuresInARow + " failures so far): "
              + retryable,
          retryable);
    }
  }
}
