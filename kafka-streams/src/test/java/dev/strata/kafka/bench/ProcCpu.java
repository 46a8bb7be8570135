package dev.strata.kafka.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Where a phase's CPU went, by thread, for any engine: Java threads and native ones (RocksDB's
 * {@code rocksdb:low}/{@code rocksdb:high}, the collector's) alike, from {@code /proc/self/task/N/stat},
 * and the bytes the process wrote by system calls ({@code wchar} of {@code /proc/self/io}). Thread
 * names are grouped with their digits dropped ({@code strata-compaction-1} counts as {@code
 * strata-compaction-}); a thread that ended during the phase is counted in the process's total only.
 *
 * @param process the process's CPU, user and system, in clock ticks
 * @param byThread CPU ticks by thread group
 * @param wchar bytes written by system calls
 *
 * <p>Immutable.
 */
record ProcCpu(long process, Map<String, Long> byThread, long wchar) {
  /** Linux's {@code USER_HZ}: the unit of the stat files' times. */
  private static final double TICKS_PER_SECOND = 100;

  /** The counters now; zeros where {@code /proc} cannot be read. */
  static ProcCpu now() {
    Map<String, Long> threads = new TreeMap<>();
    long process = 0;
    long wchar = 0;
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          String stat = Files.readString(task.resolve("stat"));
          String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
              .replaceAll("[0-9]+", "");
          threads.merge(name, ticks(stat), Long::sum);
        } catch (IOException ended) {
          // The thread ended between the listing and the read.
        }
      }
      process = ticks(Files.readString(Path.of("/proc/self/stat")));
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith("wchar:")) {
          wchar = Long.parseLong(line.substring(6).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      return new ProcCpu(process, threads, wchar);
    }
    return new ProcCpu(process, threads, wchar);
  }

  /** utime + stime: fields 14 and 15, counted after the parenthesized command name. */
  private static long ticks(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /**
   * A report of what happened since {@code before}: process CPU and each thread group's (in
   * microseconds per record when {@code records > 0}), and bytes written per {@code logicalBytes}.
   */
  String since(ProcCpu before, long records, long logicalBytes) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "process cpu_s=%.2f us_per_record=%.3f%n",
        (process - before.process) / TICKS_PER_SECOND,
        (process - before.process) / TICKS_PER_SECOND * 1e6 / records));
    byThread.forEach((name, t) -> {
      long d = t - before.byThread.getOrDefault(name, 0L);
      if (d > 0) {
        b.append(String.format(Locale.ROOT, "thread %s cpu_s=%.2f us_per_record=%.3f%n", name,
            d / TICKS_PER_SECOND, d / TICKS_PER_SECOND * 1e6 / records));
      }
    });
    b.append(String.format(Locale.ROOT, "wchar_mib=%.1f per_logical_byte=%.2f%n",
        (wchar - before.wchar) / 1048576.0, (double) (wchar - before.wchar) / logicalBytes));
    return b.toString();
  }
}
