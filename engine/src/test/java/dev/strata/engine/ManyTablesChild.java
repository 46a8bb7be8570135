package dev.strata.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * The child process of {@link TableCacheLimitTest}, started under a low {@code ulimit -n}: opens the
 * database in {@code args[0]} with {@code maxOpenFiles(args[1])}, reads every key Gets and a scan,
 * compacts everything, reads again, and prints {@code ok <cells> <tables before> <most fds>} or
 * fails with a non-zero exit. Keys are {@link TableCacheLimitTest#key}, values {@link
 * TableCacheLimitTest#value}.
 */
final class ManyTablesChild {
  private ManyTablesChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int maxOpenFiles = Integer.parseInt(args[1]);
    int keys = Integer.parseInt(args[2]);
    DbOptions options = TableCacheLimitTest.options().toBuilder().maxOpenFiles(maxOpenFiles).build();
    int mostFds = 0;
    long tablesBefore;
    try (Db db = Db.open(dir, options)) {
      tablesBefore = db.stats().tableCount();
      mostFds = Math.max(mostFds, readAll(db, keys));
      db.compact();
      mostFds = Math.max(mostFds, openDescriptors());
      mostFds = Math.max(mostFds, readAll(db, keys));
    }
    System.out.println("ok " + keys + " " + tablesBefore + " " + mostFds);
  }

  /** Reads every key by Get and by one scan; returns the descriptors open at the busiest moment. */
  private static int readAll(Db db, int keys) throws IOException {
    int most = 0;
    for (int i = 0; i < keys; i++) {
      byte[] v = db.get(TableCacheLimitTest.key(i));
      if (!Arrays.equals(TableCacheLimitTest.value(i), v)) {
        throw new AssertionError("key " + i + ": wrong value");
      }
      if (i % 1000 == 0) {
        most = Math.max(most, openDescriptors());
      }
    }
    int seen = 0;
    try (CellScanner cells = db.scan(null, null)) {
      while (cells.hasNext()) {
        Cell c = cells.next();
        if (!Arrays.equals(TableCacheLimitTest.key(seen), c.row())
            || !Arrays.equals(TableCacheLimitTest.value(seen), c.value())) {
          throw new AssertionError("scan: cell " + seen + " wrong");
        }
        seen++;
        if (seen % 1000 == 0) {
          most = Math.max(most, openDescriptors());
        }
      }
    }
    if (seen != keys) {
      throw new AssertionError("scan saw " + seen + " of " + keys + " cells");
    }
    return most;
  }

  private static int openDescriptors() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return (int) fds.count();
    }
  }
}
