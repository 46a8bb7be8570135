package dev.strata.bench.common;

import java.util.SplittableRandom;

/**
 * Values that compress like db_bench's {@code --compression_ratio}: they are cut from a 1 MiB pool
 * made of 100-byte pieces, each a random printable string of {@code ratio * 100} bytes repeated to
 * fill the piece, so LZ4 shrinks a value to about {@code ratio} of its size. The pool depends on the
 * seed only, so every engine and every process of a run writes the same bytes.
 *
 * <p>Immutable.
 */
public final class CompressibleValues {
  /** Size of the value pool, as db_bench's RandomGenerator. */
  private static final int POOL_BYTES = 1 << 20;

  /** Size of one compressible piece of the pool, as db_bench. */
  private static final int PIECE_BYTES = 100;

  /** Mixed into the seed so the pool is independent of key streams drawn from the same seed. */
  private static final long POOL_SALT = 0x76616c7565L;

  private final int valueBytes;
  private final byte[] pool;

  /** Values of {@code valueBytes} bytes compressing to about {@code ratio}, from {@code seed}. */
  public CompressibleValues(int valueBytes, double ratio, long seed) {
    if (valueBytes < 0) {
      throw new IllegalArgumentException("valueBytes must be >= 0: " + valueBytes);
    }
    if (!(ratio > 0 && ratio <= 1)) {
      throw new IllegalArgumentException("ratio must be in (0, 1]: " + ratio);
    }
    this.valueBytes = valueBytes;
    this.pool = pool(Math.max(POOL_BYTES, valueBytes), ratio, new SplittableRandom(seed ^ POOL_SALT));
  }

  /** Bytes of every value. */
  public int valueBytes() {
    return valueBytes;
  }

  /** Value {@code index}: a fresh array of {@code valueBytes} bytes of the pool. */
  public byte[] value(long index) {
    long span = pool.length - valueBytes + 1L;
    int at = (int) (Math.floorMod(index * valueBytes, span));
    byte[] v = new byte[valueBytes];
    System.arraycopy(pool, at, v, 0, valueBytes);
    return v;
  }

  private static byte[] pool(int size, double ratio, SplittableRandom r) {
    byte[] pool = new byte[size];
    int raw = Math.max(1, (int) (PIECE_BYTES * ratio));
    byte[] piece = new byte[raw];
    for (int at = 0; at < size; at += PIECE_BYTES) {
      for (int i = 0; i < raw; i++) {
        piece[i] = (byte) (' ' + r.nextInt(95));
      }
      for (int i = 0; i < PIECE_BYTES && at + i < size; i++) {
        pool[at + i] = piece[i % raw];
      }
    }
    return pool;
  }
}
