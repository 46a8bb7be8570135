package dev.strata.bloom;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.Objects;

/**
 * The 64-bit hash of every filter key: XXH3-64 with seed 0 (hash id {@link BloomFormat#HASH_XXH3_64}).
 *
 * <p>It is part of the on-disk format: a filter written today is probed with this hash by every
 * future release, so the function and its seed never change; a new function would get a new hash
 * id. Golden vectors in {@code KeyHashTest} pin it to the XXH3 reference values.
 *
 * <p>Why XXH3 through hash4j: measured on 8 to 64 byte keys ({@code KeyHashBenchmark} in bench,
 * figures in docs/PERFORMANCE.md) it was the fastest candidate (about 5 ns for 16 bytes, against
 * about 13 ns for lz4-java's safe XXH64, 28 ns for its JNI instance, whose call overhead dominates
 * on short keys, and about 39 ns for Guava's Murmur3), and hash4j is a small, dependency-free,
 * well-kept library.
 *
 * <p>Thread-safe (stateless).
 */
public final class KeyHash {
  private static final Hasher64 XXH3 = Hashing.xxh3_64();

  private KeyHash() {}

  /**
   * Hashes {@code bytes[offset, offset + length)}.
   *
   * @throws NullPointerException if {@code bytes} is null
   * @throws IndexOutOfBoundsException if the range does not lie within {@code bytes}
   */
  public static long hash64(byte[] bytes, int offset, int length) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.checkFromIndexSize(offset, length, bytes.length);
    return XXH3.hashBytesToLong(bytes, offset, length);
  }

  /** Hashes all of {@code bytes}. */
  public static long hash64(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return XXH3.hashBytesToLong(bytes, 0, bytes.length);
  }
}
