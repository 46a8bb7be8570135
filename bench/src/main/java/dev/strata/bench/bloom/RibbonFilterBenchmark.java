package dev.strata.bench.bloom;

import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.bloom.RibbonBuilder;
import dev.strata.bloom.RibbonFilter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The Ribbon filter against the blocked Bloom filter at the same false-positive rate, both sized by
 * rate ({@code forFalsePositiveRate}), the way a table builds them: chunk by chunk, each chunk of
 * {@value #CHUNK_KEYS} keys its own filter (a 128 KiB Ribbon chunk at 1%).
 *
 * <p>{@code build} builds one chunk's filter from its precomputed {@code KeyHash} values (for the
 * blocked filter: allocate at the bits per key the rate needs, found once at setup as a table
 * writer would per configuration, then {@code putHash} each; for the Ribbon filter: {@code
 * forFalsePositiveRate}, whose sizing is arithmetic); the score is microseconds per chunk, so ns
 * per key is the score times 1000 / {@value #CHUNK_KEYS}. Run it with {@code -prof gc}: {@code
 * gc.alloc.rate.norm} is the bytes one build allocates, the finished filter included, so the
 * temporary memory per chunk is that minus the filter's size (printed at setup).
 *
 * <p>{@code buildReusing} is {@code build} with the Ribbon filter built in one {@code
 * RibbonBuilder}'s arrays, reused from one build to the next as a table writer does; its {@code
 * gc.alloc.rate.norm} is then the filter alone, and the builder's arrays are the temporary memory.
 *
 * <p>{@code negativePrehashed} and {@code positivePrehashed} make {@value #BATCH} independent
 * lookups per call over all the chunks of {@code keys} keys (each query asks the chunk its key
 * belongs to, as a Get does after the index has picked the chunk); the score is ns per lookup. At
 * {@value #CHUNK_KEYS} keys one filter sits in the L2/L3; at 50M keys the 333 filters (44 MB of
 * Ribbon, 62 MB of blocked) are DRAM-resident and every lookup misses.
 *
 * <p>At setup each trial prints the filters' bits per key, the model's rate and the rate measured
 * over 2^23 absent keys with the model's 95% interval.
 *
 * <p>Run (from the repository root, after {@code mvn -q -B package -DskipTests -pl bench -am}):
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main 'RibbonFilterBenchmark.build' \
 *     -p keys=150000 -prof gc
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main 'RibbonFilterBenchmark.*Prehashed' \
 *     -p keys=150000,50000000
 * </pre>
 *
 * <p>Not thread-safe: run with one benchmark thread (the default).
 */
// Average time per call: microseconds per chunk build, nanoseconds per lookup (set per method).
@BenchmarkMode(Mode.AverageTime)
// Three 1 s warmups: C2 compiles the banding and probe loops within the first fraction of a second.
@Warmup(iterations = 3, time = 1)
// Five 1 s iterations: the machine is noisy, and JMH's error bar needs several samples.
@Measurement(iterations = 5, time = 1)
// A fixed, pre-touched 3 GiB heap: at 50M keys the trial holds 400 MB of member hashes, 64 MB of
// absent ones and up to 106 MB of filters, and one chunk build at most about 5 MB of temporary
// arrays; the heap never resizes and page faults happen before the first warmup.
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class RibbonFilterBenchmark {
  /** Keys per chunk filter: a 128 KiB Ribbon filter at 1% (the tables' default chunk bytes). */
  public static final int CHUNK_KEYS = 150_000;

  /** Lookups per benchmark call. */
  public static final int BATCH = 1024;

  /** Pooled queries: 2^20 random chunks and lines, twice the L3 at 50M keys. */
  private static final int POOL = 1 << 20;

  /** Absent keys the setup's rate check queries: about 84,000 false positives at 1%. */
  private static final int RATE_QUERIES = 1 << 23;

  /** Seed of the random member indices the positive queries use, and of absent keys' chunks. */
  private static final long QUERY_SEED = 0x7269_6262_6f6e_0001L;

  /** The filters compared. */
  public enum Kind {
    /** {@code BlockedBloomFilter.forFalsePositiveRate}, filled by {@code putHash}. */
    BLOCKED,
    /** {@code RibbonFilter.forFalsePositiveRate}, built from the chunk's hashes. */
    RIBBON
  }

  /** The filter under test. */
  @Param({"BLOCKED", "RIBBON"})
  public Kind kind;

  /**
   * Where the lookups' filters lie: {@code HEAP} as built (heap words), {@code DIRECT} serialized
   * and read back into direct memory as a pinning open does ({@code BlockedBloomFilter.inPlace},
   * {@code RibbonFilter.offHeap}), {@code MIXED} every other chunk so, which makes the probe's word
   * reads see both kinds of memory (a database with pinned and lazily cached chunks).
   */
  public enum Memory {
    HEAP,
    DIRECT,
    MIXED
  }

  /** Where the filters lie. */
  @Param({"HEAP", "DIRECT"})
  public Memory memory;

  /** Keys in all the chunks together. */
  @Param({"150000", "50000000"})
  public int keys;

  /** The rate both filters are sized for. */
  @Param({"0.01"})
  public double fpp;

  private final RibbonBuilder ribbonBuilder = new RibbonBuilder();
  private long[] memberHashes;
  private double blockedBitsPerKey;
  private BlockedBloomFilter[] blocked;
  private RibbonFilter[] ribbon;

  private long[] positiveHashes;
  private int[] positiveChunks;
  private long[] negativeHashes;
  private int[] negativeChunks;
  private int cursor;

  /**
   * Hashes every member key, builds every chunk's filter, fills the query pools and checks the
   * filters: no false negatives on the positive pool; prints the sizes and rates.
   */
  @Setup
  public void setUp(BenchmarkParams params) {
    byte[] scratch = new byte[BenchKeys.KEY_BYTES];
    memberHashes = new long[keys];
    for (int i = 0; i < keys; i++) {
      memberHashes[i] = BenchKeys.memberHash(i, scratch);
    }
    int first = Math.min(CHUNK_KEYS, keys);
    blockedBitsPerKey =
        (double) BlockedBloomFilter.forFalsePositiveRate(first, fpp).bitSize() / first;
    int chunks = (keys + CHUNK_KEYS - 1) / CHUNK_KEYS;
    blocked = new BlockedBloomFilter[chunks];
    ribbon = new RibbonFilter[chunks];
    long bits = 0;
    double modelSum = 0;
    for (int c = 0; c < chunks; c++) {
      int from = c * CHUNK_KEYS;
      int count = Math.min(CHUNK_KEYS, keys - from);
      long[] chunk = Arrays.copyOfRange(memberHashes, from, from + count);
      if (kind == Kind.BLOCKED) {
        blocked[c] = fillBlocked(BlockedBloomFilter.forFalsePositiveRate(count, fpp), chunk, count);
        bits += blocked[c].bitSize();
        modelSum += blocked[c].expectedFpp(count);
      } else {
        ribbon[c] = RibbonFilter.forFalsePositiveRate(chunk, count, fpp);
        bits += ribbon[c].bitSize();
        modelSum += ribbon[c].expectedFpp();
      }
    }
    for (int c = 0; c < chunks; c++) {
      if (memory == Memory.DIRECT || (memory == Memory.MIXED && c % 2 == 0)) {
        if (kind == Kind.BLOCKED) {
          blocked[c] = BlockedBloomFilter.inPlace(direct(blocked[c].toByteArray()));
        } else {
          ribbon[c] = RibbonFilter.offHeap(direct(ribbon[c].toByteArray()));
        }
      }
    }
    fillPools(chunks, scratch);
    verifyAndReport(params, chunks, bits, modelSum / chunks, scratch);
  }

  /** {@code bytes} in direct memory, as a table's open reads a chunk. */
  private static ByteBuffer direct(byte[] bytes) {
    return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
  }

  /** Builds the first chunk's filter from its hashes. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public Object build() {
    return buildFirstChunk(false);
  }

  /**
   * {@link #build}, the Ribbon filter in a builder's arrays reused from one build to the next, as
   * a table writer builds its chunks (the blocked filter as in {@link #build}).
   */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public Object buildReusing() {
    return buildFirstChunk(true);
  }

  private Object buildFirstChunk(boolean reuseRibbonArrays) {
    int count = Math.min(CHUNK_KEYS, keys);
    if (kind == Kind.BLOCKED) {
      return buildBlocked(memberHashes, count, blockedBitsPerKey);
    }
    return reuseRibbonArrays
        ? ribbonBuilder.forFalsePositiveRate(memberHashes, count, fpp)
        : RibbonFilter.forFalsePositiveRate(memberHashes, count, fpp);
  }

  /** Negative lookups, pre-hashed: the common case of a Get on a table that lacks the key. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  @OperationsPerInvocation(BATCH)
  public int negativePrehashed() {
    return lookup(negativeHashes, negativeChunks, nextBatch());
  }

  /** Positive lookups, pre-hashed: every column or probe is checked (no early exit). */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  @OperationsPerInvocation(BATCH)
  public int positivePrehashed() {
    return lookup(positiveHashes, positiveChunks, nextBatch());
  }

  private static BlockedBloomFilter buildBlocked(long[] hashes, int count, double bitsPerKey) {
    return fillBlocked(BlockedBloomFilter.create(count, bitsPerKey), hashes, count);
  }

  private static BlockedBloomFilter fillBlocked(
      BlockedBloomFilter filter, long[] hashes, int count) {
    for (int i = 0; i < count; i++) {
      filter.putHash(hashes[i]);
    }
    return filter;
  }

  private int nextBatch() {
    int base = cursor;
    cursor = (base + BATCH) & (POOL - 1);
    return base;
  }

  private int lookup(long[] hashes, int[] chunks, int base) {
    return kind == Kind.BLOCKED
        ? lookupBlocked(blocked, hashes, chunks, base, BATCH)
        : lookupRibbon(ribbon, hashes, chunks, base, BATCH);
  }

  // One loop per filter type, so each call site stays monomorphic.

  private static int lookupBlocked(
      BlockedBloomFilter[] filters, long[] hashes, int[] chunks, int base, int n) {
    int hits = 0;
    for (int i = base; i < base + n; i++) {
      hits += filters[chunks[i]].mightContainHash(hashes[i]) ? 1 : 0;
    }
    return hits;
  }

  private static int lookupRibbon(
      RibbonFilter[] filters, long[] hashes, int[] chunks, int base, int n) {
    int hits = 0;
    for (int i = base; i < base + n; i++) {
      hits += filters[chunks[i]].mightContainHash(hashes[i]) ? 1 : 0;
    }
    return hits;
  }

  private void fillPools(int chunks, byte[] scratch) {
    SplittableRandom random = new SplittableRandom(QUERY_SEED);
    positiveHashes = new long[POOL];
    positiveChunks = new int[POOL];
    negativeHashes = new long[POOL];
    negativeChunks = new int[POOL];
    for (int i = 0; i < POOL; i++) {
      int member = random.nextInt(keys);
      positiveHashes[i] = memberHashes[member];
      positiveChunks[i] = member / CHUNK_KEYS;
      negativeHashes[i] = BenchKeys.absentHash(i, scratch);
      negativeChunks[i] = random.nextInt(chunks);
    }
  }

  private void verifyAndReport(
      BenchmarkParams params, int chunks, long bits, double model, byte[] scratch) {
    int[] chunkOf = new int[BATCH];
    long[] batch = new long[BATCH];
    for (int base = 0; base < POOL; base += BATCH) {
      int found = lookup(positiveHashes, positiveChunks, base);
      if (found != BATCH) {
        throw new IllegalStateException(kind + " filter lost " + (BATCH - found) + " member keys");
      }
    }
    SplittableRandom random = new SplittableRandom(QUERY_SEED + 1);
    long falsePositives = 0;
    for (int done = 0; done < RATE_QUERIES; done += BATCH) {
      for (int i = 0; i < BATCH; i++) {
        batch[i] = BenchKeys.absentHash(POOL + done + i, scratch);
        chunkOf[i] = random.nextInt(chunks);
      }
      falsePositives +=
          kind == Kind.BLOCKED
              ? lookupBlocked(blocked, batch, chunkOf, 0, BATCH)
              : lookupRibbon(ribbon, batch, chunkOf, 0, BATCH);
    }
    double measured = falsePositives / (double) RATE_QUERIES;
    double halfWidth = 1.96 * Math.sqrt(model * (1 - model) / RATE_QUERIES);
    int count = Math.min(CHUNK_KEYS, keys);
    long firstBytes =
        kind == Kind.BLOCKED
            ? blocked[0].toByteArray().length
            : ribbon[0].toByteArray().length;
    System.out.printf(
        Locale.ROOT,
        "%n%s %s keys=%d chunks=%d: %.3f bits/key, model %.4f%%, measured %.4f%% over %d absent"
            + " keys (95%% interval %.4f-%.4f%%: %s); first chunk %d keys, %d bytes serialized%n",
        params.getBenchmark(),
        kind,
        keys,
        chunks,
        bits / (double) keys,
        100 * model,
        100 * measured,
        RATE_QUERIES,
        100 * (model - halfWidth),
        100 * (model + halfWidth),
        Math.abs(measured - model) <= halfWidth ? "inside" : "OUTSIDE",
        count,
        firstBytes);
  }
}
