package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent writers share log writes (and so fsyncs); a lone writer gets one log write each. */
final class GroupCommitTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void loneWriter_oneLogWritePerWrite() throws Exception {
    try (Db db = Db.open(dir, DbOptions.builder().syncWrites(true).build())) {
      for (int i = 0; i < 50; i++) {
        db.put(b("k" + i), b("v"));
      }
      db.write(new WriteBatch().put(b("r"), b("c"), b("v")).deleteRow(b("k1")));
      WriteStats s = db.writeStats();
      assertEquals(51, s.writes());
      assertEquals(51, s.logWrites());
      assertEquals(51, s.logSyncs());
    }
  }

  @Test
  void concurrentSyncedWriters_shareLogWrites() throws Exception {
    int threads = 8;
    int perThread = 100;
    try (Db db = Db.open(dir, DbOptions.builder().syncWrites(true).build())) {
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> writers = new ArrayList<>();
      List<Throwable> failures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        Thread w =
            new Thread(
                () -> {
                  try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                      db.put(b("t" + id + "-" + i), b("v" + i));
                    }
                  } catch (Throwable e) {
                    synchronized (failures) {
                      failures.add(e);
                    }
                  }
                });
        w.start();
        writers.add(w);
      }
      start.countDown();
      for (Thread w : writers) {
        w.join();
      }
      assertTrue(failures.isEmpty(), () -> "writer failed: " + failures);
      WriteStats s = db.writeStats();
      assertEquals(threads * perThread, s.writes());
      // Eight threads each waiting on an fsync: while one leader syncs, the others queue up and
      // the next leader takes them all. Without grouping every write would be its own sync.
      assertTrue(
          s.logWrites() < s.writes() * 3 / 4,
          () -> "log writes " + s.logWrites() + " for " + s.writes() + " writes: no grouping");
      assertEquals(s.logWrites(), s.logSyncs());
      for (int t = 0; t < threads; t++) {
        assertArrayEquals(b("v" + (perThread - 1)), db.get(b("t" + t + "-" + (perThread - 1))));
      }
    }
  }
}
