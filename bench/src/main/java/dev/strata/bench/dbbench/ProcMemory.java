package dev.strata.bench.dbbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's resident memory from {@code /proc/self/status}: {@code VmRSS} (now) and {@code
 * VmHWM} (the peak since the process started; each phase is its own process, so the phase's peak).
 *
 * @param rssMib resident set size now, MiB; null where unavailable
 * @param peakMib peak resident set size, MiB; null where unavailable. The kernel raises {@code
 *     VmHWM} lazily (when memory is unmapped, not on every page fault), so it can lag {@code VmRSS}:
 *     the peak is the larger of the two, read from the same snapshot of the file
 *
 * <p>Immutable.
 */
record ProcMemory(Double rssMib, Double peakMib) {
  private static final Path FILE = Path.of("/proc/self/status");

  /** The figures now; both null where the file cannot be read. */
  static ProcMemory now() {
    try {
      Double rss = null;
      Double hwm = null;
      for (String line : Files.readAllLines(FILE)) {
        if (line.startsWith("VmRSS:")) {
          rss = kib(line) / 1024.0;
        } else if (line.startsWith("VmHWM:")) {
          hwm = kib(line) / 1024.0;
        }
      }
      return new ProcMemory(rss, hwm == null || rss == null ? hwm : Math.max(hwm, rss));
    } catch (IOException | RuntimeException e) {
      return new ProcMemory(null, null);
    }
  }

  private static long kib(String line) {
    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim().split("\\s+")[0]);
  }
}
