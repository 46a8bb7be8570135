package dev.strata.bench.dbbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads and writes {@link Result} rows as CSV with the {@link Column} header. No cell holds a comma
 * or a quote (numbers, names and space-separated level lists), so no quoting is needed; a header
 * that is not exactly the columns of this build is rejected.
 *
 * <p>Immutable (static methods only).
 */
final class ResultsFile {
  private ResultsFile() {}

  /** The header line. */
  static String header() {
    return String.join(",", Arrays.stream(Column.values()).map(Column::label).toList());
  }

  static void write(Path file, List<Result> rows) throws IOException {
    StringBuilder s = new StringBuilder(header()).append('\n');
    for (Result r : rows) {
      for (Column c : Column.values()) {
        String cell = r.get(c);
        if (cell.indexOf(',') >= 0 || cell.indexOf('"') >= 0 || cell.indexOf('\n') >= 0) {
          throw new IllegalStateException("cell of " + c.label() + " needs quoting: " + cell);
        }
        if (c.ordinal() > 0) {
          s.append(',');
        }
        s.append(cell);
      }
      s.append('\n');
    }
    Files.writeString(file, s, StandardCharsets.UTF_8);
  }

  static List<Result> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(header())) {
      throw new IOException(file + " does not start with the results header of this build");
    }
    Column[] columns = Column.values();
    List<Result> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      if (cells.length != columns.length) {
        throw new IOException(file + ": " + cells.length + " cells where " + columns.length
            + " columns are expected: " + line);
      }
      Result r = new Result();
      for (int i = 0; i < columns.length; i++) {
        r.setRaw(columns[i], cells[i]);
      }
      rows.add(r);
    }
    return rows;
  }
}
