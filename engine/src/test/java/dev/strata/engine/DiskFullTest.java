package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FaultyFileLayer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk (ENOSPC, played deterministically by {@link FaultyFileLayer}) in a background flush
 * lost nothing, yet used to stop the database until a reopen. Now writes and
 * flushes fail while the disk is full, reads go on, and once space returns the flush passes on its
 * own retry and the database takes writes again.
 */
final class DiskFullTest {
  @TempDir Path dir;

  @Test
  void flushOnAFullDisk_failsThenResumesOnItsOwnOnceSpaceReturns() throws Exception {
    FaultyFileLayer files = new FaultyFileLayer();
    DbOptions.Builder b = DbOptions.builder().autoCompaction(false);
    try (Db db = Db.open(dir, b.build(), EngineHooks.NONE.withFileLayer(files))) {
      for (int i = 0; i < 50; i++) {
        db.put(b("k" + i), b("v" + i));
      }
      AtomicBoolean fill = new AtomicBoolean(true);
      db.seams().beforeEachFlush(
          () -> {
            if (fill.getAndSet(false)) {
              files.diskFull(true); // the disk fills up just as the flush starts writing
            }
          });
      assertThrows(IOException.class, db::flush);
      assertThrows(IOException.class, () -> db.put(b("refused"), b("x"))); // the log cannot grow
      assertArrayEquals(b("v7"), db.get(b("k7")), "reads go on");
      assertTrue(tables(dir) == 0, "a failed flush leaves no table behind");

      files.diskFull(false);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (true) {
        try {
          db.flush();
          break;
        } catch (IOException e) {
          if (System.nanoTime() > deadline) {
            throw new AssertionError("the database did not resume once space returned", e);
          }
          Thread.sleep(50);
        }
      }
      db.put(b("after"), b("space returned"));
      assertTrue(db.stats().tableCount() >= 1);
    }
    try (Db db = Db.open(dir, b.build())) {
      assertArrayEquals(b("v49"), db.get(b("k49")));
      assertArrayEquals(b("space returned"), db.get(b("after")));
      assertNull(db.get(b("refused")), "a write that failed on the full log is not there");
    }
  }

  private static long tables(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> p.toString().endsWith(".sst")).count();
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
