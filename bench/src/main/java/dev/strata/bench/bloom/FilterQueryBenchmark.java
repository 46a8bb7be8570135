package dev.strata.bench.bloom;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.bloom.ClassicBloomFilter;
import dev.strata.bloom.KeyHash;
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
 * Lookup cost of the blocked filter, the classic filter and Guava's {@code BloomFilter}: negative
 * and positive lookups, pre-hashed and on 16-byte keys with the hash included, on a filter of 1
 * million keys (1.25 MB at 10 bits/key: cache-resident) and of 50 million keys (62.5 MB: DRAM and
 * TLB misses).
 *
 * <p>Each call makes {@value #BATCH} independent lookups (so cache misses overlap, as a batch of
 * gets over many tables would) and the score is ns per lookup. Queries cycle through a pool of up
 * to 2^20 precomputed hashes or keys: for the 50M filter that is a million random 64-byte lines,
 * twice the L3, so repeating the pool does not warm the cache for the next pass. Positive queries
 * are member keys drawn at random (fixed seed); negative queries come from a set disjoint from the
 * members ({@link BenchKeys}). The filter is built in the trial setup from keys streamed from their
 * index, never all held at once.
 *
 * <p>Inputs: {@code *Prehashed} methods query a 64-bit {@code KeyHash} value ({@code
 * mightContainHash}); Guava has no pre-hashed entry point, so its variant is a {@code
 * BloomFilter<Long>} with {@link Funnels#longFunnel()} over the same hashes (boxed once in setup):
 * Guava then still runs Murmur3_128 over the 8-byte long, which is the cost a Guava user with
 * pre-hashed keys pays. {@code *Key16} methods pass the 16-byte key ({@code mightContain(byte[])}):
 * XXH3-64 for the Strata filters, Murmur3_128 inside Guava ({@link Funnels#byteArrayFunnel()}).
 * Guava is sized by {@link FilterKind#guavaFppFor} to the same bits per key (p = 0.00819 at 10).
 *
 * <p>Run (from the repository root, after {@code mvn -q -pl bench package -DskipTests}):
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main FilterQueryBenchmark -p keys=1000000
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main 'FilterQueryBenchmark.negative.*' \
 *     -p kind=BLOCKED,CLASSIC -p keys=50000000
 * </pre>
 *
 * <p>{@code java -jar bench/target/strata-bench.jar filters} runs a short configuration of this and
 * prints it as a table with the ratios.
 *
 * <p>Not thread-safe: run with one benchmark thread (the default).
 */
// Average time per lookup in ns: with @OperationsPerInvocation the score is ns per lookup directly.
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// Three 1 s warmups: C2 compiles the lookup loop within the first fraction of a second.
@Warmup(iterations = 3, time = 1)
// Five 1 s iterations: the machine is noisy, and JMH's error bar needs several samples.
@Measurement(iterations = 5, time = 1)
// A fixed, pre-touched 2 GiB heap: the largest trial holds ~200 MB (a 62.5 MB filter plus 1 Mi
// pooled hashes, keys and boxed Longs), so the heap never resizes and page faults happen before the
// first warmup, not during a measurement.
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class FilterQueryBenchmark {
  /** Lookups per benchmark call. */
  public static final int BATCH = 1024;

  /** Most pooled queries per pool: 2^20 random lines = 64 MiB touched, twice the 32 MiB L3. */
  private static final int MAX_POOL = 1 << 20;

  /** Fewest pooled queries per pool, so tiny smoke-test filters still cycle through 16 batches. */
  private static final int MIN_POOL = 1 << 14;

  /** Seed of the random member indices the positive queries use. */
  private static final long POSITIVE_SEED = 0x9051_7140_0000_0002L;

  /** Largest tolerated false-positive rate on the negative pool: a broken filter must not run. */
  private static final double MAX_SANE_FPR = 0.05;

  /** The filter under test. */
  @Param({"BLOCKED", "CLASSIC", "GUAVA"})
  public FilterKind kind;

  /** Keys put in the filter. */
  @Param({"1000000", "50000000"})
  public long keys;

  /** Bits per key of every filter (Guava via the equivalent false-positive rate). */
  @Param({"10"})
  public double bitsPerKey;

  private BlockedBloomFilter blocked;
  private ClassicBloomFilter classic;
  private BloomFilter<Long> guavaHashes;
  private BloomFilter<byte[]> guavaKeys;

  private long[] memberHashes;
  private long[] absentHashes;
  private Long[] memberBoxed;
  private Long[] absentBoxed;
  private byte[][] memberKeys;
  private byte[][] absentKeys;

  /** Scratch for the hash-first methods: one batch of hashes. */
  private final long[] batchHashes = new long[BATCH];

  private int poolMask;
  private int cursor;

  /**
   * Builds the one filter the benchmark method needs (for Guava the {@code Long} filter for the
   * pre-hashed methods, the {@code byte[]} one otherwise), fills the query pools and checks the
   * filter: no false negatives on the positive pool, a sane rate on the negative one.
   */
  @Setup
  public void setUp(BenchmarkParams params) {
    boolean prehashed = params.getBenchmark().endsWith("Prehashed");
    build(prehashed);
    int pool = poolSize(keys);
    poolMask = pool - 1;
    fillPools(pool, prehashed);
    verify(prehashed);
  }

  /** Negative lookups, pre-hashed: the common case of a get on a table that lacks the key. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int negativePrehashed() {
    return lookupHashes(absentHashes, absentBoxed, nextBatch());
  }

  /** Positive lookups, pre-hashed: every probe is taken (no early exit). */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int positivePrehashed() {
    return lookupHashes(memberHashes, memberBoxed, nextBatch());
  }

  /** Negative lookups of 16-byte keys, hashing included. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int negativeKey16() {
    return lookupKeys(absentKeys, nextBatch());
  }

  /** Positive lookups of 16-byte keys, hashing included. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int positiveKey16() {
    return lookupKeys(memberKeys, nextBatch());
  }

  /**
   * Negative lookups of 16-byte keys, the batch's 1024 hashes computed first, then probed: what a
   * Get path that hashes a key once for all its tables, or a batched lookup, pays. Set against
   * {@link #negativeKey16} and {@link #negativePrehashed}, it separates the hash's own cost from
   * the overlap of misses it costs when it sits between them. Not in the {@code filters} run.
   * Guava has no pre-hashed entry point: for {@code GUAVA} this is {@link #negativeKey16}.
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int negativeKey16HashFirst() {
    return lookupKeysHashFirst(absentKeys, nextBatch());
  }

  /** Positive lookups of 16-byte keys, hashes first; see {@link #negativeKey16HashFirst}. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int positiveKey16HashFirst() {
    return lookupKeysHashFirst(memberKeys, nextBatch());
  }

  /** Pool size: the power of two nearest above {@code keys}, within [MIN_POOL, MAX_POOL]. */
  static int poolSize(long keys) {
    long atLeast = Math.max(MIN_POOL, Math.min(MAX_POOL, keys));
    return (int) Long.highestOneBit(atLeast - 1) << 1;
  }

  private int nextBatch() {
    int base = cursor;
    cursor = (base + BATCH) & poolMask;
    return base;
  }

  private int lookupHashes(long[] hashes, Long[] boxed, int base) {
    return switch (kind) {
      case BLOCKED -> blockedHashes(blocked, hashes, base);
      case CLASSIC -> classicHashes(classic, hashes, base);
      case GUAVA -> guavaHashes(guavaHashes, boxed, base);
    };
  }

  private int lookupKeys(byte[][] pool, int base) {
    return switch (kind) {
      case BLOCKED -> blockedKeys(blocked, pool, base);
      case CLASSIC -> classicKeys(classic, pool, base);
      case GUAVA -> guavaKeys(guavaKeys, pool, base);
    };
  }

  private int lookupKeysHashFirst(byte[][] pool, int base) {
    if (kind == FilterKind.GUAVA) {
      return guavaKeys(guavaKeys, pool, base);
    }
    long[] hashes = batchHashes;
    for (int i = 0; i < BATCH; i++) {
      byte[] key = pool[base + i];
      hashes[i] = KeyHash.hash64(key, 0, key.length);
    }
    return kind == FilterKind.BLOCKED
        ? blockedHashes(blocked, hashes, 0)
        : classicHashes(classic, hashes, 0);
  }

  // One loop per concrete type, so each call site stays monomorphic whatever kinds ran before.

  private static int blockedHashes(BlockedBloomFilter filter, long[] hashes, int base) {
    int hits = 0;
    for (int i = base; i < base + BATCH; i++) {
      hits += filter.mightContainHash(hashes[i]) ? 1 : 0;
    }
    return hits;
  }

  private static int classicHashes(ClassicBloomFilter filter, long[] hashes, int base) {
    int hits = 0;
    for (int i = base; i < base + BATCH; i++) {
      hits += filter.mightContainHash(hashes[i]) ? 1 : 0;
    }
    return hits;
  }

  private static int guavaHashes(BloomFilter<Long> filter, Long[] hashes, int base) {
    int hits = 0;
    for (int i = base; i < base + BATCH; i++) {
      hits += filter.mightContain(hashes[i]) ? 1 : 0;
    }
    return hits;
  }

  private static int blockedKeys(BlockedBloomFilter filter, byte[][] keys, int base) {
    int hits = 0;
    for (int i = base; i < base + BATCH; i++) {
      hits += filter.mightContain(keys[i]) ? 1 : 0;
    }
    return hits;
  }

  private static int classicKeys(ClassicBloomFilter filter, byte[][] keys, int base) {
    int hits = 0;
    for (int i = base; i < base + BATCH; i++) {
      hits += filter.mightContain(keys[i]) ? 1 : 0;
    }
    return hits;
  }

  private static int guavaKeys(BloomFilter<byte[]> filter, byte[][] keys, int base) {
    int hits = 0;
    for (int i = base; i < base + BATCH; i++) {
      hits += filter.mightContain(keys[i]) ? 1 : 0;
    }
    return hits;
  }

  private void build(boolean prehashed) {
    byte[] scratch = new byte[BenchKeys.KEY_BYTES];
    switch (kind) {
      case BLOCKED -> {
        blocked = BlockedBloomFilter.create(keys, bitsPerKey);
        for (long i = 0; i < keys; i++) {
          blocked.putHash(BenchKeys.memberHash(i, scratch));
        }
      }
      case CLASSIC -> {
        classic = ClassicBloomFilter.create(keys, bitsPerKey);
        for (long i = 0; i < keys; i++) {
          classic.putHash(BenchKeys.memberHash(i, scratch));
        }
      }
      case GUAVA -> {
        double fpp = FilterKind.guavaFppFor(bitsPerKey);
        if (prehashed) {
          guavaHashes = BloomFilter.create(Funnels.longFunnel(), keys, fpp);
          for (long i = 0; i < keys; i++) {
            guavaHashes.put(BenchKeys.memberHash(i, scratch));
          }
        } else {
          guavaKeys = BloomFilter.create(Funnels.byteArrayFunnel(), keys, fpp);
          for (long i = 0; i < keys; i++) {
            BenchKeys.member(i, scratch, 0);
            guavaKeys.put(scratch);
          }
        }
      }
    }
  }

  private void fillPools(int pool, boolean prehashed) {
    SplittableRandom random = new SplittableRandom(POSITIVE_SEED);
    byte[] scratch = new byte[BenchKeys.KEY_BYTES];
    if (prehashed) {
      memberHashes = new long[pool];
      absentHashes = new long[pool];
      for (int i = 0; i < pool; i++) {
        memberHashes[i] = BenchKeys.memberHash(random.nextLong(keys), scratch);
        absentHashes[i] = BenchKeys.absentHash(i, scratch);
      }
      if (kind == FilterKind.GUAVA) {
        memberBoxed = new Long[pool];
        absentBoxed = new Long[pool];
        for (int i = 0; i < pool; i++) {
          memberBoxed[i] = memberHashes[i];
          absentBoxed[i] = absentHashes[i];
        }
      }
    } else {
      memberKeys = new byte[pool][];
      absentKeys = new byte[pool][];
      for (int i = 0; i < pool; i++) {
        memberKeys[i] = BenchKeys.member(random.nextLong(keys));
        absentKeys[i] = BenchKeys.absent(i);
      }
    }
  }

  private void verify(boolean prehashed) {
    int pool = poolMask + 1;
    int positives = 0;
    int falsePositives = 0;
    for (int base = 0; base < pool; base += BATCH) {
      positives +=
          prehashed
              ? lookupHashes(memberHashes, memberBoxed, base)
              : lookupKeys(memberKeys, base);
      falsePositives +=
          prehashed
              ? lookupHashes(absentHashes, absentBoxed, base)
              : lookupKeys(absentKeys, base);
    }
    if (positives != pool) {
      throw new IllegalStateException(
          kind + " filter lost " + (pool - positives) + " of " + pool + " member keys");
    }
    if (falsePositives > MAX_SANE_FPR * pool) {
      throw new IllegalStateException(
          kind + " filter answers yes for " + falsePositives + " of " + pool + " absent keys");
    }
  }
}
