package dev.strata.bench.ycsb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code results.csv} of a YCSB run: the {@link YcsbRow#HEADER} line, then one row per engine,
 * workload, thread count and operation. No cell holds a comma, so nothing is quoted.
 *
 * <p>Immutable (static methods only).
 */
final class YcsbResults {
  static final String FILE = "results.csv";

  private YcsbResults() {}

  static void write(Path file, List<YcsbRow> rows) throws IOException {
    StringBuilder s = new StringBuilder(String.join(",", YcsbRow.HEADER)).append('\n');
    rows.forEach(r -> s.append(r.csv()).append('\n'));
    Files.writeString(file, s, StandardCharsets.UTF_8);
  }

  static List<YcsbRow> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(String.join(",", YcsbRow.HEADER))) {
      throw new IOException(file + " does not start with the YCSB results header");
    }
    List<YcsbRow> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      rows.add(YcsbRow.parse(line));
    }
    return rows;
  }
}
