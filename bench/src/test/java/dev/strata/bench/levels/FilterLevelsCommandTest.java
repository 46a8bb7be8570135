package dev.strata.bench.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bench.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI smoke of {@code filterlevels}: tiny sizes, all five configurations (three of Strata, two
 * of RocksDB) in one run, each with filter bytes and a false-positive figure in the CSV.
 */
final class FilterLevelsCommandTest {
  @TempDir Path tmp;

  @Test
  void filterlevels_tinyRun_reportsFilterBytesAndFalsePositivesForEveryConfiguration()
      throws IOException {
    Path csv = tmp.resolve("filters.csv");
    CliRun run = CliRun.of("filterlevels", "--dir", tmp.resolve("db").toString(), "--keys", "6000",
        "--gets", "1000", "--flush-keys", "1000", "--file-mib", "1", "--csv", csv.toString());
    assertEquals(0, run.status(), run.err());

    List<String> lines = Files.readAllLines(csv);
    assertEquals(FilterReport.CSV_COLUMNS, List.of(lines.get(0).split(",", -1)));
    List<String> totals = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      assertEquals(FilterReport.CSV_COLUMNS.size(), cells.length, line);
      assertTrue(Long.parseLong(cells[column("filter_bytes")]) > 0, "no filter bytes: " + line);
      if (cells[column("level")].equals("all")) {
        totals.add(cells[column("config")]);
        double fp = Double.parseDouble(cells[column("fp_per_absent_get")]);
        assertTrue(fp >= 0 && fp < 1, "false positives per absent Get " + fp + " in " + line);
        assertTrue(Double.parseDouble(cells[column("probes_per_absent_get")]) > 0, line);
        assertFalse(cells[column("fp_counted_as")].isEmpty(), line);
      }
    }
    List<String> all = new ArrayList<>();
    for (FilterLevelsCommand.Config c : FilterLevelsCommand.Config.values()) {
      all.add(c.name());
    }
    assertEquals(all, totals);

    // The Ribbon policy really applied, and it is the only table setting the two RocksDB setups
    // do not share.
    assertTrue(run.out().contains("filter_policy={id=ribbonfilter:10:1;bloom_before_level=1;}"),
        run.out());
    assertTrue(run.out().contains("filter_policy=bloomfilter:10:false"), run.out());
    String differ = run.out().lines().filter(l -> l.contains("differ only in:")).findFirst()
        .orElseThrow();
    assertTrue(differ.endsWith("differ only in: filter_policy (bloomfilter:10:false"
        + " / {id=ribbonfilter:10:1;bloom_before_level=1;})"), differ);
  }

  @Test
  void differing_namesEachKeyWithBothValues() {
    assertEquals(List.of("b (1 / 2)", "c (null / 3)"),
        FilterReport.differing(Map.of("a", "0", "b", "1"), Map.of("a", "0", "b", "2", "c", "3")));
  }

  private static int column(String name) {
    return FilterReport.CSV_COLUMNS.indexOf(name);
  }
}
