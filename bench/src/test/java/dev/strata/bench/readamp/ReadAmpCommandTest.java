package dev.strata.bench.readamp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bench.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CI smoke of {@code readamp}: tiny sizes, every row and column of the report, the plots. */
final class ReadAmpCommandTest {
  @TempDir Path tmp;


  @Test
  void readamp_tinyRun_reportsEveryRowAndColumnAndWritesThePlots() throws IOException {
    Path out = tmp.resolve("report");
    CliRun run = CliRun.of("readamp", "--keys", "2000", "--tables", "1,2", "--gets", "200",
        "--fpr-bits", "6", "--quiet", "--out", out.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("Report: " + out.resolve("report.md").toAbsolutePath()),
        run.out());

    List<String> lines = Files.readAllLines(out.resolve("results.csv"));
    List<String> header = List.of(lines.get(0).split(",", -1));
    for (String column : ResultsCsv.REQUIRED_COLUMNS) {
      assertTrue(header.contains(column), "missing column " + column + " in " + header);
    }
    assertEquals(ResultsCsv.REQUIRED_COLUMNS, header.subList(0, ResultsCsv.REQUIRED_COLUMNS.size()));
    Set<String> seen = new HashSet<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      assertEquals(header.size(), cells.length, line);
      String key = String.join("|", cells[header.indexOf("engine")], cells[header.indexOf("bloom")],
          cells[header.indexOf("shape")], cells[header.indexOf("phase")],
          cells[header.indexOf("tables")], cells[header.indexOf("query")]);
      assertTrue(seen.add(key), "duplicate row " + key);
      for (String always : List.of("gets", "ops_per_sec", "p50_us", "p99_us",
          "data_blocks_read_per_get", "bytes_read_per_get", "filter_bits_per_key")) {
        assertFalse(cells[header.indexOf(always)].isEmpty(), always + " empty in " + line);
      }
    }
    List<String> expected = new ArrayList<>();
    for (Setup setup : Setup.values()) {
      for (Shape shape : Shape.values()) {
        for (QueryKind q : QueryKind.values()) {
          for (String tables : List.of("1", "2")) {
            expected.add(String.join("|", setup.engine().label(), setup.bloom(), shape.label(),
                "l0", tables, q.label()));
          }
          expected.add(String.join("|", setup.engine().label(), setup.bloom(), shape.label(),
              "compacted", "1", q.label()));
        }
      }
    }
    assertEquals(new HashSet<>(expected), seen);

    List<String> sweep = Files.readAllLines(out.resolve("fpr_sweep.csv"));
    assertEquals(1 + 4, sweep.size(), "one absent_row row per filtered setup: " + sweep);
    for (String png : List.of("data_blocks_read_vs_tables.png",
        "data_blocks_accessed_vs_tables.png", "fpr_vs_bits_per_key.png", "throughput_ratio.png")) {
      assertTrue(Files.size(out.resolve(png)) > 1000, png);
    }
    try (Stream<Path> files = Files.list(out)) {
      List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
      assertFalse(names.contains("data"), "databases are deleted: " + names);
      assertFalse(names.contains(".tmp"), "the temporary folder is deleted: " + names);
    }
    assertTrue(Files.readString(out.resolve("report.md")).contains("## Parity"));
  }

  @Test
  void readamp_moreTablesThanRows_isAUsageError() {
    CliRun run = CliRun.of("readamp", "--keys", "20", "--columns", "10", "--tables", "4", "--quiet",
        "--out", tmp.resolve("x").toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("--tables must not exceed the rows of a workload (2)"), run.err());
  }
}
