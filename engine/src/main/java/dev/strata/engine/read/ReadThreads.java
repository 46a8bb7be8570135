package dev.strata.engine.read;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads a batched Get may spread its keys over, when the application asks for them ({@code
 * DbOptions.multiGetThreads}): Java has no asynchronous positional read of a buffered file, so a
 * batch whose blocks come from files overlaps its reads by running parts of itself on several
 * threads (RocksDB's {@code ReadOptions::async_io} overlaps them with io_uring instead).
 *
 * <p><b>Who runs what.</b> {@link #runAll} hands out the tasks of one call in order, from one
 * counter, to the calling thread and up to {@code helpers} pool threads; each takes the next task
 * until none is left. The caller always takes part, so a pool that is busy, unable to make a thread
 * or already shut down only means fewer helpers, never a task left undone or a deadlock; and the
 * caller returns only after every task it handed out has ended, so nothing of a batch runs past its
 * return. A pool thread that is woken only after the caller has taken the last task does nothing:
 * the caller waits for running tasks, never for a parked thread to be scheduled (which on a busy or
 * virtualised machine can take longer than a whole batch).
 *
 * <p><b>Failure.</b> The first task to fail stops the others from starting; {@code runAll} waits for
 * those running, then throws that failure itself: the {@link IOException} or unchecked exception a
 * sequential read would have thrown. An interrupt of the caller does not cut the wait short (the
 * tasks would outlive the batch); it stays set.
 *
 * <p><b>Threads.</b> None until the first batch that asks for help. A pool thread with no task
 * parks (it never spins) and ends after {@link #IDLE_SECONDS} without work, so a database with no
 * call in flight holds no running thread; {@link #close} ends them all once their tasks are done.
 * Daemon threads: a forgotten database does not keep the JVM alive.
 *
 * <p>Thread-safe: any number of batches may run at once, sharing the pool.
 */
public final class ReadThreads implements Closeable {
  /** How long an idle pool thread waits for work before it ends. */
  static final long IDLE_SECONDS = 30;

  /** Numbers the threads of every database in this JVM. */
  private static final AtomicInteger THREAD_NUMBERS = new AtomicInteger();

  private final int helpers;
  private final ThreadPoolExecutor pool;

  /** One task of a {@link #runAll} call: task {@code i} of its count. */
  @FunctionalInterface
  public interface Task {
    void run(int i) throws IOException;
  }

  /** Threads for the database {@code name}: the caller of a batch plus at most {@code helpers}. */
  public ReadThreads(String name, int helpers) {
    this(helpers, r -> {
      Thread t = new Thread(r, "strata-multiget-" + THREAD_NUMBERS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** Helpers made by {@code threads} (tests delay their start). */
  ReadThreads(int helpers, ThreadFactory threads) {
    if (helpers < 1) {
      throw new IllegalArgumentException("helpers must be at least 1: " + helpers);
    }
    this.helpers = helpers;
    this.pool = new ThreadPoolExecutor(
        0, helpers, IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), threads);
  }

  /** The most pool threads one call may use besides its caller. */
  public int helpers() {
    return helpers;
  }

  /**
   * Runs tasks {@code [0, count)} on this thread and up to {@link #helpers} pool threads; returns
   * once every task has ended.
   *
   * @throws IOException the first task failure, as the task threw it
   */
  public void runAll(int count, Task task) throws IOException {
    int asked = Math.max(0, Math.min(helpers, count - 1));
    Call call = new Call(count, task);
    for (int started = 0; started < asked; started++) {
      try {
        pool.execute(call::helpWork);
      } catch (RejectedExecutionException e) {
        break; // every thread busy with other calls, or closed: this thread does the rest
      }
    }
    call.work();
    call.awaitHelpers();
    call.throwFailure();
  }

  /** Pool threads alive now, busy or parked; for tests. */
  int threads() {
    return pool.getPoolSize();
  }

  /** Waits until the pool has ended after {@link #close}; for tests. */
  boolean awaitTermination(long millis) throws InterruptedException {
    return pool.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }

  /** Ends the pool threads once their tasks are done; later calls run on their caller alone. */
  @Override
  public void close() {
    pool.shutdown();
  }

  /** The shared state of one {@link #runAll} call. */
  private static final class Call {
    /** Set in {@link #helpers} once the caller waits: from then on no helper joins. */
    private static final int CLOSED = 1 << 30;

    private final int count;
    private final Task task;
    private final Thread caller = Thread.currentThread();
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /**
     * Helpers working on this call now, plus {@link #CLOSED}. A helper joins only while the call is
     * open, so a pool thread that wakes after the caller ran out of tasks does nothing and is not
     * waited for: the caller never waits for a thread to be scheduled, only for tasks to end.
     */
    private final AtomicInteger helpers = new AtomicInteger();

    Call(int count, Task task) {
      this.count = count;
      this.task = task;
    }

    /** Takes tasks until none is left or one failed. */
    void work() {
      try {
        for (int i = next.getAndIncrement(); i < count && failure.get() == null;
            i = next.getAndIncrement()) {
          task.run(i);
        }
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      }
    }

    /** {@link #work} on a helper, if the call is still open; the last one out wakes the caller. */
    void helpWork() {
      int s;
      do {
        s = helpers.get();
        if ((s & CLOSED) != 0) {
          return;
        }
      } while (!helpers.compareAndSet(s, s + 1));
      try {
        work();
      } finally {
        if (helpers.decrementAndGet() == CLOSED) {
          LockSupport.unpark(caller);
        }
      }
    }

    /**
     * Closes the call to helpers and waits, without giving up on an interrupt, for those that
     * joined to finish their tasks.
     */
    void awaitHelpers() {
      helpers.getAndAdd(CLOSED);
      boolean interrupted = false;
      while (helpers.get() != CLOSED) {
        LockSupport.park(this);
        interrupted |= Thread.interrupted(); // else park would return at once from now on
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    void throwFailure() throws IOException {
      Throwable t = failure.get();
      if (t == null) {
        return;
      }
      if (t instanceof IOException io) {
        throw io;
      }
      if (t instanceof RuntimeException r) {
        throw r;
      }
      if (t instanceof Error e) {
        throw e;
      }
      throw new IOException(t);
    }
  }
}
