package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bench.CliRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code compactreads} on a tiny database: a row per configuration, fewer read calls with read-ahead. */
final class CompactionReadsCommandTest {
  @TempDir Path dir;

  @Test
  void compactreads_printsARowPerReadModeAndReadahead() {
    CliRun run = CliRun.of("compactreads", "--keys", "20000", "--dir", dir.toString(), "--readahead-kb", "0,64");
    assertEquals(0, run.status(), run.err());
    List<String> rows = run.out().lines().filter(l -> l.matches("(buffered|direct) .*")).toList();
    assertEquals(4, rows.size(), run.out());
    long[] calls = rows.stream().mapToLong(r -> Long.parseLong(r.trim().split("\\s+")[3])).toArray();
    // Rows: buffered 0, buffered 64 KiB, direct 0, direct 64 KiB; a window serves many blocks a call.
    assertTrue(calls[1] < calls[0] && calls[3] < calls[2], run.out());
  }
}
