package dev.strata.bench.db;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link MultiGetBenchmark}'s two methods alternated in one JVM: the ratio for a machine shared
 * with other work. JMH runs each method in its own fork, minutes apart; under a load that changes
 * by more than the effect, the two figures drift apart. Here each pair runs 16 batches through
 * {@code multiGet} and the next 16 through Gets one by one (other batches of the same pool, so
 * neither finds the other's blocks in the processor's caches), timed three ways:
 *
 * <ul>
 *   <li><b>wall</b> (elapsed time): the throughput the calling thread sees, including what a batch
 *       hands to other threads ({@code DbOptions.multiGetThreads}, when it gives it some); firm
 *       only on an idle machine;
 *   <li><b>thread CPU</b>: the calling thread's processor time, which leaves out the time other
 *       processes held the core (the figure for a loaded machine), but also the work a batch
 *       handed to other threads;
 *   <li><b>process CPU</b>: every thread of the JVM (collector and compiler threads included): what
 *       a batch costs the machine in all. Its clock ticks in milliseconds, so it is summed over the
 *       whole run for each side rather than taken per pair.
 * </ul>
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar dev.strata.bench.db.MultiGetPairs [layout] [cacheMiB] [seconds] [rows]
 * </pre>
 *
 * <p>Prints, for each clock, the median and quartiles of the pairs' ratios (one by one over
 * multiGet: above 1 is multiGet faster) and the median time per key of each, then the bytes each
 * allocates per batch (the thread's allocation counter, which the load does not move). The first
 * 5 s warm up and are not counted. Run with {@code -Xms2g -Xmx2g} like the JMH suite.
 *
 * <p>Not thread-safe: a command-line tool.
 */
public final class MultiGetPairs {
  private static final int BATCHES_PER_SIDE = 16;
  private static final long WARMUP_NANOS = 5_000_000_000L;
  /** The clocks compared pair by pair. */
  private static final String[] CLOCKS = {"wall", "thread CPU"};

  private MultiGetPairs() {}

  public static void main(String[] args) throws Exception {
    MultiGetBenchmark bench = new MultiGetBenchmark();
    bench.layout = args.length > 0 ? args[0] : "overlapping";
    bench.cacheMiB = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    bench.rows = args.length > 3 ? Integer.parseInt(args[3]) : 200_000;
    bench.tables = 4;
    bench.batch = 64;
    bench.setup();
    Blackhole bh = new Blackhole(
        "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long start = System.nanoTime();
    long end = start + WARMUP_NANOS + seconds * 1_000_000_000L;
    int capacity = 1 << 16;
    double[][] ratios = new double[CLOCKS.length][capacity];
    double[][] batched = new double[CLOCKS.length][capacity];
    double[][] single = new double[CLOCKS.length][capacity];
    long batchedBytes = 0;
    long singleBytes = 0;
    long batchedProcessCpu = 0;
    long singleProcessCpu = 0;
    long measuredBatches = 0;
    int n = 0;
    long[] t0 = new long[CLOCKS.length + 1]; // and the process's CPU time last
    long[] t1 = new long[CLOCKS.length + 1];
    long[] t2 = new long[CLOCKS.length + 1];
    double keys = BATCHES_PER_SIDE * bench.batch;
    try {
      while (System.nanoTime() < end && n < capacity) {
        long a0 = threads.getCurrentThreadAllocatedBytes();
        read(t0, threads, os);
        for (int b = 0; b < BATCHES_PER_SIDE; b++) {
          bh.consume(bench.multiGet());
        }
        read(t1, threads, os);
        long a1 = threads.getCurrentThreadAllocatedBytes();
        for (int b = 0; b < BATCHES_PER_SIDE; b++) {
          bench.oneByOne(bh);
        }
        read(t2, threads, os);
        long a2 = threads.getCurrentThreadAllocatedBytes();
        boolean ticked = t1[1] > t0[1] && t2[1] > t1[1]; // a thread CPU clock that read 0: skipped
        if (System.nanoTime() - start > WARMUP_NANOS && ticked) {
          batchedBytes += a1 - a0;
          singleBytes += a2 - a1;
          batchedProcessCpu += t1[CLOCKS.length] - t0[CLOCKS.length];
          singleProcessCpu += t2[CLOCKS.length] - t1[CLOCKS.length];
          measuredBatches += BATCHES_PER_SIDE;
          for (int c = 0; c < CLOCKS.length; c++) {
            ratios[c][n] = (double) (t2[c] - t1[c]) / (t1[c] - t0[c]);
            batched[c][n] = (t1[c] - t0[c]) / keys;
            single[c][n] = (t2[c] - t1[c]) / keys;
          }
          n++;
        }
      }
    } finally {
      bench.tearDown();
    }
    if (n == 0) {
      System.out.println("no pairs measured");
      return;
    }
    System.out.printf("%s, cache %d MiB, %d rows, batches of %d: %d pairs; one by one / multiGet:%n",
        bench.layout, bench.cacheMiB, bench.rows, bench.batch, n);
    for (int c = 0; c < CLOCKS.length; c++) {
      Arrays.sort(ratios[c], 0, n);
      Arrays.sort(batched[c], 0, n);
      Arrays.sort(single[c], 0, n);
      System.out.printf("  %-11s median %.3f, quartiles %.3f-%.3f; ns per key: multiGet %.0f, one by one %.0f%n",
          CLOCKS[c], ratios[c][n / 2], ratios[c][n / 4], ratios[c][3 * n / 4], batched[c][n / 2],
          single[c][n / 2]);
    }
    double measuredKeys = (double) measuredBatches * bench.batch;
    System.out.printf("  process CPU over the run: %.3f; ns per key: multiGet %.0f, one by one %.0f%n",
        (double) singleProcessCpu / batchedProcessCpu, batchedProcessCpu / measuredKeys,
        singleProcessCpu / measuredKeys);
    System.out.printf("  bytes allocated per batch: multiGet %d, one by one %d%n",
        batchedBytes / measuredBatches, singleBytes / measuredBatches);
  }

  /** The clocks now, in nanoseconds, into {@code t}: wall, thread CPU, process CPU. */
  private static void read(long[] t, com.sun.management.ThreadMXBean threads,
      com.sun.management.OperatingSystemMXBean os) {
    t[0] = System.nanoTime();
    t[1] = threads.getCurrentThreadCpuTime();
    t[2] = os.getProcessCpuTime();
  }
}
