package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FaultyFileLayer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memtable switch retires the old log (force, close). If that fails, the frozen memtable must
 * still be flushed, from memory: it used to be left unscheduled when closing the old log threw,
 * so flush() waited forever and the log grew without bound.
 */
final class LogSwitchFailureTest {
  @TempDir Path dir;

  @Test
  @Timeout(60) // the bug made flush() wait forever
  void switch_whoseOldLogFailsToForceAndClose_stillFlushesTheFrozenMemtable() throws Exception {
    FaultyFileLayer files = new FaultyFileLayer();
    DbOptions.Builder b = DbOptions.builder().autoCompaction(false).memtableBytes(4096);
    try (Db db = Db.open(dir, b.build(), EngineHooks.NONE.withFileLayer(files))) {
      files.failForces(FaultyFileLayer::isLog);
      files.failCloses(FaultyFileLayer::isLog);
      for (int i = 0; i < 300; i++) {
        db.put(b("k" + i), b("value-" + i + "-" + "x".repeat(40)));
      }
      db.flush(); // waits until every frozen memtable is in a table
      assertTrue(db.stats().tableCount() >= 2, db.stats().toString());
      files.failForces(f -> false);
      files.failCloses(f -> false);
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
