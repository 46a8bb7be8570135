package dev.strata.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread that writes or reads while its interrupt flag is set must neither fail nor break the
 * database for other threads (FileChannels close themselves on interrupt), and keeps its flag.
 */
final class InterruptedWriterTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void writeAndGet_byInterruptedThread_succeedAndKeepTheDatabaseUsable() throws Exception {
    try (Db db = Db.open(dir, DbOptions.builder().memtableBytes(4096).build())) {
      for (int i = 0; i < 200; i++) {
        db.put(b("k" + i), b("v" + i));
      }
      db.flush();
      AtomicReference<Object> outcome = new AtomicReference<>();
      Thread t =
          new Thread(
              () -> {
                Thread.currentThread().interrupt();
                try {
                  db.put(b("interrupted"), b("yes"));
                  byte[] v = db.get(b("k7"));
                  outcome.set(Thread.currentThread().isInterrupted() ? v : "flag lost");
                } catch (Exception e) {
                  outcome.set(e);
                }
              });
      t.start();
      t.join();
      assertTrue(outcome.get() instanceof byte[], () -> "got " + outcome.get());
      assertArrayEquals(b("v7"), (byte[]) outcome.get());
      db.put(b("after"), b("ok"));
      assertArrayEquals(b("yes"), db.get(b("interrupted")));
      assertArrayEquals(b("ok"), db.get(b("after")));
    }
    try (Db db = Db.open(dir)) {
      assertArrayEquals(b("yes"), db.get(b("interrupted")));
    }
  }
}
