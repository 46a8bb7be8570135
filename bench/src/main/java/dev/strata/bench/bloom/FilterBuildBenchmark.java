package dev.strata.bench.bloom;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.bloom.ClassicBloomFilter;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Build cost of the blocked filter, the classic filter and Guava's {@code BloomFilter}: one
 * benchmark call allocates an empty filter for {@code keys} keys and puts them all. The score is
 * milliseconds per build; divide by {@code keys} for the cost per key ({@code strata-bench filters}
 * prints ns/key).
 *
 * <p>{@code fromHashes} puts precomputed 64-bit {@code KeyHash} values ({@code putHash}), the way
 * an SSTable writer collects hashes while it writes and fills the filter at finish. Guava has no
 * pre-hashed entry point: its variant puts the same hashes through a {@link Funnels#longFunnel()},
 * boxing each (Guava then hashes the long with Murmur3_128). {@code fromKey16} puts 16-byte keys
 * derived from their index into one reused buffer (hashing included, XXH3-64 for the Strata
 * filters, Murmur3_128 for Guava); the key derivation costs the same few ns per key for every
 * kind.
 *
 * <p>Run (from the repository root, after {@code mvn -q -pl bench package -DskipTests}):
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main FilterBuildBenchmark -p keys=1000000
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main FilterBuildBenchmark.fromHashes \
 *     -p kind=BLOCKED,CLASSIC -p keys=50000000
 * </pre>
 *
 * <p>At 50M keys one build takes seconds (Guava's tens of seconds), so an iteration is one call.
 *
 * <p>Not thread-safe: run with one benchmark thread (the default).
 */
// Average time per complete build: a 1 s iteration holds ~100 builds of 1M keys or one of 50M.
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Two warmups: the put loop is compiled after the first few hundred thousand keys.
@Warmup(iterations = 2, time = 1)
// Three measured iterations: at 50M each is a single multi-second build, enough to average noise.
@Measurement(iterations = 3, time = 1)
// A fixed, pre-touched 2 GiB heap: the largest trial holds 400 MB of hashes (50M longs) plus a
// 62.5 MB filter being built and the previous one as garbage, so the heap never resizes and page
// faults happen before the first warmup, not during a build.
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class FilterBuildBenchmark {
  /** The filter under test. */
  @Param({"BLOCKED", "CLASSIC", "GUAVA"})
  public FilterKind kind;

  /** Keys put in the filter. */
  @Param({"1000000", "50000000"})
  public long keys;

  /** Bits per key of every filter (Guava via the equivalent false-positive rate). */
  @Param({"10"})
  public double bitsPerKey;

  /** The member keys' hashes, only for {@code fromHashes}. */
  private long[] hashes;

  private final byte[] scratch = new byte[BenchKeys.KEY_BYTES];

  /** Precomputes the hashes when the benchmark method needs them (400 MB at 50M keys). */
  @Setup
  public void setUp(BenchmarkParams params) {
    if (params.getBenchmark().endsWith("fromHashes")) {
      if (keys > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("keys too large for one long[] of hashes: " + keys);
      }
      hashes = new long[(int) keys];
      for (int i = 0; i < hashes.length; i++) {
        hashes[i] = BenchKeys.memberHash(i, scratch);
      }
    }
  }

  /** Builds a filter from precomputed 64-bit hashes. */
  @Benchmark
  public Object fromHashes() {
    long[] h = hashes;
    switch (kind) {
      case BLOCKED -> {
        BlockedBloomFilter filter = BlockedBloomFilter.create(keys, bitsPerKey);
        for (long hash : h) {
          filter.putHash(hash);
        }
        return filter;
      }
      case CLASSIC -> {
        ClassicBloomFilter filter = ClassicBloomFilter.create(keys, bitsPerKey);
        for (long hash : h) {
          filter.putHash(hash);
        }
        return filter;
      }
      case GUAVA -> {
        BloomFilter<Long> filter =
            BloomFilter.create(Funnels.longFunnel(), keys, FilterKind.guavaFppFor(bitsPerKey));
        for (long hash : h) {
          filter.put(hash);
        }
        return filter;
      }
      default -> throw new AssertionError(kind);
    }
  }

  /** Builds a filter from 16-byte keys, hashing included. */
  @Benchmark
  public Object fromKey16() {
    byte[] key = scratch;
    switch (kind) {
      case BLOCKED -> {
        BlockedBloomFilter filter = BlockedBloomFilter.create(keys, bitsPerKey);
        for (long i = 0; i < keys; i++) {
          BenchKeys.member(i, key, 0);
          filter.put(key);
        }
        return filter;
      }
      case CLASSIC -> {
        ClassicBloomFilter filter = ClassicBloomFilter.create(keys, bitsPerKey);
        for (long i = 0; i < keys; i++) {
          BenchKeys.member(i, key, 0);
          filter.put(key);
        }
        return filter;
      }
      case GUAVA -> {
        BloomFilter<byte[]> filter =
            BloomFilter.create(Funnels.byteArrayFunnel(), keys, FilterKind.guavaFppFor(bitsPerKey));
        for (long i = 0; i < keys; i++) {
          BenchKeys.member(i, key, 0);
          filter.put(key);
        }
        return filter;
      }
      default -> throw new AssertionError(kind);
    }
  }
}
