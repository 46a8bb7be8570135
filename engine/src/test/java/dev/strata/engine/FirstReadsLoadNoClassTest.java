package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With {@code warmUpOnOpen}, the first Get, batched Get, cursor seek and row read after open load no
 * class of the engine: the open has run each read path once on the side ({@code ReadPathWarmUp}),
 * so loading, verifying and linking the paths' classes and lambdas (several
 * milliseconds of CPU each in a fresh JVM) is the open's cost, not the first read's. Checked in a
 * fresh JVM, from its class-loading log, on a database with tables at level 0 and below it, with
 * data blocks in the cache on the heap and off it (the slab and copy-out paths are warmed too).
 */
final class FirstReadsLoadNoClassTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "off-heap"})
  void firstReadsAfterOpen_loadNoEngineClass(String blocks) throws Exception {
    Path db = dir.resolve("db");
    Path fillOutput = dir.resolve("fill.out");
    ChildJvm fill = ChildJvm.await(
        ChildJvm.start(FirstReadsChild.class, fillOutput, "fill", db.toString()), fillOutput);
    assertEquals(0, fill.exit(), fill.output());

    Path output = dir.resolve("read.out");
    Process p = ChildJvm.startLoggingClasses(FirstReadsChild.class, output, "read", db.toString(), blocks);
    ChildJvm read = ChildJvm.await(p, output);
    List<String> lines = read.output().lines().toList();
    assertEquals(0, read.exit(), read.output());
    assertTrue(lines.contains("ok"), read.output());
    List<String> loadedByReads = new ArrayList<>();
    int marks = 0;
    for (String l : lines) {
      if (l.equals(FirstReadsChild.MARK)) {
        marks++;
      } else if (marks >= 1 && marks <= 4 && l.contains(" dev.strata.")) {
        loadedByReads.add(l);
      }
    }
    assertEquals(5, marks, read.output());
    assertTrue(
        lines.stream().anyMatch(l -> l.contains(" dev.strata.engine.read.DbCursor ")),
        "the log lists the engine's classes");
    assertEquals(List.of(), loadedByReads, "classes the first reads loaded");
  }

  /**
   * Without {@code warmUpOnOpen} (the default) an open runs no read of its own and preloads
   * nothing: the warm-up's classes are never loaded, and the first reads load the read path.
   */
  @org.junit.jupiter.api.Test
  void defaultOpen_runsNoWarmUp_andTheFirstReadsLoadTheirClasses() throws Exception {
    Path db = dir.resolve("db");
    Path fillOutput = dir.resolve("fill.out");
    ChildJvm fill = ChildJvm.await(
        ChildJvm.start(FirstReadsChild.class, fillOutput, "fill", db.toString()), fillOutput);
    assertEquals(0, fill.exit(), fill.output());
    Path output = dir.resolve("read-default.out");
    Process p = ChildJvm.startLoggingClasses(
        FirstReadsChild.class, output, "read", db.toString(), "heap", "default");
    ChildJvm read = ChildJvm.await(p, output);
    assertEquals(0, read.exit(), read.output());
    List<String> lines = read.output().lines().toList();
    assertTrue(lines.contains("ok"), read.output());
    assertTrue(
        lines.stream().noneMatch(l -> l.contains("ReadPathWarmUp") || l.contains("OpenPreload")),
        "the default open warmed up");
    int marks = 0;
    boolean readsLoaded = false;
    for (String l : lines) {
      if (l.equals(FirstReadsChild.MARK)) {
        marks++;
      } else if (marks >= 1 && marks <= 4 && l.contains(" dev.strata.")) {
        readsLoaded = true;
      }
    }
    assertTrue(readsLoaded, "without the warm-up the first reads load the read path");
  }
}
