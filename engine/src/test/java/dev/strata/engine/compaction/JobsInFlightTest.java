package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.engine.version.TableRef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The flush and compaction a memory bound must leave room for until a version shows them. */
final class JobsInFlightTest {
  @TempDir Path dir;

  private static TreeShape holding(long... tables) {
    return new TreeShape(new long[0], new long[8], 0, 0, tables);
  }

  @Test
  void aFlush_countsUntilAVersionHoldsItsTables_thenNeverAgain() throws IOException {
    JobsInFlight jobs = new JobsInFlight();
    assertEquals(0, jobs.unseenFlush(holding()));
    jobs.flushPlanned(1_000);
    assertEquals(1_000, jobs.unseenFlush(holding(1, 2)), "being written: no tables yet");
    long number;
    try (TableEntries entries = new TableEntries(dir)) {
      TableRef written = entries.table(0, "a", "z", 100, 10, 700);
      number = written.metadata().fileNumber();
      jobs.flushWritten(List.of(written));
    }
    assertEquals(700, jobs.unseenFlush(holding()), "written, not installed: its filters' bytes");
    assertEquals(0, jobs.unseenFlush(holding(number)), "installed");
    assertEquals(0, jobs.unseenFlush(holding()), "cleared: compacted away later, counted once");
  }

  @Test
  void aCompaction_countsItsExcessWhileItsInputsAreLive() {
    JobsInFlight jobs = new JobsInFlight();
    jobs.compactionPlanned(new long[] {7, 8}, 500);
    assertEquals(500, jobs.uninstalledCompaction(holding(1, 7, 8)));
    assertEquals(0, jobs.uninstalledCompaction(holding(1, 9)), "installed: its inputs are gone");
    jobs.compactionPlanned(new long[] {9}, -300);
    assertEquals(0, jobs.uninstalledCompaction(holding(9)), "fewer bytes than its inputs: none");
  }
}
