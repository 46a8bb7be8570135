package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.ManifestReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code close()} does not wait for a flush or compaction to finish: a job running when the close
 * begins stops at its next look (every few hundred rows), deletes what it wrote and leaves its
 * inputs; nothing acknowledged depends on it, since the close forces the logs. The next open finds
 * every write, the tables as they were, and no file of the abandoned job.
 */
final class CloseAbandonsJobsTest {
  private static final int TABLES = 4;
  private static final int ROWS_PER_TABLE = 5_000;

  @TempDir Path dir;

  private static byte[] key(int i) {
    return String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int t, int i) {
    return ("v" + t + "-" + i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aCompactionRunningAtClose_isAbandoned_andNothingIsLost() throws Exception {
    DbOptions options = DbOptions.builder().autoCompaction(false).build();
    Set<String> tablesBefore;
    try (Db db = Db.open(dir, options)) {
      for (int t = 0; t < TABLES; t++) {
        for (int i = 0; i < ROWS_PER_TABLE; i++) {
          db.put(key(i), value(t, i));
        }
        db.flush();
      }
      for (int i = 0; i < 100; i++) {
        db.put(key(ROWS_PER_TABLE + i), value(9, i)); // only in the log
      }
    }
    tablesBefore = tables();
    CountDownLatch started = new CountDownLatch(1);
    Db db = Db.open(dir, options);
    db.seams().beforeEachCompaction(
        () -> {
          started.countDown();
          // Holds the compaction until the close has begun (every call then throws), so that it is
          // running, with thousands of rows to go, when the close looks for it.
          while (true) {
            try {
              db.stats();
              Thread.sleep(1);
            } catch (IllegalStateException closed) {
              return;
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
          }
        });
    Thread compacting =
        new Thread(
            () -> {
              try {
                db.compact();
              } catch (IOException | IllegalStateException expected) {
                // the close stops it
              }
            });
    compacting.start();
    assertTrue(started.await(30, TimeUnit.SECONDS), "the compaction started");
    db.close();
    compacting.join(30_000);
    // compact() flushed the memtable first; the compaction itself removed no input and left no
    // output: every table file is one the manifest lists.
    Set<String> after = tables();
    assertTrue(after.containsAll(tablesBefore), "inputs kept: " + after);
    Set<String> listed = new TreeSet<>();
    ManifestReader.read(FileNames.manifest(dir)).files()
        .forEach(f -> listed.add(FileNames.table(dir, f.fileNumber()).getFileName().toString()));
    assertEquals(listed, after, "no file of the abandoned compaction is left");
    try (Db again = Db.open(dir, options)) {
      assertEquals(TABLES + 1, again.stats().tableCount());
      for (int i = 0; i < ROWS_PER_TABLE; i++) {
        assertArrayEquals(value(TABLES - 1, i), again.get(key(i)));
      }
      for (int i = 0; i < 100; i++) {
        assertArrayEquals(value(9, i), again.get(key(ROWS_PER_TABLE + i)));
      }
      again.compact(); // the work the close abandoned, done now
      assertEquals(1, again.stats().tableCount());
      assertArrayEquals(value(TABLES - 1, 7), again.get(key(7)));
    }
    assertThrows(IllegalStateException.class, db::stats);
  }

  private Set<String> tables() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      Set<String> out = new TreeSet<>();
      s.filter(p -> p.toString().endsWith(".sst")).forEach(p -> out.add(p.getFileName().toString()));
      return out;
    }
  }
}
