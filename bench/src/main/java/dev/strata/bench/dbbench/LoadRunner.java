package dev.strata.bench.dbbench;

import dev.strata.bench.common.Mix;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.FlightRecorder;
import org.HdrHistogram.Histogram;

/**
 * Runs an operation on N threads, each timing every call into its own HdrHistogram, until a
 * deadline, until each thread has run its share of a fixed count, or, in the background, until
 * stopped; then merges what the threads measured.
 *
 * <p>Thread-safe: runs share nothing but the store and the seed, so a background run (a writer
 * beside readers, readers beside a writer) may go on while another runs; the threads each run
 * starts are its own.
 */
final class LoadRunner {
  /** One operation; returns what it found (1 for a Get that found its key, cells read, ...). */
  @FunctionalInterface
  interface Op {
    int run(long index, SplittableRandom random) throws IOException;
  }

  /**
   * What a run measured.
   *
   * @param ops operations run
   * @param found summed results of the operations
   * @param nanos wall time from the start of the first thread to the end of the last
   * @param latency every operation's latency, nanoseconds
   * @param slow operations over 10 and 100 ms, and the time spent in the former
   * @param threadBytes summed {@link Store#readerThreadBytes()}, or -1 when the engine has none
   *
   * <p>Not thread-safe (the histogram is mutable); owned by the caller.
   */
  record Outcome(long ops, long found, long nanos, Histogram latency, SlowOps slow,
      long threadBytes) {}

  private final Store store;
  private final long seed;

  /** A runner over {@code store} whose random streams derive from {@code seed}. */
  LoadRunner(Store store, long seed) {
    this.store = store;
    this.seed = seed;
  }

  /**
   * Runs {@code op} on {@code threads} threads until {@code seconds} have passed (when positive)
   * or each thread has run {@code perThread} operations (when positive), whichever comes first.
   * Thread {@code t} passes indices {@code t, t + threads, ...} and a random stream of its own,
   * chosen by {@code stream}.
   */
  Outcome run(String name, int threads, double seconds, long perThread, long stream, Op op)
      throws IOException {
    if (seconds <= 0 && perThread <= 0) {
      throw new IllegalArgumentException(name + ": neither a duration nor a count bounds the run");
    }
    return run(name, threads, seconds, perThread, stream, op, new Control(null));
  }

  /**
   * Starts {@code op} on {@code threads} threads in the background, each passing indices and a
   * random stream as in {@link #run}; they run until {@link Background#stop}.
   */
  Background start(String name, int threads, long stream, Op op) {
    return new Background(name, threads, stream, op);
  }

  /**
   * A run in the background: {@link #completed} counts its operations as they finish, {@link
   * #stop} ends it and returns what it measured.
   *
   * <p>Thread-safe.
   */
  final class Background {
    private final Control control = new Control(new LongAdder());
    private final Thread thread;
    private volatile Outcome outcome;
    private volatile IOException failure;

    private Background(String name, int threads, long stream, Op op) {
      thread = new Thread(() -> {
        try {
          outcome = run(name, threads, 0, 0, stream, op, control);
        } catch (IOException e) {
          failure = e;
        } catch (RuntimeException | Error e) {
          failure = new IOException(name + " failed: " + e, e);
        }
      }, "dbbench-" + name);
      thread.setDaemon(true);
      thread.start();
    }

    /** Operations finished so far, on every thread. */
    long completed() {
      return control.completed.sum();
    }

    /** Stops the threads after their current operation and returns the run's outcome. */
    Outcome stop() throws IOException {
      control.stopped = true;
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while stopping a background run", e);
      }
      if (failure != null) {
        throw failure;
      }
      return outcome;
    }
  }

  /** How a run is stopped from outside and counted while it runs (a background run only). */
  private static final class Control {
    private volatile boolean stopped;
    /** Operations finished so far; null when nobody asks (a counted add per op saved). */
    private final LongAdder completed;

    Control(LongAdder completed) {
      this.completed = completed;
    }
  }

  private Outcome run(String name, int threads, double seconds, long perThread, long stream, Op op,
      Control control) throws IOException {
    AtomicInteger counter = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads,
        r -> {
          Thread t = new Thread(r, "dbbench-" + name + "-" + counter.getAndIncrement());
          t.setDaemon(true);
          return t;
        });
    long start = System.nanoTime();
    long deadline = seconds > 0 ? start + (long) (seconds * 1e9) : Long.MAX_VALUE;
    long limit = perThread > 0 ? perThread : Long.MAX_VALUE;
    try {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(pool.submit(
            () -> loop(name, thread, threads, deadline, limit, stream, op, control)));
      }
      Histogram all = new Histogram(3);
      long ops = 0;
      long found = 0;
      SlowOps slow = new SlowOps();
      long threadBytes = 0;
      for (Future<Outcome> f : futures) {
        Outcome o = f.get();
        all.add(o.latency());
        ops += o.ops();
        found += o.found();
        slow.add(o.slow());
        threadBytes = o.threadBytes() < 0 || threadBytes < 0 ? -1 : threadBytes + o.threadBytes();
      }
      return new Outcome(ops, found, System.nanoTime() - start, all, slow, threadBytes);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(name + " failed: " + cause, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(name + " interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private Outcome loop(String name, int thread, int threads, long deadline, long limit,
      long stream, Op op, Control control) throws IOException {
    store.beginReaderThread();
    SplittableRandom random = new SplittableRandom(Mix.mix(seed ^ Mix.mix(stream * 1_000_003L + thread)));
    Histogram h = new Histogram(3);
    long ops = 0;
    long found = 0;
    SlowOps slow = new SlowOps();
    long now = System.nanoTime();
    LongAdder completed = control.completed;
    for (long i = thread; ops < limit && now < deadline && !control.stopped; i += threads) {
      long t0 = now;
      found += op.run(i, random);
      now = System.nanoTime();
      long took = now - t0;
      h.recordValue(took);
      ops++;
      if (completed != null) {
        completed.increment();
      }
      if (slow.record(took) && FlightRecorder.isInitialized()) {
        SlowOpEvent.record(name, took); // only under a recording: loads no JFR class otherwise
      }
    }
    return new Outcome(ops, found, 0, h, slow, store.readerThreadBytes());
  }
}
