package dev.strata.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * The child process of {@link LevelZeroCompactionTest}, started under a low {@code ulimit -n}:
 * builds {@code args[1]} level-0 tables in {@code args[0]} (automatic compaction off, one flush
 * each, every table spanning the whole key space), with {@code maxOpenFiles(args[2])}, reads every
 * key, compacts everything, reads every key again by Get and by a scan, reopens and reads once
 * more, and prints {@code ok <tables before> <tables after> <most fds>} or fails with a non-zero
 * exit.
 */
final class LevelZeroCompactionChild {
  /** Keys per table: every table spans the key space, as a memtable of random writes does. */
  static final int KEYS_PER_TABLE = 4;

  private LevelZeroCompactionChild() {}

  static DbOptions options(int maxOpenFiles) {
    return DbOptions.builder()
        .autoCompaction(false)
        .maxOpenFiles(maxOpenFiles)
        .level0SlowdownTrigger(1 << 16)
        .level0StopTrigger(1 << 16)
        .blockSizeBytes(512)
        .build();
  }

  static byte[] key(int table, int i) {
    // Table t writes keys t, t + n, t + 2n, ...: every table overlaps every other.
    return String.format("key%08d", i * 100_000 + table).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] value(int table, int i) {
    return ("v" + table + "-" + i).getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int tables = Integer.parseInt(args[1]);
    DbOptions options = options(Integer.parseInt(args[2]));
    int most = 0;
    long before;
    long after;
    try (Db db = Db.open(dir, options)) {
      for (int t = 0; t < tables; t++) {
        for (int i = 0; i < KEYS_PER_TABLE; i++) {
          db.put(key(t, i), value(t, i));
        }
        db.flush();
        if (t % 100 == 0) {
          most = Math.max(most, openDescriptors());
        }
      }
      before = db.stats().tableCount();
      most = Math.max(most, readAll(db, tables, false));
      db.compact();
      most = Math.max(most, openDescriptors());
      after = db.stats().tableCount();
      most = Math.max(most, readAll(db, tables, true));
    }
    try (Db db = Db.open(dir, options)) {
      most = Math.max(most, readAll(db, tables, true));
    }
    System.out.println("ok " + before + " " + after + " " + most);
  }

  /** Reads every key by Get (and by a scan when asked); returns the most descriptors seen. */
  private static int readAll(Db db, int tables, boolean scan) throws IOException {
    int most = 0;
    for (int t = 0; t < tables; t++) {
      for (int i = 0; i < KEYS_PER_TABLE; i++) {
        if (!Arrays.equals(value(t, i), db.get(key(t, i)))) {
          throw new AssertionError("table " + t + " key " + i + ": wrong value");
        }
      }
      if (t % 100 == 0) {
        most = Math.max(most, openDescriptors());
      }
    }
    if (scan) {
      int seen = 0;
      try (CellScanner cells = db.scan(null, null)) {
        while (cells.hasNext()) {
          cells.next();
          seen++;
        }
      }
      if (seen != tables * KEYS_PER_TABLE) {
        throw new AssertionError("scan saw " + seen + " of " + tables * KEYS_PER_TABLE);
      }
    }
    return Math.max(most, openDescriptors());
  }

  private static int openDescriptors() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return (int) fds.count();
    }
  }
}
