package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bench.CliRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code multigetmix} on a smoke-sized database: both sides timed, every key found by both. */
final class MultiGetMixCommandTest {
  @TempDir Path dir;

  @Test
  void multigetmix_timesBothSides_andFindsEveryKey() {
    String out = dir.resolve("run").toString();
    CliRun fill = CliRun.of("dbbench", "--profile", "smoke", "--benchmarks", "fillseq",
        "--engines", "strata,rocksdb-lru", "--out", out);
    assertEquals(0, fill.status(), fill.err());
    for (String engine : new String[] {"strata", "rocksdb-lru"}) {
      CliRun run = CliRun.of("multigetmix", "--out", out, "--engine", engine, "--threads", "2",
          "--batch-size", "16", "--warmup", "0.2", "--duration", "0.5");
      assertEquals(0, run.status(), run.err());
      // The keys are the fill's: a batch and the Gets find all they ask for.
      assertTrue(run.out().lines().anyMatch(l -> l.matches(engine
          + " threads=2 batch=16 multiget_ns_per_key=[0-9]+ get_ns_per_key=[0-9]+ ratio=[0-9.]+"
          + " found=(\\d+)/\\1,(\\d+)/\\2")), run.out());
    }
    CliRun none = CliRun.of("multigetmix", "--out", out, "--threads", "0");
    assertTrue(none.status() != 0 && none.err().contains("--threads"), none.err());
  }
}
