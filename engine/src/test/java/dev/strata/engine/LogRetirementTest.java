package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FaultyFileLayer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memtable switch under {@code syncWrites(false)} hands the old log to the flush thread, which
 * forces and closes it before flushing the memtable: the writer at the head of the queue used to
 * force it under the mutex, the longest wait of a fill's puts that was the engine's own.
 */
final class LogRetirementTest {
  @TempDir Path dir;

  @Test
  void memtableSwitches_forceTheOldLogsOnTheFlushThread_notOnTheWritersThread() throws Exception {
    FaultyFileLayer files = new FaultyFileLayer();
    Set<String> forcingThreads = ConcurrentHashMap.newKeySet();
    files.failForces(
        f -> {
          if (FaultyFileLayer.isLog(f)) {
            forcingThreads.add(Thread.currentThread().getName());
          }
          return false; // a probe: no force fails
        });
    DbOptions.Builder b =
        DbOptions.builder().autoCompaction(false).memtableBytes(4096).syncWrites(false);
    try (Db db = Db.open(dir, b.build(), EngineHooks.NONE.withFileLayer(files))) {
      for (int i = 0; i < 300; i++) {
        db.put(b("k" + i), b("value-" + i + "-" + "x".repeat(40)));
      }
      db.flush();
      assertTrue(db.stats().tableCount() >= 2, "the writes switched memtables: " + db.stats());
      // Before the close, which forces the current log on the closing thread by design.
      String writer = Thread.currentThread().getName();
      assertFalse(forcingThreads.contains(writer), "logs forced by the writer: " + forcingThreads);
      assertFalse(forcingThreads.isEmpty(), "no old log was forced");
    }
    try (Db db = Db.open(dir, b.build())) {
      for (int i = 0; i < 300; i++) {
        assertArrayEquals(b("value-" + i + "-" + "x".repeat(40)), db.get(b("k" + i)));
      }
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
