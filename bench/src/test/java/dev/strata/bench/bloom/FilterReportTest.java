package dev.strata.bench.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Tables and target checks from synthetic scores. */
final class FilterReportTest {
  private static final long BIG = 50_000_000;

  private static FilterReport.Score score(String method, FilterKind kind, double value) {
    return new FilterReport.Score(method, kind, BIG, value, value - 1, value + 2.5);
  }

  private static final List<FilterReport.Score> LOOKUPS =
      List.of(
          score("negativePrehashed", FilterKind.BLOCKED, 30),
          score("negativePrehashed", FilterKind.CLASSIC, 90),
          score("negativePrehashed", FilterKind.GUAVA, 300),
          score("positivePrehashed", FilterKind.BLOCKED, 80),
          score("positivePrehashed", FilterKind.CLASSIC, 140),
          score("negativeKey16", FilterKind.BLOCKED, 100),
          score("negativeKey16", FilterKind.GUAVA, 330));

  @Test
  void lookupTable_scores_oneRowPerLookupWithSpeedups() {
    String table = FilterReport.lookupTable(LOOKUPS);

    List<String> lines = table.lines().toList();
    assertEquals(2 + 3, lines.size(), table);
    String negative = lines.get(2);
    assertTrue(negative.contains("50,000,000") && negative.contains("pre-hashed"), table);
    assertTrue(negative.contains("30.0 (29.0-32.5)"), table);
    assertTrue(negative.contains("10.00x") && negative.contains("3.00x"), table);
    assertTrue(lines.get(4).contains("16-byte key") && lines.get(4).contains("3.30x"), table);
    assertTrue(lines.get(3).trim().contains("-"), "missing Guava shows as '-': " + table);
  }

  @Test
  void targets_scores_passAndMissAsMeasured() {
    List<FilterReport.Score> builds =
        List.of(
            new FilterReport.Score("fromHashes", FilterKind.BLOCKED, 1_000_000, 12, 11, 13),
            new FilterReport.Score("fromHashes", FilterKind.CLASSIC, 1_000_000, 20, 20, 20));
    List<FprTable.Row> fpr =
        List.of(
            new FprTable.Row(FilterKind.BLOCKED, 10, 6, 1000, 100_000, 1010, 0.0098, 10, 1.25),
            new FprTable.Row(FilterKind.BLOCKED, 10.5, 6, 1000, 100_000, 900, 0.008, 10.5, 1.3));

    List<FilterReport.Target> targets = FilterReport.targets(LOOKUPS, builds, fpr);

    assertEquals(7, targets.size(), targets.toString());
    assertTrue(targets.get(0).pass(), "300/30 >= 8: " + targets.get(0));
    assertTrue(targets.get(1).pass(), "90/30 >= 2: " + targets.get(1));
    assertFalse(targets.get(2).pass(), "140/80 < 2: " + targets.get(2));
    assertTrue(targets.get(3).pass(), "330/100 >= 3: " + targets.get(3));
    assertTrue(targets.get(4).pass(), "12 <= 20 ns/key: " + targets.get(4));
    assertTrue(targets.get(5).pass(), "1.01% <= 1.02%: " + targets.get(5));
    assertFalse(targets.get(6).pass(), "0.90% > 0.85%: " + targets.get(6));
    String lines = FilterReport.targetLines(targets);
    assertTrue(lines.startsWith("PASS"), lines);
    assertTrue(lines.contains("MISS"), lines);
  }

  @Test
  void format_values_threeSignificantDigits() {
    assertEquals("298", FilterReport.format(298.4));
    assertEquals("35.2", FilterReport.format(35.21));
    assertEquals("7.25", FilterReport.format(7.249));
  }

  @Test
  void nanosPerUnit_jmhUnits() {
    assertEquals(1e6, FiltersCommand.nanosPerUnit("ms/op"));
    assertEquals(1, FiltersCommand.nanosPerUnit("ns/op"));
    assertEquals(1e3, FiltersCommand.nanosPerUnit("us/op"));
  }

  @Test
  void poolSize_powerOfTwoWithinBounds() {
    assertEquals(1 << 14, FilterQueryBenchmark.poolSize(10));
    assertEquals(1 << 20, FilterQueryBenchmark.poolSize(1_000_000));
    assertEquals(1 << 20, FilterQueryBenchmark.poolSize(50_000_000));
    assertEquals(1 << 17, FilterQueryBenchmark.poolSize(100_000));
  }
}
