package dev.strata.engine.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class DirectoryLockTest {

  @TempDir Path dir;

  @Test
  void acquire_twiceInOneProcess_failsSayingLocked() throws IOException {
    try (DirectoryLock lock = DirectoryLock.acquire(dir)) {
      IOException e = assertThrows(IOException.class, () -> DirectoryLock.acquire(dir));
      assertTrue(e.getMessage().contains("is locked"), e.getMessage());
      // Another spelling of the same directory is the same directory.
      Path other = dir.resolve("sub").resolve("..");
      Files.createDirectories(dir.resolve("sub"));
      assertThrows(IOException.class, () -> DirectoryLock.acquire(other));
      assertEquals(dir.toRealPath(), lock.directory());
    }
    assertTrue(Files.exists(FileNames.lock(dir)), "the LOCK file is never deleted");
  }

  @Test
  void close_releasesTheLockAndIsIdempotent() throws IOException {
    DirectoryLock lock = DirectoryLock.acquire(dir);
    lock.close();
    lock.close();
    try (DirectoryLock again = DirectoryLock.acquire(dir)) {
      assertTrue(again.toString().contains(dir.toRealPath().toString()));
    }
  }

  @Test
  void acquire_missingDirectory_fails() {
    assertThrows(IOException.class, () -> DirectoryLock.acquire(dir.resolve("missing")));
  }

  @Test
  void acquire_fromAnotherProcess_failsWhileHeld_evenAfterAFailedSecondAttemptHere()
      throws Exception {
    try (DirectoryLock lock = DirectoryLock.acquire(dir)) {
      // A refused second attempt in this JVM must not drop the OS lock the first one holds.
      assertThrows(IOException.class, () -> DirectoryLock.acquire(dir));
      String out = probe(dir);
      assertTrue(out.startsWith("LOCKED: "), out);
      assertTrue(out.contains("is locked"), out);
    }
    assertEquals("ACQUIRED", probe(dir));
  }

  private static String probe(Path dir) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LockProbe.class.getName(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe timed out");
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
  }
}
