package dev.strata.bench.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The FPR table on tiny sizes: every row present, rates sane and near the model. */
final class FprTableTest {
  private static final FprTable.Config TINY =
      new FprTable.Config(
          20_000,
          20_000,
          400_000,
          2_000,
          List.of(6.0, 10.0, 10.5, 20.0),
          List.of(FilterKind.BLOCKED, FilterKind.CLASSIC));

  @Test
  void run_tinySizes_oneSaneRowPerLayoutAndBitsPerKey() {
    List<FprTable.Row> rows = FprTable.run(TINY);

    assertEquals(8, rows.size());
    int i = 0;
    for (FilterKind kind : TINY.kinds()) {
      for (double bits : TINY.bitsPerKey()) {
        FprTable.Row row = rows.get(i++);
        assertEquals(kind, row.kind());
        assertEquals(bits, row.bitsPerKey());
        assertEquals(20_000, row.keys());
        assertTrue(row.queries() >= 20_000 && row.queries() <= 400_000, row.toString());
        assertTrue(row.probes() >= 1, row.toString());
        assertTrue(row.modelFpr() > 0 && row.modelFpr() < 0.1, row.toString());
        assertTrue(row.measuredFpr() >= 0 && row.measuredFpr() < 0.1, row.toString());
        assertTrue(row.memoryBitsPerKey() >= bits, row.toString());
        // Rows that expect hundreds of false positives must sit near the model (fixed seeds).
        if (row.modelFpr() * row.queries() >= 500) {
          assertTrue(Math.abs(row.z()) < 5, "measured far from model: " + row);
          assertTrue(row.ratio() > 0.8 && row.ratio() < 1.25, row.toString());
        }
        if (kind == FilterKind.BLOCKED) {
          double persistedBits = 8 * row.persistedBytesPerKey();
          assertTrue(Math.abs(persistedBits - bits) / bits < 0.02, row.toString());
        } else {
          assertTrue(Double.isNaN(row.persistedBytesPerKey()), row.toString());
        }
      }
    }
  }

  @Test
  void run_rateDecreasesWithBitsPerKey() {
    List<FprTable.Row> rows = FprTable.run(TINY);
    for (int i = 1; i < rows.size(); i++) {
      if (rows.get(i).kind() == rows.get(i - 1).kind()) {
        assertTrue(rows.get(i).modelFpr() < rows.get(i - 1).modelFpr(), rows.toString());
      }
    }
  }

  @Test
  void queriesFor_aimsAtTheTargetWithinTheRange() {
    assertEquals(200_000, FprTable.queriesFor(0.01, TINY));
    assertEquals(20_000, FprTable.queriesFor(0.5, TINY));
    assertEquals(400_000, FprTable.queriesFor(1e-9, TINY));
    assertEquals(400_000, FprTable.queriesFor(0, TINY));
  }

  @Test
  void format_rows_headerAndOneLinePerRow() {
    List<FprTable.Row> rows =
        List.of(
            new FprTable.Row(FilterKind.BLOCKED, 10, 6, 1000, 100_000, 1000, 0.0098, 10.24, 1.29),
            new FprTable.Row(
                FilterKind.CLASSIC, 10.5, 7, 1000, 100_000, 650, 0.0065, 10.5, Double.NaN));

    String table = FprTable.format(rows);

    List<String> lines = table.lines().toList();
    assertEquals(4, lines.size(), table);
    assertTrue(lines.get(0).contains("measured") && lines.get(0).contains("disk B/key"), table);
    assertTrue(lines.get(2).contains("1.0000%") && lines.get(2).contains("1.2900"), table);
    assertTrue(lines.get(3).contains("10.5") && lines.get(3).trim().endsWith("-"), table);
  }

  @Test
  void config_guava_isRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new FprTable.Config(10, 10, 10, 10, List.of(10.0), List.of(FilterKind.GUAVA)));
  }
}
