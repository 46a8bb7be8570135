package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strata.engine.fs.FaultyFileLayer;
import dev.strata.engine.fs.FileNames;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reopening used to replay the logs into a new table before deleting them, so it needed free space
 * about the size of the logs. When the replayed logs fit in the memtable they
 * now stay its logs: the open writes no table and no manifest, so it succeeds on a full disk.
 */
final class RecoveryWithoutFlushTest {
  @TempDir Path dir;

  /** Where a database runs before a test takes a copy of it as a kill would leave it. */
  @TempDir Path liveDir;

  @Test
  void reopen_withLogsThatFitTheMemtable_needsNoFreeSpace() throws Exception {
    DbOptions.Builder b = DbOptions.builder().autoCompaction(false);
    try (Db db = Db.open(dir, b.build())) {
      for (int i = 0; i < 200; i++) {
        db.put(b("k" + i), b("v" + i));
      }
    }
    FileTime manifestBefore = Files.getLastModifiedTime(FileNames.manifest(dir));
    FaultyFileLayer files = new FaultyFileLayer();
    files.diskFull(true);
    try (Db db = Db.open(dir, b.build(), EngineHooks.NONE.withFileLayer(files))) {
      assertArrayEquals(b("v150"), db.get(b("k150")));
      assertEquals(0, db.stats().tableCount(), "nothing was flushed");
      assertEquals(manifestBefore, Files.getLastModifiedTime(FileNames.manifest(dir)));
      assertThrows(IOException.class, () -> db.put(b("refused"), b("x")));
      files.diskFull(false);
      db.put(b("after"), b("space returned")); // appended to the replayed log
    }
    try (Db db = Db.open(dir, b.build())) {
      assertArrayEquals(b("v199"), db.get(b("k199")));
      assertArrayEquals(b("space returned"), db.get(b("after")));
      assertNull(db.get(b("refused")));
      assertEquals(0, db.stats().recovery().walBytesDropped());
    }
  }

  @Test
  void reopen_afterATornTail_cutsItOffAndAppendsBehindTheLastWholeRecord() throws Exception {
    DbOptions options = DbOptions.builder().autoCompaction(false).build();
    try (Db db = Db.open(liveDir, options)) {
      for (int i = 0; i < 10; i++) {
        db.put(b("k" + i), b("v" + i));
      }
      CrashCopy.copy(liveDir, dir); // killed: no clean close records the log as forced
    }
    Path log = onlyLog();
    try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
      ch.truncate(ch.size() - 2); // the last put was torn
    }
    try (Db db = Db.open(dir, options)) {
      assertNull(db.get(b("k9")));
      assertEquals(1, db.stats().recovery().walRecordsDropped());
      db.put(b("k9"), b("again"));
    }
    assertEquals(log, onlyLog(), "the same log took the new write");
    try (Db db = Db.open(dir, options)) {
      assertArrayEquals(b("v8"), db.get(b("k8")));
      assertArrayEquals(b("again"), db.get(b("k9")));
      assertEquals(0, db.stats().recovery().walBytesDropped(), "the log is a clean prefix again");
    }
  }

  private Path onlyLog() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".log")).reduce((x, y) -> {
        throw new AssertionError("two logs: " + x + ", " + y);
      }).orElseThrow();
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
