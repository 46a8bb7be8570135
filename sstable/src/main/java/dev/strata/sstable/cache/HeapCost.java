package dev.strata.sstable.cache;

/**
 * What an object really costs on the heap, for honest cache weights: the block cache charges an
 * entry's payload arrays, their headers, the objects that hold them, and its own bookkeeping.
 *
 * <p>The figures are those of 64-bit HotSpot with compressed references and compressed class
 * pointers, the layout of every heap under 32 GiB (the default there): an object header of 12 bytes,
 * an array header of 16 (12 plus the length), a reference of 4, every object rounded up to 8 bytes.
 * JOL prints the same layouts for the classes weighed here. On a larger heap without compressed
 * references headers and references grow, and the cache undercounts by a few bytes per object; the
 * payload arrays, which dominate every block, are exact in both layouts.
 *
 * <p>Thread-safe (constants and pure functions).
 */
public final class HeapCost {
  /** An object's header: mark word (8) and compressed class pointer (4). */
  public static final int OBJECT_HEADER = 12;

  /** An array's header: an object header and the 4-byte length. */
  public static final int ARRAY_HEADER = 16;

  /** A compressed reference. */
  public static final int REFERENCE = 4;

  /** Objects start at multiples of this. */
  public static final int ALIGNMENT = 8;

  private HeapCost() {}

  /** {@code bytes} rounded up to the object alignment. */
  public static long align(long bytes) {
    return (bytes + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** A {@code byte[length]}. */
  public static long byteArray(int length) {
    return align(ARRAY_HEADER + (long) length);
  }

  /** A {@code long[length]}. */
  public static long longArray(int length) {
    return align(ARRAY_HEADER + 8L * length);
  }

  /** An object whose fields take {@code fieldBytes}. */
  public static long object(int fieldBytes) {
    return align(OBJECT_HEADER + (long) fieldBytes);
  }
}
