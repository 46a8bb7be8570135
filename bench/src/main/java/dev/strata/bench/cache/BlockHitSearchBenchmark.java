package dev.strata.bench.cache;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockBuilder;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.OffHeapCopy;
import dev.strata.sstable.block.PointSearch;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A Get's data-block hit and point search, without the tables around it: a random row of a random
 * data block (about 30 entries of 100-byte values, 4 KiB, as the tables write them) in a block
 * cache of {@code cacheMb}, looked up, searched ({@link PointSearch}) and its value copied.
 * {@code HEAP}: the heap cache, the block searched in its array. {@code OFF_HEAP}: the off-heap
 * cache as a Get reads it ({@link OffHeapCopy#toHeap} with the thread's scratch block: in place
 * when the block's slots are one run, validated after). {@code OFF_HEAP_COPY}: the off-heap cache,
 * the block copied into a reusable block first and searched there (what every off-heap hit did
 * before the search in place).
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main BlockHitSearchBenchmark -p cacheMb=64,1024
 * </pre>
 *
 * <p>Thread-safe as JMH uses it (each thread its own view, block and random numbers).
 */
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@State(Scope.Benchmark)
public class BlockHitSearchBenchmark {
  private static final Path FILE = Path.of("benchmark");
  private static final byte[] EMPTY = new byte[0];
  private static final int ROWS_PER_BLOCK = 30;

  @Param({"64", "1024"})
  int cacheMb;

  /** Where the block lies and how a hit reads it. */
  public enum Mode {
    HEAP,
    OFF_HEAP,
    OFF_HEAP_COPY
  }

  @Param({"HEAP", "OFF_HEAP", "OFF_HEAP_COPY"})
  Mode mode;

  private ClockBlockCache cache;
  private int blocks;

  /** Each thread's view, copy block, search and random numbers. */
  @State(Scope.Thread)
  public static class PerThread {
    final OffHeapBlock view = new OffHeapBlock();
    final Block copy = OffHeapCopy.reusableBlock();
    final PointSearch search = new PointSearch();
    final SplittableRandom random = new SplittableRandom(System.identityHashCode(Thread.currentThread()));
    final byte[] row = new byte[15];
  }

  private static byte[] row(int block, int i) {
    return fill(new byte[15], block, i);
  }

  /** "row", then {@code block} in 8 digits and {@code i} in 4, into {@code row}: no formatting per Get. */
  private static byte[] fill(byte[] row, int block, int i) {
    row[0] = 'r';
    row[1] = 'o';
    row[2] = 'w';
    for (int d = 10; d >= 3; d--, block /= 10) {
      row[d] = (byte) ('0' + block % 10);
    }
    for (int d = 14; d >= 11; d--, i /= 10) {
      row[d] = (byte) ('0' + i % 10);
    }
    return row;
  }

  @Setup
  public void setup() throws CorruptTableException {
    long capacity = (long) cacheMb << 20;
    cache = new ClockBlockCache(capacity, 16, mode != Mode.HEAP);
    blocks = (int) (capacity * 8 / 10 / 4800); // what fits with the entries' overhead
    byte[] value = new byte[100];
    for (int b = 0; b < blocks; b++) {
      BlockBuilder builder = new BlockBuilder(16);
      for (int i = 0; i < ROWS_PER_BLOCK; i++) {
        byte[] k = KeyCodec.encodeInternalKey(new InternalKey(row(b, i), EMPTY, 1, ValueKind.PUT));
        value[0] = (byte) i;
        builder.add(k, k.length, value, 0, value.length);
      }
      int length = builder.estimatedSize();
      byte[] payload = Arrays.copyOf(builder.finish(), length);
      Block block = Block.parse(payload, length, BlockType.DATA, FILE, (long) b << 12);
      BlockCacheKey key = new BlockCacheKey(1, (long) b << 12);
      cache.put(key, BlockKind.DATA, block);
      cache.getIfPresent(key, BlockKind.DATA); // hit once: promoted past probation
    }
  }

  @TearDown
  public void tearDown() {
    cache.close();
  }

  @Benchmark
  public int hit(PerThread t) {
    int b = t.random.nextInt(blocks);
    int i = t.random.nextInt(ROWS_PER_BLOCK);
    CachedBlock cached = cache.getIfPresent(1, (long) b << 12, BlockKind.DATA, t.view);
    Block block;
    if (cached instanceof OffHeapBlock o) {
      block = mode == Mode.OFF_HEAP_COPY
          ? OffHeapCopy.toHeapInto(o, t.copy, FILE, (long) b << 12)
          : OffHeapCopy.toHeap(o, true, FILE, (long) b << 12);
    } else {
      block = (Block) cached;
    }
    if (block == null) {
      return -1;
    }
    PointSearch s = t.search.target(fill(t.row, b, i), EMPTY, InternalKey.MAX_SEQUENCE);
    int found = s.scan(block, s.interval(block), false);
    return found == PointSearch.FOUND ? s.value()[0] : -found;
  }
}
