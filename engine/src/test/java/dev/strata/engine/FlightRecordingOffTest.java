package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a Flight Recorder recording, the engine loads no JFR event class:
 * the first load of a {@code jdk.jfr.Event} subclass costs about 150 ms of JFR initialisation, and
 * the slow-read event used to put it on the first Get after open. Checked in a fresh JVM, from its
 * class-loading log, across an open, writes, a flush, a compaction and Gets. {@code ObserveTest}
 * shows the events are still recorded when a recording runs.
 */
final class FlightRecordingOffTest {
  @TempDir Path dir;

  @Test
  void noRecording_loadsNoEventClass() throws Exception {
    Path output = dir.resolve("child.out");
    Process p = ChildJvm.startLoggingClasses(
        NoRecordingChild.class, output, dir.resolve("db").toString());
    ChildJvm child = ChildJvm.await(p, output);
    List<String> lines = child.output().lines().toList();
    assertEquals(0, child.exit(), child.output());
    assertTrue(lines.contains("ok"), String.join("\n", lines));
    assertTrue(
        lines.stream().anyMatch(l -> l.contains(" dev.strata.engine.observe.FlightRecording ")),
        "the log lists the engine's classes");
    for (String l : lines) {
      assertFalse(l.contains(" jdk.jfr.Event "), l);
      assertFalse(l.matches(".* dev\\.strata\\.engine\\.observe\\.\\w+Event .*"), l);
    }
  }
}
