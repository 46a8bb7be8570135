package dev.strata.bench.sstable;

import dev.strata.sstable.TableOptions;
import dev.strata.sstable.TableWriter;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The tables the sstable benchmarks read: {@code rows} rows {@code row000000000}, {@code
 * row000000002}, ... (even numbers only, so odd numbers are absent keys inside the table's range),
 * each with one cell under the empty column and a 16-byte value.
 *
 * <p>Thread-safe (stateless).
 */
final class BenchTables {
  private static final byte[] EMPTY = new byte[0];

  private BenchTables() {}

  /** The row of key number {@code i}: present when {@code i} is even. */
  static byte[] row(long i) {
    return String.format("row%09d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** Writes a table of {@code rows} present rows (numbers 0, 2, ..., 2 * (rows - 1)) into {@code dir}. */
  static Path write(Path dir, long fileNumber, long rows, TableOptions options) throws IOException {
    Path file = SstableFormat.tablePath(dir, fileNumber);
    byte[] value = new byte[16];
    try (TableWriter w = TableWriter.create(file, options)) {
      for (long i = 0; i < rows; i++) {
        value[0] = (byte) i;
        w.add(new InternalKey(row(2 * i), EMPTY, i + 1, ValueKind.PUT), value.clone());
      }
      w.finish();
    }
    return file;
  }

  /** Deletes {@code dir} and everything in it. */
  static void deleteRecursively(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
