package dev.strata.engine.fs;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * How many more file descriptors this process may open, where the JDK can say (on Unix). The
 * database opens its tables ahead of reads at open, a descriptor each; it must leave the
 * application, the JVM's own class loading and the engine's logs and manifest room to run, and
 * never turn an open that would have worked into one that fails for want of descriptors.
 *
 * <p>Thread-safe (static methods only).
 */
public final class FileDescriptors {
  private FileDescriptors() {}

  /** Descriptors free under the process's limit now, or {@link Long#MAX_VALUE} when unknown. */
  public static long free() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      long max = unix.getMaxFileDescriptorCount();
      long open = unix.getOpenFileDescriptorCount();
      return max < 0 || open < 0 ? Long.MAX_VALUE : Math.max(0, max - open);
    }
    return Long.MAX_VALUE;
  }
}
