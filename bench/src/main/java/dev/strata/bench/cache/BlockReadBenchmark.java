package dev.strata.bench.cache;

import java.nio.ByteBuffer;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The memory side of a block hit, without the cache: a random 4 KiB block of {@code megabytes}
 * (beyond the CPU's caches at 64 MiB and up), then 12 of its cache lines read, as a point search
 * reads restart keys and a run of entries. {@code HEAP_IN_PLACE}: the block is a heap array read
 * where it lies (the heap cache's hit). {@code DIRECT_COPY}: the block is copied out of one direct
 * buffer into a scratch array first, then read there (the off-heap cache's hit copies a block
 * out before a search). {@code DIRECT_IN_PLACE}: the same lines read from the direct buffer where
 * the block lies, contiguous (what a search over off-heap bytes would read).
 *
 * <p>It separates what the block's bytes cost from what the off-heap cache's bookkeeping costs
 * ({@link OffHeapHitBenchmark} measures both together).
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main BlockReadBenchmark -p megabytes=64,1024
 * </pre>
 *
 * <p>Thread-safe as JMH uses it (each thread its own scratch array and random numbers).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Benchmark)
public class BlockReadBenchmark {
  private static final int BLOCK_BYTES = 4096;
  private static final int TOUCHED_LINES = 12;

  @Param({"64", "1024"})
  int megabytes;

  /** Where the block lies and how it is read. */
  public enum Mode {
    HEAP_IN_PLACE,
    DIRECT_COPY,
    DIRECT_IN_PLACE
  }

  @Param({"HEAP_IN_PLACE", "DIRECT_COPY", "DIRECT_IN_PLACE"})
  Mode mode;

  private byte[][] heapBlocks;
  private ByteBuffer direct;
  private int blocks;

  /** Each thread's scratch array and random numbers. */
  @State(Scope.Thread)
  public static class PerThread {
    final byte[] scratch = new byte[BLOCK_BYTES];
    final SplittableRandom random = new SplittableRandom(System.identityHashCode(Thread.currentThread()));
  }

  @Setup
  public void setup() {
    blocks = (int) (((long) megabytes << 20) / BLOCK_BYTES);
    if (mode == Mode.HEAP_IN_PLACE) {
      heapBlocks = new byte[blocks][];
      for (int i = 0; i < blocks; i++) {
        heapBlocks[i] = new byte[BLOCK_BYTES];
        heapBlocks[i][i & (BLOCK_BYTES - 1)] = (byte) i;
      }
    } else {
      direct = ByteBuffer.allocateDirect(blocks * BLOCK_BYTES);
      for (int i = 0; i < blocks; i++) {
        direct.put(i * BLOCK_BYTES + (i & (BLOCK_BYTES - 1)), (byte) i);
      }
    }
  }

  @Benchmark
  public int read(PerThread t) {
    int block = t.random.nextInt(blocks);
    return switch (mode) {
      case HEAP_IN_PLACE -> touch(heapBlocks[block]);
      case DIRECT_COPY -> {
        direct.get(block * BLOCK_BYTES, t.scratch, 0, BLOCK_BYTES);
        yield touch(t.scratch);
      }
      case DIRECT_IN_PLACE -> touchInPlace(block * BLOCK_BYTES);
    };
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

  private int touchInPlace(int base) {
    int sum = 0;
    for (int i = 0; i < TOUCHED_LINES; i++) {
      sum += direct.get(base + offsetOf(i));
    }
    return sum;
  }
}
