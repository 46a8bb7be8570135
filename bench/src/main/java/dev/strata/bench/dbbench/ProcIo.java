package dev.strata.bench.dbbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's I/O counters from {@code /proc/self/io}: {@code rchar} and {@code wchar} (bytes
 * passed to read and write system calls, page cache hits included) and {@code read_bytes} and
 * {@code write_bytes} (bytes the process caused to be read from or sent to the storage device).
 * Both engines run inside this process (RocksDB through JNI), so the same counters measure both.
 *
 * @param rchar bytes read by system calls
 * @param readCalls read system calls ({@code syscr})
 * @param wchar bytes written by system calls
 * @param readBytes bytes fetched from the storage device
 * @param writeBytes bytes sent towards the storage device
 *
 * <p>Immutable.
 */
record ProcIo(long rchar, long readCalls, long wchar, long readBytes, long writeBytes) {
  private static final Path FILE = Path.of("/proc/self/io");

  /** The counters now, or null where the kernel does not offer them (not Linux, or restricted). */
  static ProcIo now() {
    try {
      long rchar = -1;
      long readCalls = -1;
      long wchar = -1;
      long readBytes = -1;
      long writeBytes = -1;
      for (String line : Files.readAllLines(FILE)) {
        int colon = line.indexOf(':');
        if (colon < 0) {
          continue;
        }
        long v = Long.parseLong(line.substring(colon + 1).trim());
        switch (line.substring(0, colon)) {
          case "rchar" -> rchar = v;
          case "syscr" -> readCalls = v;
          case "wchar" -> wchar = v;
          case "read_bytes" -> readBytes = v;
          case "write_bytes" -> writeBytes = v;
          default -> { }
        }
      }
      return rchar < 0 || readCalls < 0 || wchar < 0 || readBytes < 0 || writeBytes < 0
          ? null : new ProcIo(rchar, readCalls, wchar, readBytes, writeBytes);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** This minus {@code before}. */
  ProcIo minus(ProcIo before) {
    return new ProcIo(rchar - before.rchar, readCalls - before.readCalls, wchar - before.wchar,
        readBytes - before.readBytes, writeBytes - before.writeBytes);
  }
}
