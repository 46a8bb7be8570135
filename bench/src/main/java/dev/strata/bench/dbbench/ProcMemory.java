package dev.strata.bench.dbbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's resident memory from {@code /proc/self/status}: {@code VmRSS} (now) and {@code
 * VmHWM} (the peak since the process started; each phase is its own process, so the phase's peak).
 *
 * <p>Immutable (static methods only).
 */
final class ProcMemory {
  private static final Path FILE = Path.of("/proc/self/status");

  private ProcMemory() {}

  /** Resident set size now, MiB; null where unavailable. */
  static Double rssMib() {
    return field("VmRSS:");
  }

  /**
   * Peak resident set size, MiB; null where unavailable. The kernel raises {@code VmHWM} lazily
   * (when memory is unmapped, not on every page fault), so it can lag {@code VmRSS}: the peak is
   * the larger of the two.
   */
  static Double peakRssMib() {
    Double hwm = field("VmHWM:");
    Double rss = field("VmRSS:");
    return hwm == null || rss == null ? hwm : Math.max(hwm, rss);
  }

  private static Double field(String name) {
    try {
      for (String line : Files.readAllLines(FILE)) {
        if (line.startsWith(name)) {
          String kb = line.substring(name.length()).trim().split("\\s+")[0];
          return Long.parseLong(kb) / 1024.0;
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return null;
  }
}
