package dev.strata.sstable.io;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Frees a direct buffer's memory now, as Netty and Lucene do ({@code sun.misc.Unsafe.invokeCleaner},
 * in the {@code jdk.unsupported} module every JDK ships), instead of when the collector finds the
 * buffer unreachable. Only for memory no thread can read any more: a read after the free reads
 * unmapped or reused memory and can crash the JVM rather than throw. Without Unsafe the call does
 * nothing and the collector frees the buffer as usual.
 *
 * <p>Thread-safe (static methods only).
 */
public final class DirectBuffers {
  private static final MethodHandle INVOKE_CLEANER = invokeCleaner();

  private DirectBuffers() {}

  /**
   * Frees {@code buffer}, a direct buffer allocated whole (not a slice or duplicate), that no
   * thread reads from now on.
   *
   * @throws IllegalStateException when Unsafe refuses (a slice, a heap buffer)
   */
  public static void free(ByteBuffer buffer) {
    if (INVOKE_CLEANER == null) {
      return; // no Unsafe here: the collector frees it with the buffer object
    }
    try {
      INVOKE_CLEANER.invokeExact(buffer);
    } catch (Throwable t) {
      throw new IllegalStateException("could not free a direct buffer", t);
    }
  }

  private static MethodHandle invokeCleaner() {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field f = unsafeClass.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      Object unsafe = f.get(null);
      return MethodHandles.lookup()
          .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
          .bindTo(unsafe);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
