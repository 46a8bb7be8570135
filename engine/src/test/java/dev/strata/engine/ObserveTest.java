package dev.strata.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.observe.MBeans;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Visibility: the MXBean's life and figures, describe(), and the Flight Recorder events. */
final class ObserveTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  @Test
  void mxBean_isRegisteredWhileOpen_andShowsTheCounters() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = MBeans.nameOf(dir);
    try (Db db = Db.open(dir, DbOptions.builder().autoCompaction(false).build())) {
      assertEquals(name, db.seams().awaitManagementBean());
      assertTrue(server.isRegistered(name), name.toString());
      db.put(b("r"), b("c"), b("v"));
      db.get(b("r"), b("c"));
      db.get(b("r"), b("c"));
      db.flush();
      assertEquals(2L, server.getAttribute(name, "Gets"));
      assertEquals(1L, server.getAttribute(name, "Writes"));
      int[] tables = (int[]) server.getAttribute(name, "TablesPerLevel");
      assertEquals(1, tables[0]);
      assertEquals(1, java.util.stream.IntStream.of(tables).sum());
      long[] bytes = (long[]) server.getAttribute(name, "BytesPerLevel");
      assertTrue(bytes[0] > 0, "level-0 bytes");
      assertTrue(((String) server.getAttribute(name, "Description")).contains("L0"));
    }
    assertFalse(server.isRegistered(name), "unregistered on close");
  }

  /**
   * Read-only opens take no lock and may sit beside the writer in one process: each has a bean of
   * its own, and opening or closing one leaves the writer's (it used to replace it, as if stale).
   */
  @Test
  void readOnlyOpensBesideTheWriter_eachHaveTheirOwnBean() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName writerName = MBeans.nameOf(dir);
    ObjectName pattern = new ObjectName(writerName + ",readOnly=*");
    DbOptions readOnly = DbOptions.builder().readOnly(true).build();
    try (Db writer = Db.open(dir)) {
      writer.put(b("r"), b("c"), b("v"));
      writer.flush();
      try (Db first = Db.open(dir, readOnly); Db second = Db.open(dir, readOnly)) {
        assertEquals(writerName, writer.seams().awaitManagementBean());
        first.seams().awaitManagementBean();
        second.seams().awaitManagementBean();
        assertTrue(server.isRegistered(writerName), "the writer's bean, beside read-only opens");
        Set<ObjectName> readers = server.queryNames(pattern, null);
        assertEquals(2, readers.size(), readers.toString());
        first.get(b("r"), b("c"));
        second.get(b("r"), b("c"));
        second.get(b("r"), b("c"));
        List<Long> gets = new ArrayList<>();
        for (ObjectName n : readers) {
          gets.add((Long) server.getAttribute(n, "Gets"));
        }
        gets.sort(null);
        assertEquals(List.of(1L, 2L), gets, "each read-only open's own counters");
        assertEquals(0L, server.getAttribute(writerName, "Gets"));
      }
      assertTrue(server.queryNames(pattern, null).isEmpty(), "read-only beans gone on close");
      assertTrue(server.isRegistered(writerName), "the writer's bean outlives the read-only opens");
    }
    assertFalse(server.isRegistered(writerName), "unregistered on close");
  }

  @Test
  void describe_listsLevelsReadsWritesAndSnapshots() throws Exception {
    try (Db db = Db.open(dir, DbOptions.builder().autoCompaction(false).build())) {
      for (int i = 0; i < 10; i++) {
        db.put(b("r" + i), b("c"), b("v"));
      }
      db.flush();
      db.get(b("r1"), b("c"));
      try (Snapshot s = db.snapshot()) {
        String text = db.describe();
        assertTrue(text.contains("** Strata stats: "), text);
        assertTrue(text.matches("(?s).*L0\\s+1 .*"), text);
        assertTrue(text.contains("Gets: 1,"), text);
        assertTrue(text.contains("Writes: 10 acknowledged"), text);
        assertTrue(text.contains("Snapshots: 1 live"), text);
      }
    }
  }

  @Test
  void flightRecorder_recordsFlushesCompactionsAndSlowReads() throws Exception {
    Path jfr = dir.resolve("events.jfr");
    Path data = dir.resolve("db");
    try (Recording r = new Recording()) {
      r.enable("dev.strata.Flush");
      r.enable("dev.strata.Compaction");
      r.enable("dev.strata.SlowRead").withThreshold(java.time.Duration.ZERO);
      r.start();
      try (Db db = Db.open(data, DbOptions.builder().autoCompaction(false).build())) {
        db.put(b("a"), b("c"), b("1"));
        db.flush();
        db.put(b("b"), b("c"), b("2"));
        db.flush();
        db.compact();
        db.get(b("a"), b("c"));
        db.multiGet(List.of(b("a"), b("b")));
      }
      r.stop();
      r.dump(jfr);
    }
    List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
    Set<String> names =
        events.stream().map(e -> e.getEventType().getName()).collect(Collectors.toSet());
    assertTrue(names.containsAll(Set.of("dev.strata.Flush", "dev.strata.Compaction", "dev.strata.SlowRead")), names.toString());
    RecordedEvent compaction =
        events.stream().filter(e -> e.getEventType().getName().equals("dev.strata.Compaction")).findFirst().orElseThrow();
    assertEquals(2, compaction.getInt("inputTables"));
    assertTrue(compaction.getLong("bytesWritten") > 0);
    Files.delete(jfr);
  }

  /**
   * A real write stall: a held compaction (the engine's test seam) keeps level 0 growing into its
   * slowdown and stop triggers while one writer thread fills memtables. Every stall the write path
   * counts in {@link WriteStats} must appear as one event on that writer's thread, with its cause
   * and its length.
   */
  @Test
  void flightRecorder_recordsEveryWriteStall_withItsCauseAndLength() throws Exception {
    Path jfr = dir.resolve("stalls.jfr");
    DbOptions options =
        DbOptions.builder()
            .memtableBytes(4096)
            .level0CompactionTrigger(2)
            .level0SlowdownTrigger(3)
            .level0StopTrigger(5)
            .build();
    CountDownLatch compacting = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    String writerName = "observe-test-stalled-writer";
    WriteStats stats;
    try (Recording r = new Recording()) {
      r.enable("dev.strata.WriteStall").withThreshold(Duration.ZERO);
      r.start();
      try (Db db = Db.open(dir.resolve("db"), options)) {
        db.seams().beforeEachCompaction(
            () -> {
              compacting.countDown();
              BackgroundWorkTest.await(release);
            });
        FutureTask<Void> fill =
            new FutureTask<>(
                () -> {
                  for (int m = 0; m < 10; m++) {
                    BackgroundWorkTest.writeMemTable(db, "f" + m);
                  }
                  return null;
                });
        Thread writer = new Thread(fill, writerName);
        writer.start();
        try {
          assertTrue(compacting.await(30, TimeUnit.SECONDS), "no compaction started");
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
          while (db.tablesPerLevel().get(0) < 5 || db.writeStats().stops() == 0) {
            assertTrue(System.nanoTime() < deadline, "writers never stopped: " + db.tablesPerLevel());
            Thread.sleep(1);
          }
          assertFalse(fill.isDone(), "the writer is stopped while the compaction is held");
        } finally {
          release.countDown();
        }
        fill.get(30, TimeUnit.SECONDS);
        writer.join();
        stats = db.writeStats();
      }
      r.stop();
      r.dump(jfr);
    }
    List<RecordedEvent> stalls =
        RecordingFile.readAllEvents(jfr).stream()
            .filter(e -> e.getEventType().getName().equals("dev.strata.WriteStall"))
            .filter(e -> e.getThread() != null && writerName.equals(e.getThread().getJavaName()))
            .toList();
    assertTrue(stats.stops() > 0 && stats.slowdowns() > 0, stats.toString());
    for (String cause : List.of("stop", "slowdown")) {
      List<RecordedEvent> of = stalls.stream().filter(e -> cause.equals(e.getString("cause"))).toList();
      long nanos = of.stream().mapToLong(e -> e.getDuration("stall").toNanos()).sum();
      assertTrue(of.stream().allMatch(e -> e.getDuration("stall").toNanos() > 0), of.toString());
      if (cause.equals("stop")) {
        assertEquals(stats.stops(), of.size(), "stop events");
        assertEquals(stats.stopNanos(), nanos, "nanoseconds stopped");
      } else {
        assertEquals(stats.slowdowns(), of.size(), "slowdown events");
        assertEquals(stats.slowdownNanos(), nanos, "nanoseconds delayed");
      }
    }
    assertEquals(stats.stops() + stats.slowdowns(), stalls.size(), "no other causes: " + stalls);
    Files.delete(jfr);
  }
}
