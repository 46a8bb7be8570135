package dev.strata.engine.fs;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * How many more file descriptors this process may open, where it can be known. The database
 * opens its tables ahead of reads at open, a descriptor each; it must leave the application, the
 * JVM's own class loading and the engine's logs and manifest room to run, and never turn an open
 * that would have worked into one that fails for want of descriptors.
 *
 * <p>On Linux it reads what the JDK's {@code UnixOperatingSystemMXBean} reads, the soft limit in
 * {@code /proc/self/limits} and the entries of {@code /proc/self/fd}, directly: the bean's first
 * use in a JVM loads the management library and the platform's management classes, a cost the
 * open would otherwise pay. Elsewhere it asks the bean.
 *
 * <p>Thread-safe (static methods only).
 */
public final class FileDescriptors {
  private static final Path LIMITS = Path.of("/proc/self/limits");
  private static final Path OPEN = Path.of("/proc/self/fd");
  private static final String MAX_OPEN_FILES = "Max open files";

  private FileDescriptors() {}

  /** Descriptors free under the process's limit now, or {@link Long#MAX_VALUE} when unknown. */
  public static long free() {
    if (Files.isDirectory(OPEN)) {
      try {
        return free(softLimit(Files.readAllLines(LIMITS)), countOpen());
      } catch (IOException | RuntimeException e) {
        // /proc unreadable here: ask the bean
      }
    }
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      return free(unix.getMaxFileDescriptorCount(), unix.getOpenFileDescriptorCount());
    }
    return Long.MAX_VALUE;
  }

  private static long free(long max, long open) {
    return max < 0 || open < 0 ? Long.MAX_VALUE : Math.max(0, max - open);
  }

  /**
   * The soft limit of the "Max open files" line of {@code /proc/self/limits}; -1 when it is
   * "unlimited" or the line is missing.
   */
  static long softLimit(List<String> limits) {
    for (String line : limits) {
      if (line.startsWith(MAX_OPEN_FILES)) {
        String soft = line.substring(MAX_OPEN_FILES.length()).trim().split("\\s+")[0];
        return soft.equals("unlimited") ? -1 : Long.parseLong(soft);
      }
    }
    return -1;
  }

  /** Entries of /proc/self/fd (the stream listing it holds one of them, as the bean's does). */
  private static long countOpen() throws IOException {
    long n = 0;
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(OPEN)) {
      for (Path ignored : fds) {
        n++;
      }
    }
    return n;
  }
}
