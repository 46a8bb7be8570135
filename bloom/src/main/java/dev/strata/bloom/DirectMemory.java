package dev.strata.bloom;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads of direct memory by address, through {@code sun.misc.Unsafe}, for the readers that read
 * bytes where they lie in a direct buffer: a filter's words ({@link FilterWords}) and, in the
 * sstable module, an off-heap cached block searched in place. Why not the buffer's own accessors: a
 * reader makes dozens of small reads, and each through the buffer reloads its limit, scope and
 * address behind the exception edges of its scoped access (docs/PERFORMANCE.md, "Pinned filters off
 * the heap").
 *
 * <p>No method checks anything: the caller reads only inside a buffer it holds, after its own
 * bounds check, and fences the buffer's reachability after each read
 * ({@code Reference.reachabilityFence}), so that its memory is not freed mid-read.
 *
 * <p>Thread-safe (static methods only).
 */
public final class DirectMemory {
  private static final sun.misc.Unsafe UNSAFE = unsafe();

  /** Offset of {@code java.nio.Buffer.address}, or -1 where these reads are not available. */
  private static final long ADDRESS_FIELD = addressField();

  private static final long BYTE_ARRAY_BASE = UNSAFE == null ? 0 : sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET;

  private DirectMemory() {}

  /**
   * Whether memory can be read by address here: Unsafe and the buffers' address field present, and
   * a little-endian machine (the multi-byte reads are of little-endian formats). Else callers read
   * through the buffer or copy.
   */
  public static boolean supported() {
    return ADDRESS_FIELD >= 0;
  }

  /** The address of byte 0 of {@code direct}, a direct buffer; only when {@link #supported}. */
  public static long address(ByteBuffer direct) {
    return UNSAFE.getLong(direct, ADDRESS_FIELD);
  }

  public static byte getByte(long address) {
    return UNSAFE.getByte(address);
  }

  /** The little-endian int at {@code address}, aligned or not. */
  public static int getInt(long address) {
    return UNSAFE.getInt(address);
  }

  /** The little-endian long at {@code address}, aligned or not. */
  public static long getLong(long address) {
    return UNSAFE.getLong(address);
  }

  /** The little-endian long at {@code array[index, index + 8)}, which the caller checked is inside. */
  public static long getLong(byte[] array, int index) {
    return UNSAFE.getLong(array, BYTE_ARRAY_BASE + index);
  }

  /** Copies {@code n} bytes from {@code address} into {@code dst} from {@code offset} (checked by the caller). */
  public static void copy(long address, byte[] dst, int offset, int n) {
    UNSAFE.copyMemory(null, address, dst, BYTE_ARRAY_BASE + offset, n);
  }

  private static sun.misc.Unsafe unsafe() {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  private static long addressField() {
    if (UNSAFE == null || ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
      return -1;
    }
    try {
      return UNSAFE.objectFieldOffset(java.nio.Buffer.class.getDeclaredField("address"));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return -1;
    }
  }
}
