package dev.strata.kafka.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The process's resident memory from {@code /proc/self/status}: {@code VmRSS} and {@code VmHWM}. */
final class Rss {
  private Rss() {}

  /** {current, peak} in MiB; NaN where the file cannot be read. */
  static double[] now() {
    double rss = Double.NaN;
    double hwm = Double.NaN;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          rss = kib(line) / 1024.0;
        } else if (line.startsWith("VmHWM:")) {
          hwm = kib(line) / 1024.0;
        }
      }
    } catch (IOException e) {
      return new double[] {rss, hwm};
    }
    return new double[] {rss, Math.max(rss, hwm)};
  }

  private static long kib(String line) {
    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim().split("\\s+")[0]);
  }
}
