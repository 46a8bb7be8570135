package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strata.engine.fs.FaultyFileLayer;
import dev.strata.engine.fs.FileLayer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults in the manifest's own writes, which go through the {@link FileLayer} like the log's and
 * the tables': a full disk as a flush's edit is appended, and an fsync that fails after
 * the append was written (its outcome unknown). In both the flush fails without losing anything,
 * passes on its own retry once the fault is gone, and the database reopens with every acknowledged
 * write and no table the manifest does not list. Power loss during manifest writes is covered by
 * {@link PowerLossProperties}.
 */
final class ManifestFaultsTest {
  private static final int KEYS = 50;

  @TempDir Path dir;

  @Test
  void manifestOnAFullDisk_failsTheFlushThenResumesOnceSpaceReturns() throws Exception {
    FaultyFileLayer files = new FaultyFileLayer();
    DbOptions.Builder b = DbOptions.builder().autoCompaction(false);
    try (Db db = Db.open(dir, b.build(), EngineHooks.NONE.withFileLayer(files))) {
      putKeys(db);
      files.diskFull(FaultyFileLayer::isManifest); // the table fits, its manifest record does not
      assertThrows(IOException.class, db::flush);
      assertEquals(0, tableFiles(), "the edit certainly failed: its table is deleted");
      assertArrayEquals(b("v7"), db.get(b("k7")), "reads go on");

      files.diskFull(false);
      flushUntilItPasses(db);
      db.put(b("after"), b("space returned"));
    }
    assertEverythingReopens(b);
  }

  @Test
  void manifestFsyncFailure_failsTheFlushThenResumesOnceFsyncsPass() throws Exception {
    FaultyFileLayer files = new FaultyFileLayer();
    DbOptions.Builder b = DbOptions.builder().autoCompaction(false);
    try (Db db = Db.open(dir, b.build(), EngineHooks.NONE.withFileLayer(files))) {
      putKeys(db);
      files.failForces(FaultyFileLayer::isManifest);
      assertThrows(IOException.class, db::flush);
      assertArrayEquals(b("v7"), db.get(b("k7")), "reads go on");

      files.failForces(f -> false);
      flushUntilItPasses(db); // a whole rewrite makes the durable manifest exactly the new state
      db.put(b("after"), b("space returned"));
    }
    assertEverythingReopens(b);
  }

  private void assertEverythingReopens(DbOptions.Builder b) throws IOException {
    try (Db db = Db.open(dir, b.build())) {
      for (int i = 0; i < KEYS; i++) {
        assertArrayEquals(b("v" + i), db.get(b("k" + i)), "k" + i);
      }
      assertArrayEquals(b("space returned"), db.get(b("after")));
      // Tables of failed attempts the manifest may have listed stay until this open sorts them out.
      assertEquals(db.stats().tableCount(), tableFiles(), "every table on disk is listed");
    }
  }

  private static void putKeys(Db db) throws IOException {
    for (int i = 0; i < KEYS; i++) {
      db.put(b("k" + i), b("v" + i));
    }
  }

  private static void flushUntilItPasses(Db db) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        db.flush();
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("the database did not resume once the fault was gone", e);
        }
        Thread.sleep(50);
      }
    }
  }

  private long tableFiles() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".sst")).count();
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
