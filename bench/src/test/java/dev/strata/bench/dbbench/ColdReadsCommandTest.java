package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bench.CliRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coldreads} on a smoke-sized database: one line per operation, with its reads. */
final class ColdReadsCommandTest {
  @TempDir Path dir;

  @Test
  void coldreads_printsTheFirstOperationsLatencyAndReads() {
    String out = smokeFill();
    for (String op : new String[] {"get", "multiget"}) {
      CliRun run = CliRun.of("coldreads", "--out", out, "--engine", "strata", "--op", op, "--batch-size", "8");
      assertEquals(0, run.status(), run.err());
      assertTrue(run.out().lines().anyMatch(l -> l.matches(
          "strata " + op + " open_ms=[0-9.]+ first_us=[0-9]+ read_bytes=-?[0-9]+ device_reads=-?[0-9]+ device_kib=-?[0-9]+")),
          run.out());
    }
  }

  @Test
  void coldreads_countAbsent_printsTheLongestAndTheBytesPerGet() {
    String out = smokeFill();
    CliRun run = CliRun.of("coldreads", "--out", out, "--engine", "strata", "--absent", "--count", "20");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().lines().anyMatch(l -> l.matches("strata get-absent open_ms=[0-9.]+ first_us=[0-9]+"
        + " read_bytes=-?[0-9]+ device_reads=-?[0-9]+ device_kib=-?[0-9]+ ops=20 max_us=[0-9]+"
        + " read_bytes_per_op=-?[0-9.]+ open_read_bytes=-?[0-9]+")), run.out());
  }

  /** A smoke-sized Strata fill; returns its output folder. */
  private String smokeFill() {
    String out = dir.resolve("run").toString();
    CliRun fill = CliRun.of("dbbench", "--profile", "smoke", "--benchmarks", "fillseq",
        "--engines", "strata", "--out", out);
    assertEquals(0, fill.status(), fill.err());
    return out;
  }
}
