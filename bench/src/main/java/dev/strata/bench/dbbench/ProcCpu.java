package dev.strata.bench.dbbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's processor time and this process's, from {@code /proc/stat} and {@code
 * /proc/self/stat} (both in clock ticks): what the rest of the machine used while a phase was
 * measured. A tail measured while other processes took the cores is the scheduler's as much as
 * the engine's: a runnable writer waits for a core in any call.
 *
 * <p>Immutable.
 */
record ProcCpu(long machineTotal, long machineBusy, long self) {
  private static final Path STAT = Path.of("/proc/stat");
  private static final Path SELF = Path.of("/proc/self/stat");

  /** Now, or null where {@code /proc} cannot be read (not Linux). */
  static ProcCpu now() {
    try {
      String[] cpu = Files.readAllLines(STAT).get(0).trim().split("\\s+");
      long total = 0;
      for (int i = 1; i < cpu.length && i <= 8; i++) { // user .. steal
        total += Long.parseLong(cpu[i]);
      }
      long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]); // idle, iowait
      String self = Files.readString(SELF);
      String[] f = self.substring(self.lastIndexOf(')') + 2).trim().split("\\s+");
      long own = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
      return new ProcCpu(total, total - idle, own);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The share of all the machine's processor time since {@code before} that other processes (and,
   * in a virtual machine, other guests: steal) used, percent; null when either is missing.
   */
  static Double othersPercent(ProcCpu before, ProcCpu after) {
    if (before == null || after == null || after.machineTotal <= before.machineTotal) {
      return null;
    }
    long others = (after.machineBusy - before.machineBusy) - (after.self - before.self);
    return 100.0 * Math.max(0, others) / (after.machineTotal - before.machineTotal);
  }
}
