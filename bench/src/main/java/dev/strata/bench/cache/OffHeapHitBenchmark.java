package dev.strata.bench.cache;

import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.cache.HeapCost;
import dev.strata.sstable.cache.OffHeapBlock;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a data block hit costs when the cache holds blocks off the heap: a hit on a random 4 KiB
 * block of a cache of {@code cacheMb}, then a read of {@code touched} bytes spread over it (a point
 * search reads a few cache lines: restart keys, then a run of entries). {@code HEAP}: the read is in
 * place in the heap block. Off the heap {@code COPY} takes a reference, copies the block into the
 * thread's scratch array and reads there, then releases (a Get's copy before the optimistic one);
 * {@code OPTIMISTIC} copies without a reference and validates after ({@link OffHeapBlock#tryCopyTo},
 * as a Get does now, falling back to {@code COPY}); {@code IN_PLACE} takes a reference and reads the
 * same bytes from the direct slab one by one (what a search in place would do). {@code skew}: the
 * block is uniform over the cache, or zipfian (0.99, as YCSB's), so that threads share hot blocks.
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main OffHeapHitBenchmark -t 2 -p cacheMb=1024 -p skew=ZIPFIAN
 * </pre>
 *
 * <p>Thread-safe as JMH uses it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Benchmark)
public class OffHeapHitBenchmark {
  private static final int BLOCK_BYTES = 4096;

  @Param({"64", "1024"})
  int cacheMb;

  /** Where the block is read. */
  public enum Mode {
    HEAP,
    COPY,
    OPTIMISTIC,
    IN_PLACE
  }

  @Param({"HEAP", "COPY", "OPTIMISTIC", "IN_PLACE"})
  Mode mode;

  /** How the block is chosen. */
  public enum Skew {
    UNIFORM,
    ZIPFIAN
  }

  @Param({"UNIFORM", "ZIPFIAN"})
  Skew skew;

  /** Draws of the zipfian distribution over the blocks, made at setup, which threads index randomly. */
  private static final int DRAWS = 1 << 20;

  /** Bytes of the block a search reads: 12 cache lines. */
  private static final int TOUCHED_LINES = 12;

  private ClockBlockCache cache;
  private BlockCacheKey[] keys;
  /** Block numbers to pick from: all of them once each, or zipfian draws. */
  private int[] picks;

  /** Each thread's random numbers and scratch array: threads share only the cache. */
  @State(Scope.Thread)
  public static class PerThread {
    final byte[] scratch = new byte[BLOCK_BYTES];
    /** The view a hit aims, reused as a Get's is. */
    final OffHeapBlock view = new OffHeapBlock();
    final SplittableRandom random = new SplittableRandom(System.identityHashCode(Thread.currentThread()));
  }

  /** A 4 KiB block, on the heap or (its copy) off it. */
  record Bytes(byte[] data) implements CachedBlock {
    @Override
    public int sizeBytes() {
      return (int) HeapCost.byteArray(data.length) + 16;
    }

    @Override
    public int offHeapLength() {
      return data.length;
    }

    @Override
    public byte[] offHeapBytes() {
      return data;
    }
  }

  @Setup
  public void setup() throws IOException {
    long capacity = (long) cacheMb << 20;
    cache = new ClockBlockCache(capacity, 16, mode != Mode.HEAP);
    int n = (int) (capacity * 9 / 10 / (BLOCK_BYTES + 300)); // what fits with the entries' overhead
    keys = new BlockCacheKey[n];
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < n; i++) {
      keys[i] = new BlockCacheKey(1, (long) i * BLOCK_BYTES);
      byte[] data = new byte[BLOCK_BYTES];
      for (int j = 0; j < data.length; j += 64) {
        data[j] = (byte) r.nextInt();
      }
      cache.getOrLoad(keys[i], BlockKind.DATA, () -> new Bytes(data));
      cache.getIfPresent(keys[i], BlockKind.DATA); // hit once: promoted past probation
    }
    picks = skew == Skew.UNIFORM ? uniform(n) : zipfian(n, 0.99, new SplittableRandom(3));
  }

  private static int[] uniform(int n) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    return p;
  }

  /** {@link #DRAWS} draws of block ranks weighted 1/rank^theta, the ranks scattered over the blocks. */
  private static int[] zipfian(int n, double theta, SplittableRandom r) {
    double[] cumulative = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += 1 / Math.pow(i + 1, theta);
      cumulative[i] = sum;
    }
    int[] p = new int[DRAWS];
    for (int d = 0; d < DRAWS; d++) {
      int at = java.util.Arrays.binarySearch(cumulative, r.nextDouble() * sum);
      int rank = Math.min(n - 1, at >= 0 ? at : -at - 1);
      p[d] = (int) ((rank * 0x9E3779B1L) % n); // hot blocks spread over shards and slabs
    }
    return p;
  }

  @TearDown
  public void tearDown() {
    cache.close();
  }

  @Benchmark
  public int hit(PerThread t) {
    BlockCacheKey key = keys[picks[t.random.nextInt(picks.length)]];
    CachedBlock b = cache.getIfPresent(key.fileNumber(), key.offset(), BlockKind.DATA, t.view);
    byte[] scratch = t.scratch;
    if (b instanceof OffHeapBlock s) {
      if (mode == Mode.OPTIMISTIC && s.tryCopyTo(scratch, 0)) {
        return touch(scratch);
      }
      if (!s.retain()) {
        return -1;
      }
      try {
        if (mode == Mode.IN_PLACE) {
          int sum = 0;
          for (int i = 0; i < TOUCHED_LINES; i++) {
            sum += s.get(offsetOf(i));
          }
          return sum;
        }
        s.copyTo(scratch, 0);
        return touch(scratch);
      } finally {
        s.release();
      }
    }
    return b == null ? -1 : touch(((Bytes) b).data());
  }

  private static int offsetOf(int line) {
    return (line * 331 * 64) & (BLOCK_BYTES - 1);
  }

  private static int touch(byte[] data) {
    int sum = 0;
    for (int i = 0; i < TOUCHED_LINES; i++) {
      sum += data[offsetOf(i)];
    }
    return sum;
  }
}
