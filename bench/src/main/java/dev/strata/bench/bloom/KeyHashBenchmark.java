package dev.strata.bench.bloom;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import com.google.common.hash.HashFunction;
import dev.strata.bloom.KeyHash;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;
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

/**
 * The measurement behind {@code KeyHash}'s choice: 64-bit hashes of short keys (8, 16, 32 and 64
 * bytes, the lengths of typical row keys) with every candidate, ns per key.
 *
 * <p>Candidates: {@code keyHash} ({@link KeyHash#hash64}, what the filters call), {@code
 * xxh3Hash4j} (hash4j {@code Hashing.xxh3_64()}, which {@code KeyHash} wraps: the two should
 * match), {@code xxh64Hash4j} (hash4j XXH64), {@code xxh64Lz4Safe} and {@code xxh64Lz4Jni}
 * (lz4-java's {@code XXHashFactory.safeInstance()} / {@code nativeInstance()}), {@code
 * murmur3Guava} (Guava {@code murmur3_128().hashBytes(..).asLong()}, what Guava's Bloom filter
 * uses). Each call hashes {@value #KEYS} different keys at consecutive offsets of one array
 * (cache-resident: this measures the hash, not memory) and folds the results into the return value.
 *
 * <p>Run (from the repository root, after {@code mvn -q -pl bench package -DskipTests}):
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main KeyHashBenchmark
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main KeyHashBenchmark -wi 2 -i 3 -w 1 -r 1
 * </pre>
 *
 * <p>Not thread-safe: run with one benchmark thread (the default).
 */
// Average time per hashed key, in ns: the calls are independent, so this is throughput per key.
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// Three 1 s warmups: the hash loops are small and compile quickly.
@Warmup(iterations = 3, time = 1)
// Five 1 s iterations: several samples for an error bar on a noisy machine.
@Measurement(iterations = 5, time = 1)
// The same pre-touched fixed heap as the filter benchmarks (the data here is tiny): identical JVM
// settings keep the hash costs comparable with the hashing-included filter lookups.
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class KeyHashBenchmark {
  /** Keys hashed per benchmark call. */
  public static final int KEYS = 1024;

  /** Seed of the key bytes. */
  private static final long DATA_SEED = 0x4a54_4841_5348_0003L;

  /** hash4j XXH3-64, seed 0. */
  private static final Hasher64 XXH3 = Hashing.xxh3_64();

  /** hash4j XXH64, seed 0. */
  private static final Hasher64 XXH64 = Hashing.xxh64();

  /** lz4-java XXH64, pure-Java safe instance. */
  private static final XXHash64 LZ4_SAFE = XXHashFactory.safeInstance().hash64();

  /** Guava Murmur3_128, seed 0. */
  private static final HashFunction MURMUR3 = com.google.common.hash.Hashing.murmur3_128();

  /** Key length in bytes. */
  @Param({"8", "16", "32", "64"})
  public int length;

  private byte[] data;

  /** lz4-java's JNI instance, in a holder so a missing native library fails only its benchmark. */
  private static final class Lz4Jni {
    static final XXHash64 HASH = XXHashFactory.nativeInstance().hash64();
  }

  /** Fills the keys and checks that the candidates that claim the same function agree. */
  @Setup
  public void setUp() {
    data = new byte[KEYS * length];
    new SplittableRandom(DATA_SEED).nextBytes(data);
    for (int off = 0; off < data.length; off += length) {
      if (KeyHash.hash64(data, off, length) != XXH3.hashBytesToLong(data, off, length)) {
        throw new IllegalStateException("KeyHash.hash64 is not hash4j XXH3-64 with seed 0");
      }
      if (XXH64.hashBytesToLong(data, off, length) != LZ4_SAFE.hash(data, off, length, 0)) {
        throw new IllegalStateException("hash4j XXH64 and lz4-java XXH64 disagree");
      }
    }
  }

  /** {@link KeyHash#hash64}: what every filter lookup with a byte[] key pays. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public long keyHash() {
    long acc = 0;
    for (int off = 0, end = KEYS * length; off < end; off += length) {
      acc += KeyHash.hash64(data, off, length);
    }
    return acc;
  }

  /** hash4j XXH3-64. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public long xxh3Hash4j() {
    long acc = 0;
    for (int off = 0, end = KEYS * length; off < end; off += length) {
      acc += XXH3.hashBytesToLong(data, off, length);
    }
    return acc;
  }

  /** hash4j XXH64. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public long xxh64Hash4j() {
    long acc = 0;
    for (int off = 0, end = KEYS * length; off < end; off += length) {
      acc += XXH64.hashBytesToLong(data, off, length);
    }
    return acc;
  }

  /** lz4-java XXH64, safe (pure Java) instance. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public long xxh64Lz4Safe() {
    long acc = 0;
    for (int off = 0, end = KEYS * length; off < end; off += length) {
      acc += LZ4_SAFE.hash(data, off, length, 0);
    }
    return acc;
  }

  /** lz4-java XXH64, JNI instance: one native call per key. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public long xxh64Lz4Jni() {
    XXHash64 hash = Lz4Jni.HASH;
    long acc = 0;
    for (int off = 0, end = KEYS * length; off < end; off += length) {
      acc += hash.hash(data, off, length, 0);
    }
    return acc;
  }

  /** Guava Murmur3_128, first 64 bits. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public long murmur3Guava() {
    long acc = 0;
    for (int off = 0, end = KEYS * length; off < end; off += length) {
      acc += MURMUR3.hashBytes(data, off, length).asLong();
    }
    return acc;
  }
}
