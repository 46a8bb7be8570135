package dev.strata.engine.read;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Table reads of one batch overlapped on a few threads, for a batched Get whose blocks come from
 * files rather than from the block cache. Java has no asynchronous positional read of a buffered
 * file, so the reads overlap by running on several threads. Two cases:
 *
 * <ul>
 *   <li><b>Cold</b>: the blocks are on the device (issue 9: the first {@code multiGet} after an
 *       open with the page cache evicted read its 32 keys' filter chunks, index partitions and
 *       data blocks one after another, 20 ms against RocksDB's 4.4). Many threads wait on the
 *       device together: up to {@link #maxHelpers} helpers.
 *   <li><b>Warm</b>: the blocks are in the OS page cache but not in the block cache, the common
 *       case of a database larger than its cache (issue 12: at 20M keys with a cache a tenth of
 *       the data every Get reads one data block from a file, about 5 us of copying, checking and
 *       caching, and a batch of 64 keys ran no faster than its Gets one by one). Here the work is
 *       the processor's, so it splits among the cores no other batch is using: helpers are
 *       {@link #freeHelpers} at most.
 * </ul>
 *
 * <p><b>Who runs what.</b> {@link #runAll} hands out the tasks of one call in order, from one
 * counter, to the calling thread and up to the given number of pool threads; each takes the next
 * task until none is left. The caller starts one helper and each helper the next, so starting
 * threads overlaps the reads too. The caller always takes part, so a pool that is busy, slow to start a
 * thread, unable to make one or already shut down only means fewer helpers, never a task left
 * undone, a failed batch or a deadlock;
 * and the caller returns only after every task it handed out has ended, so nothing of a batch
 * runs past its return (its view, which the caller holds, is still referenced meanwhile).
 *
 * <p><b>When.</b> Handing work to another thread costs some microseconds, as much as a whole
 * cached lookup, so a batch overlaps only when it has shown there is enough work to share. Cold:
 * {@link #isCold} times a probe the batch needs anyway (its first key's filter chunk in a deeper
 * level) against {@link #coldNanos}; the deeper levels' tables then run at once. Warm: batches
 * record the pace at which their keys ask the tables ({@link #recordPace}), and a batch shares its
 * keys, split by key range, when at the last pace recorded they are worth {@link #shareNanos} or
 * more ({@link #worthSharing}). A key answered from the block cache takes 0.3-1.5 us in a batch
 * and one whose data block comes from the page cache 4-6 us, so a batch of 64 shares when its
 * keys read files and not when they are cached (one whose cached blocks lie beyond the
 * processor's caches may share). A cached batch stays on its thread and pays for a {@code
 * nanoTime} pair; after the cache's state changes, one batch runs the old way.
 *
 * <p><b>Free cores.</b> {@link #enter} and {@link #exit} count the batches running; a warm batch
 * takes helpers only for the cores beyond them ({@link #freeHelpers}). With as many batches as
 * cores each stays on its thread: a helper would only take turns with another batch's caller.
 *
 * <p><b>Failure.</b> The first task to fail stops the others from starting; {@code runAll} waits
 * for those running, then throws that failure itself: the {@link IOException} (a closed or
 * damaged table's) or unchecked exception a sequential read would have thrown, so a batch fails as
 * one Get would. An interrupt of the caller does not cut the wait short (the tasks would outlive
 * the batch); it stays set.
 *
 * <p><b>Threads.</b> None until the first overlapped batch. A pool thread out of tasks spins for
 * {@link #LINGER_NANOS} in case a batch offers it another run ({@link #linger}), then parks; it
 * ends after {@link #IDLE_SECONDS} without work, and {@link #close} (at {@code Db.close}) ends
 * them all once their tasks are done. Daemon threads: a forgotten database does not keep the JVM
 * alive.
 *
 * <p>Thread-safe: any number of batches may overlap their reads at once (then sharing the helpers).
 */
public final class OverlappedReads implements Closeable {
  /** Helper threads one database keeps at most: enough for a batch of 32 keys to wait together. */
  public static final int DEFAULT_HELPERS = 15;

  /**
   * A probe slower than this waited on the device: a filter chunk from the block cache takes well
   * under a microsecond and from the page cache some tens; from the disk 0.1-2 ms.
   */
  public static final long DEFAULT_COLD_NANOS = 150_000;

  /**
   * Work a warm batch's keys must be worth to share them ({@link #worthSharing}): several times
   * what waking a pool thread and waiting for its last task cost (10-20 us together).
   */
  public static final long DEFAULT_SHARE_NANOS = 100_000;

  private static final long IDLE_SECONDS = 30;
  /** How long a caller whose tasks are handed out spins for the last ones before it parks. */
  private static final long SPIN_NANOS = 20_000;
  /**
   * How long a helper that ran out of tasks spins for another run before it goes back to the pool:
   * a parked pool thread takes 10-60 us to wake, a good part of the work it was woken for, while
   * the next batch of a caller issuing batches back to back shares within 50-150 us of the last
   * (its sort, memtables and cold check come first). RocksDB's write thread spins up to 100 us
   * for the same reason.
   */
  private static final long LINGER_NANOS = 200_000;

  private final int maxHelpers;
  private final long coldNanos;
  private final long shareNanos;
  /** Threads that can run at once: the processors, for warm batches' helpers. */
  private final int cores;
  /**
   * Nanoseconds a key of a warm batch last took to ask the tables on one thread ({@link
   * #recordPace}); -1 before the first. Racy by design: any recent batch's pace will do.
   */
  private volatile long nanosPerKey = -1;
  /** Batches between {@link #enter} and {@link #exit}. */
  private final AtomicInteger batches = new AtomicInteger();
  /** Helpers spinning for a run ({@link #linger}). */
  private final AtomicInteger lingering = new AtomicInteger();
  /** A run offered to a lingering helper; null when none is. */
  private final AtomicReference<Run> offered = new AtomicReference<>();
  /** Runs lingering helpers took; for tests. */
  private final AtomicLong runsTakenLingering = new AtomicLong();
  private final ThreadPoolExecutor pool;

  /** One task of a {@link #runAll} call. */
  @FunctionalInterface
  public interface Task {
    void run(int i) throws IOException;
  }

  /**
   * Cold batches only: {@link #OverlappedReads(String, int, long, long, int)} with no warm batch
   * ever overlapping.
   */
  public OverlappedReads(String name, int maxHelpers, long coldNanos) {
    this(name, maxHelpers, coldNanos, Long.MAX_VALUE, 1);
  }

  /**
   * @param name names the pool's threads (the database's directory)
   * @param maxHelpers pool threads at most, beside each caller; 0 runs everything on the caller
   * @param coldNanos how long a probe must take for {@link #isCold}; 0: every batch overlaps
   * @param shareNanos the work a warm batch's keys must be worth to share them ({@link
   *     #worthSharing}); 0: always, once a pace is recorded
   * @param cores threads that run at once (the processors); a warm batch's helpers are the cores
   *     no other batch is using, beside its own
   */
  public OverlappedReads(String name, int maxHelpers, long coldNanos, long shareNanos, int cores) {
    this(maxHelpers, coldNanos, shareNanos, cores, daemonThreads(name));
  }

  /** As above, the pool's threads made by {@code threads}; tests make ones that fail to start. */
  OverlappedReads(int maxHelpers, long coldNanos, long shareNanos, int cores, ThreadFactory threads) {
    if (maxHelpers < 0 || coldNanos < 0 || shareNanos < 0 || cores < 1) {
      throw new IllegalArgumentException("helpers and thresholds must not be negative, cores positive");
    }
    this.maxHelpers = maxHelpers;
    this.coldNanos = coldNanos;
    this.shareNanos = shareNanos;
    this.cores = cores;
    // No queue: a task no idle or new thread takes is rejected, and the caller runs it itself.
    this.pool = new ThreadPoolExecutor(0, Math.max(1, maxHelpers), IDLE_SECONDS, TimeUnit.SECONDS,
        new SynchronousQueue<>(), threads);
  }

  private static ThreadFactory daemonThreads(String name) {
    AtomicInteger made = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "strata-overlapped-reads-" + made.incrementAndGet() + " " + name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * A database's: {@link #DEFAULT_HELPERS} threads, {@link #DEFAULT_COLD_NANOS}, {@link
   * #DEFAULT_SHARE_NANOS}, this JVM's processors. Without a block cache ({@code blockCache}
   * false) a batch never shares: its parts could not share the blocks they read (keys split
   * between two parts that need one block would read it twice), the block cache being where
   * concurrent misses of one block load it once.
   */
  public static OverlappedReads forDatabase(String name, boolean blockCache) {
    return new OverlappedReads(name, DEFAULT_HELPERS, DEFAULT_COLD_NANOS,
        blockCache ? DEFAULT_SHARE_NANOS : Long.MAX_VALUE, Runtime.getRuntime().availableProcessors());
  }

  /** Whether a probe that started at {@code startNanos} ({@link System#nanoTime}) waited on the device. */
  boolean isCold(long startNanos) {
    return maxHelpers > 0 && System.nanoTime() - startNanos >= coldNanos;
  }

  /**
   * Records that {@code keys} keys (at least one) of a warm batch asked the tables in {@code nanos}
   * on one thread: the pace {@link #worthSharing} judges by, until the next record.
   */
  void recordPace(long nanos, int keys) {
    nanosPerKey = nanos / keys;
  }

  /**
   * Whether {@code keys} keys asking the tables are worth sharing: at the pace last recorded,
   * {@link #shareNanos} or more; false before any record.
   */
  boolean worthSharing(int keys) {
    long pace = nanosPerKey;
    return pace >= 0 && shareNanos != Long.MAX_VALUE && pace * keys >= shareNanos;
  }

  /** A batch starts: counted until its {@link #exit}, so others leave its core to it. */
  void enter() {
    batches.incrementAndGet();
  }

  void exit() {
    batches.decrementAndGet();
  }

  /**
   * Helpers a warm batch may share with now: the cores beyond the batches running, at most {@link
   * #maxHelpers}; none when it never shares ({@link #shareNanos} at {@code Long.MAX_VALUE}).
   */
  int freeHelpers() {
    if (shareNanos == Long.MAX_VALUE) {
      return 0;
    }
    return Math.max(0, Math.min(maxHelpers, cores - batches.get()));
  }

  /** {@link #runAll(int, int, Task)} with up to {@link #maxHelpers} helpers. */
  public void runAll(int count, Task task) throws IOException {
    runAll(count, maxHelpers, task);
  }

  /**
   * Runs {@code task} for {@code 0 <= i < count}, each once, on this thread and up to {@code
   * helpers} pool threads at once, in no particular order; returns when all have ended. Throws
   * the first failure, as thrown, after every task running has ended; tasks not yet started then
   * are skipped.
   */
  public void runAll(int count, int helpers, Task task) throws IOException {
    Run run = new Run(count, task, Math.max(0, Math.min(count - 1, Math.min(helpers, maxHelpers))));
    run.addHelper();
    run.work();
    run.awaitAll();
    offered.compareAndSet(run, null); // if no helper took it, it must not keep the batch reachable
    Throwable failure = run.failure.get();
    if (failure instanceof IOException e) {
      throw e;
    } else if (failure instanceof Error e) {
      throw e;
    } else if (failure != null) {
      throw (RuntimeException) failure; // a Task throws nothing else
    }
  }

  /** Pool threads a call may use beside its caller. */
  int maxHelpers() {
    return maxHelpers;
  }

  /** Runs that helpers lingering after an earlier run took; for tests. */
  long runsTakenLingering() {
    return runsTakenLingering.get();
  }

  /** Pool threads alive now; for tests. */
  int threads() {
    return pool.getPoolSize();
  }

  /**
   * Ends the pool threads once their tasks are done; later calls run on their callers alone.
   * Idempotent. Does not wait: every batch waits for its own tasks.
   */
  @Override
  public void close() {
    pool.shutdown();
  }

  /** Waits up to {@code millis} for the pool's threads to end after {@link #close}; for tests. */
  boolean awaitTermination(long millis) throws InterruptedException {
    return pool.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }

  /**
   * A pool thread out of tasks spins up to {@link #LINGER_NANOS} for a run offered to it, taking
   * each as a helper started from the pool would, then returns to the pool. At most one thread
   * fewer than the cores lingers (a cold batch's many helpers return at once), none while as many
   * batches run as there are cores, and none after {@link #close}.
   */
  private void linger() {
    if (lingering.incrementAndGet() > cores - 1) {
      lingering.decrementAndGet();
      return;
    }
    try {
      long until = System.nanoTime() + LINGER_NANOS;
      // It stops when the batches running take every core: it would spin on one of theirs.
      while (System.nanoTime() < until && batches.get() < cores && !pool.isShutdown()) {
        Run run = offered.get();
        if (run != null && offered.compareAndSet(run, null)) {
          runsTakenLingering.incrementAndGet();
          run.addHelper();
          run.work();
          until = System.nanoTime() + LINGER_NANOS;
        } else {
          Thread.onSpinWait();
        }
      }
    } finally {
      lingering.decrementAndGet();
    }
  }

  /** The state of one {@link #runAll} call, shared by its caller and helpers. */
  private final class Run {
    private final int count;
    private final Task task;
    /**
     * Helpers still to start: each helper starts the next before it works, so the caller pays for
     * starting one thread (a new one costs tens of microseconds), not for all of them.
     */
    private final AtomicInteger unstarted;
    private final Thread caller = Thread.currentThread();
    private final AtomicInteger next = new AtomicInteger();
    /** Tasks not yet ended (run, failed or skipped); the caller waits for 0. */
    private final AtomicInteger unfinished;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    Run(int count, Task task, int helpers) {
      this.count = count;
      this.task = task;
      this.unstarted = new AtomicInteger(helpers);
      this.unfinished = new AtomicInteger(count);
    }

    /**
     * Starts one more helper, if any is still to start and work is left for it: a lingering one
     * when there is one ({@link #linger}), else a pool thread.
     */
    void addHelper() {
      if (next.get() < count && unstarted.getAndDecrement() > 0) {
        if (lingering.get() > 0) {
          // Offered, or another run's offer not yet taken: either way no new thread joins the
          // lingering ones on the cores. If none takes this run, those working do the rest.
          offered.compareAndSet(null, this);
          return;
        }
        try {
          pool.execute(() -> {
            addHelper();
            work();
            linger();
          });
        } catch (RejectedExecutionException | OutOfMemoryError e) {
          // Every thread busy, closed, or no thread could be made (the process at its thread
          // limit: "unable to create native thread"): those working do the rest. ForkJoinPool
          // goes on with the workers it has the same way.
        }
      }
    }

    /** Takes tasks until none is left. */
    void work() {
      for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
        try {
          if (failure.get() == null) {
            task.run(i);
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        } finally {
          if (unfinished.decrementAndGet() == 0) {
            LockSupport.unpark(caller);
          }
        }
      }
    }

    /**
     * Waits until every task has ended, whatever interrupts the caller meanwhile: spinning first,
     * since the tasks still running were taken last and end soon in a warm batch (waking a parked
     * caller would cost as much again), then parked.
     */
    void awaitAll() {
      long spinUntil = System.nanoTime() + SPIN_NANOS;
      while (unfinished.get() > 0 && System.nanoTime() < spinUntil) {
        Thread.onSpinWait();
      }
      boolean interrupted = false;
      while (unfinished.get() > 0) {
        LockSupport.park(this);
        interrupted |= Thread.interrupted();
      }
      if (interrupted) {
        caller.interrupt();
      }
    }
  }
}
