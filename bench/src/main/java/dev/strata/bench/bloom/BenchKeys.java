package dev.strata.bench.bloom;

import dev.strata.bloom.KeyHash;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The keys every filter benchmark and the FPR table use: 16-byte keys derived from an index, so no
 * benchmark has to hold millions of {@code byte[]} objects, and the same index always gives the
 * same key in every JVM.
 *
 * <p>Member key {@code i} is {@code (a, mix(a) ^ MEMBER_TAG)} and absent key {@code i} is {@code
 * (a, mix(a) ^ ABSENT_TAG)}, with {@code a = mix(i + seed)} written as two little-endian longs.
 * {@code mix} (the Stafford variant-13 finalizer, as in {@link java.util.SplittableRandom}) is a
 * bijection of the longs, so two keys with equal first halves come from the same index, and then
 * their second halves differ by {@code MEMBER_TAG ^ ABSENT_TAG}: the member and absent sets are
 * disjoint for every index, not just probably.
 *
 * <p>Immutable (static methods only); thread-safe.
 */
public final class BenchKeys {
  /** Length of every benchmark key: a typical short row key, and the size the research used. */
  public static final int KEY_BYTES = 16;

  /** Fixed seed of the key stream: all runs and JVMs see the same keys. */
  private static final long KEY_SEED = 0x5eed_57a7_a000_0001L;

  /** Tag xor-ed into the second half of member keys. */
  private static final long MEMBER_TAG = 0x6d65_6d62_6572_0000L;

  /** Tag xor-ed into the second half of absent keys; differs from {@link #MEMBER_TAG}. */
  private static final long ABSENT_TAG = 0x6162_7365_6e74_0000L;

  /** Little-endian long view of a byte array. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private BenchKeys() {}

  /** Writes member key {@code index} into {@code dst[offset, offset + 16)}. */
  public static void member(long index, byte[] dst, int offset) {
    write(index, MEMBER_TAG, dst, offset);
  }

  /** Writes absent key {@code index} into {@code dst[offset, offset + 16)}. */
  public static void absent(long index, byte[] dst, int offset) {
    write(index, ABSENT_TAG, dst, offset);
  }

  /** A new array holding member key {@code index}. */
  public static byte[] member(long index) {
    byte[] key = new byte[KEY_BYTES];
    member(index, key, 0);
    return key;
  }

  /** A new array holding absent key {@code index}. */
  public static byte[] absent(long index) {
    byte[] key = new byte[KEY_BYTES];
    absent(index, key, 0);
    return key;
  }

  /** {@link KeyHash#hash64} of member key {@code index}; {@code scratch} holds >= 16 bytes. */
  public static long memberHash(long index, byte[] scratch) {
    member(index, scratch, 0);
    return KeyHash.hash64(scratch, 0, KEY_BYTES);
  }

  /** {@link KeyHash#hash64} of absent key {@code index}; {@code scratch} holds >= 16 bytes. */
  public static long absentHash(long index, byte[] scratch) {
    absent(index, scratch, 0);
    return KeyHash.hash64(scratch, 0, KEY_BYTES);
  }

  private static void write(long index, long tag, byte[] dst, int offset) {
    long a = mix(index + KEY_SEED);
    LONGS.set(dst, offset, a);
    LONGS.set(dst, offset + Long.BYTES, mix(a) ^ tag);
  }

  /** Stafford's variant 13 of the MurmurHash3 finalizer: a bijection on 64-bit values. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
