package dev.strata.bench.db;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link MultiGetBenchmark}'s two methods alternated in one JVM, timed in this thread's CPU time:
 * the ratio for a machine shared with other work. JMH runs each method in its own fork, minutes
 * apart; under a load that changes by more than the effect, the two figures drift apart. Here each
 * pair runs 16 batches through {@code multiGet} and the next 16 through Gets one by one (other
 * batches of the same pool, so neither finds the other's blocks in the processor's caches), and
 * the CPU time this thread used leaves out the time other processes held the core. It still pays
 * for the caches they evict, so the figures per key vary with the load; their ratio varies less.
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar dev.strata.bench.db.MultiGetPairs [layout] [cacheMiB] [seconds] [rows]
 * </pre>
 *
 * <p>Prints the median and quartiles of the pairs' ratios (one by one over multiGet: above 1 is
 * multiGet faster), the median CPU time per key of each and the bytes each allocates per batch
 * (the thread's allocation counter, which the load does not move). The first 5 s warm up and are not
 * counted. Run with {@code -Xms2g -Xmx2g} like the JMH suite.
 *
 * <p>Not thread-safe: a command-line tool.
 */
public final class MultiGetPairs {
  private static final int BATCHES_PER_SIDE = 16;
  private static final long WARMUP_NANOS = 5_000_000_000L;

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
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    com.sun.management.ThreadMXBean heap = (com.sun.management.ThreadMXBean) mx;
    long start = System.nanoTime();
    long end = start + WARMUP_NANOS + seconds * 1_000_000_000L;
    double[] ratios = new double[1 << 16];
    double[] batched = new double[ratios.length];
    double[] single = new double[ratios.length];
    long batchedBytes = 0;
    long singleBytes = 0;
    long measuredBatches = 0;
    int n = 0;
    try {
      while (System.nanoTime() < end && n < ratios.length) {
        long a0 = heap.getCurrentThreadAllocatedBytes();
        long t0 = mx.getCurrentThreadCpuTime();
        for (int b = 0; b < BATCHES_PER_SIDE; b++) {
          bh.consume(bench.multiGet());
        }
        long t1 = mx.getCurrentThreadCpuTime();
        long a1 = heap.getCurrentThreadAllocatedBytes();
        for (int b = 0; b < BATCHES_PER_SIDE; b++) {
          bench.oneByOne(bh);
        }
        long t2 = mx.getCurrentThreadCpuTime();
        long a2 = heap.getCurrentThreadAllocatedBytes();
        if (System.nanoTime() - start > WARMUP_NANOS && t1 > t0 && t2 > t1) {
          batchedBytes += a1 - a0;
          singleBytes += a2 - a1;
          measuredBatches += BATCHES_PER_SIDE;
          ratios[n] = (double) (t2 - t1) / (t1 - t0);
          batched[n] = (t1 - t0) / (double) (BATCHES_PER_SIDE * bench.batch);
          single[n] = (t2 - t1) / (double) (BATCHES_PER_SIDE * bench.batch);
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
    Arrays.sort(ratios, 0, n);
    Arrays.sort(batched, 0, n);
    Arrays.sort(single, 0, n);
    System.out.printf("%s, cache %d MiB, %d rows, batches of %d: %d pairs; one by one / multiGet (CPU time)"
            + " median %.3f, quartiles %.3f-%.3f; CPU ns per key: multiGet %.0f, one by one %.0f;"
            + " bytes allocated per batch: multiGet %d, one by one %d%n",
        bench.layout, bench.cacheMiB, bench.rows, bench.batch, n, ratios[n / 2], ratios[n / 4],
        ratios[3 * n / 4], batched[n / 2], single[n / 2], batchedBytes / measuredBatches,
        singleBytes / measuredBatches);
  }
}
