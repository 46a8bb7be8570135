package dev.strata.bench.cache;

import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.ClockBlockCache;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
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
 * Cache hits per second as reader threads are added: {@link ClockBlockCache} (no lock on a hit),
 * Caffeine (buffered reordering) and the old {@link LruBlockCache} (a shard lock per hit). The cache
 * holds every block asked for, so every call is a hit; keys are drawn from a Zipfian distribution so
 * some blocks are hot, as filter chunks and index partitions are.
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main CacheHitBenchmark -t 1
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main CacheHitBenchmark -t 2
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main CacheHitBenchmark -t 4
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main CacheHitBenchmark -t 8
 * </pre>
 *
 * <p>Thread-safe as JMH uses it: the cache is shared, each thread has its own {@link Reader}.
 */
// Throughput: hits are tens of nanoseconds; ops/us reads directly as millions of hits per second.
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// Two 1 s warmups compile the hit path; three 2 s iterations measure it.
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class CacheHitBenchmark {
  /** Distinct blocks; a power of two. */
  private static final int BLOCKS = 1 << 16;

  /** The cache under test. */
  public enum Impl {
    CLOCK,
    CAFFEINE,
    LRU_OLD
  }

  @Param({"CLOCK", "CAFFEINE", "LRU_OLD"})
  public Impl impl;

  BlockCache cache;
  BlockCacheKey[] keys;

  private record Blob(int sizeBytes) implements CachedBlock {}

  @Setup
  public void setUp() throws IOException {
    long capacity = 1L << 30;
    cache = switch (impl) {
      case CLOCK -> new ClockBlockCache(capacity);
      case CAFFEINE -> new CaffeineBlockCache(capacity, ForkJoinPool.commonPool());
      case LRU_OLD -> new LruBlockCache(capacity);
    };
    keys = new BlockCacheKey[BLOCKS];
    for (int i = 0; i < BLOCKS; i++) {
      keys[i] = new BlockCacheKey(1 + i % 64, (long) i * 4096);
      cache.getOrLoad(keys[i], BlockKind.DATA, () -> new Blob(4096));
    }
  }

  /** One reader thread's key sequence. */
  @State(Scope.Thread)
  public static class Reader {
    int[] order;
    int next;

    @Setup
    public void setUp() {
      ZipfianRanks zipf = new ZipfianRanks(BLOCKS, 0.99, new SplittableRandom().nextLong());
      order = new int[1 << 20];
      for (int i = 0; i < order.length; i++) {
        order[i] = (int) zipf.next();
      }
    }
  }

  @Benchmark
  public CachedBlock hit(Reader reader) throws IOException {
    int i = reader.order[reader.next++ & (reader.order.length - 1)];
    return cache.getOrLoad(keys[i], BlockKind.DATA, () -> {
      throw new IOException("every block is cached");
    });
  }
}
