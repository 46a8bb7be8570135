package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code maxOpenFiles} bounds the descriptors of compactions too: a child JVM under {@code ulimit -n}
 * builds thousands of overlapping level-0 tables and compacts them all, which opens every input of
 * the merge at once unless it merges in passes. With the bound it compacts and every key reads
 * back; the same child with no bound runs out of descriptors, which shows the limit bites.
 */
final class LevelZeroCompactionTest {
  private static final int ULIMIT = 128;
  private static final int TABLES = Integer.getInteger("strata.test.levelZeroTables", 1_500);

  @TempDir Path dir;

  /** The child's database on a tmpfs when there is one: thousands of flushes, each fsynced. */
  private Path databaseDir(String name) throws Exception {
    Path shm = Path.of("/dev/shm");
    Path root = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : dir;
    return Files.createTempDirectory(root, name);
  }

  @Test
  void thousandsOfLevelZeroTables_compactUnderALowDescriptorLimit() throws Exception {
    Path limitedDb = databaseDir("l0-limited");
    Path unlimitedDb = databaseDir("l0-unlimited");
    try {
      ChildJvm limited = run(limitedDb, 64);
      assertEquals(0, limited.exit(), "maxOpenFiles(64) under ulimit -n " + ULIMIT + ": " + limited.output());
      String[] ok = limited.output().strip().split(" ");
      assertEquals("ok", ok[0], limited.output());
      assertEquals(TABLES, Integer.parseInt(ok[1]), "level-0 tables before: " + limited.output());
      assertTrue(Integer.parseInt(ok[2]) < TABLES / 10, "tables after: " + limited.output());
      assertTrue(Integer.parseInt(ok[3]) < ULIMIT, "descriptors: " + limited.output());
      assertTrue(noLeftovers(limitedDb), "intermediate tables are deleted");

      ChildJvm unlimited = run(unlimitedDb, -1);
      assertNotEquals(0, unlimited.exit(), "every input open at once: " + unlimited.output());
      assertTrue(unlimited.output().contains("Too many open files"), unlimited.output());
    } finally {
      deleteTree(limitedDb);
      deleteTree(unlimitedDb);
    }
  }

  private ChildJvm run(Path db, int maxOpenFiles) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path output = dir.resolve("child-" + maxOpenFiles + ".out");
    String command =
        "ulimit -n " + ULIMIT + " && exec \"$0\" -Xmx256m -cp \"$1\" "
            + LevelZeroCompactionChild.class.getName() + " \"$2\" " + TABLES + " " + maxOpenFiles;
    Process p =
        new ProcessBuilder(
                "bash", "-c", command, java.toString(), System.getProperty("java.class.path"),
                db.toString())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    return ChildJvm.await(p, output);
  }

  /** Whether the directory holds no more table files than the manifest lists after the compaction. */
  private static boolean noLeftovers(Path db) throws Exception {
    try (Stream<Path> files = Files.list(db)) {
      return files.filter(p -> p.toString().endsWith(".sst")).count() < TABLES / 10;
    }
  }

  private static void deleteTree(Path root) throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted((x, y) -> y.getNameCount() - x.getNameCount()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
