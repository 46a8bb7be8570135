package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bench.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dbbench --heaps}: the plan once per heap setting, and the settings side by side. */
final class HeapRunsTest {
  @TempDir Path tmp;

  @Test
  void parse_splitsOnSemicolons_andNormalizesSpaces() {
    HeapRuns runs = HeapRuns.parse(" -Xmx1g ;-Xmx8g   -Xms1g");
    assertEquals(2, runs.size());
    assertEquals("-Xmx1g", runs.heap(0));
    assertEquals("-Xmx8g -Xms1g", runs.heap(1));
    assertThrows(IllegalArgumentException.class, () -> HeapRuns.parse("-Xmx1g;;-Xmx2g"));
    assertThrows(IllegalArgumentException.class, () -> HeapRuns.parse(" "));
  }

  @Test
  void flags_replaceTheHeapSizes_andKeepTheRest() {
    HeapRuns runs = HeapRuns.parse("-Xmx1g;-Xmx8g -Xms1g");
    List<String> base = List.of("-Xmx2g", "-XX:+UseG1GC", "-Xms512m", "-Xss1m");
    assertEquals(List.of("-XX:+UseG1GC", "-Xss1m", "-Xmx1g"), runs.flags(base, 0));
    assertEquals(List.of("-XX:+UseG1GC", "-Xss1m", "-Xmx8g", "-Xms1g"), runs.flags(base, 1));
  }

  @Test
  void dbbench_twoHeaps_runEveryPhaseUnderEach_andSummarizeThemSideBySide() throws IOException {
    Path out = tmp.resolve("heaps");
    CliRun run = CliRun.of("dbbench", "--profile", "smoke", "--num", "3000", "--threads", "1",
        "--engines", "strata,rocksdb-lru", "--benchmarks", "fillrandom",
        "--jvm-args", "-Xmx512m -XX:TieredStopAtLevel=1", "--heaps", "-Xmx200m;-Xmx240m -Xms64m",
        "--out", out.toString());
    assertEquals(0, run.status(), run.err() + run.out());
    for (int i = 1; i <= 2; i++) {
      Path folder = out.resolve("heap-" + i);
      assertEquals(2, ResultsFile.read(folder.resolve("results.csv")).size(), folder.toString());
      assertTrue(Files.exists(folder.resolve("report.md")));
      assertTrue(Files.exists(folder.resolve("db")), "each heap fills databases of its own");
      String heap = i == 1 ? "-Xmx200m" : "-Xmx240m -Xms64m";
      try (Stream<Path> logs = Files.list(folder.resolve("logs"))) {
        for (Path log : logs.toList()) {
          String command = Files.readAllLines(log, StandardCharsets.UTF_8).get(0);
          assertTrue(command.contains(" " + heap + " ") && !command.contains("-Xmx512m"),
              "the child's command line: " + command);
        }
      }
    }
    List<String> csv = Files.readAllLines(out.resolve("heaps.csv"), StandardCharsets.UTF_8);
    assertEquals(5, csv.size(), String.join("\n", csv));
    assertTrue(csv.get(0).startsWith("heap,engine,benchmark,"), csv.get(0));
    assertTrue(csv.get(1).startsWith("-Xmx200m,strata,fillrandom,"), csv.get(1));
    assertTrue(csv.get(4).startsWith("-Xmx240m -Xms64m,rocksdb-lru,fillrandom,"), csv.get(4));
    String md = Files.readString(out.resolve("heaps.md"), StandardCharsets.UTF_8);
    assertTrue(md.contains("| -Xmx240m -Xms64m (heap-2) | strata | fillrandom |"), md);
    assertTrue(run.out().contains("== heap 2/2: -Xmx240m -Xms64m =="), run.out());
  }
}
