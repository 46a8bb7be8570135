package dev.strata.engine.fs;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Run in a child JVM by {@link DirectoryLockTest}: tries to lock the directory given as its
 * argument and prints {@code ACQUIRED} or {@code LOCKED: message}.
 */
final class LockProbe {

  private LockProbe() {}

  public static void main(String[] args) {
    try (DirectoryLock lock = DirectoryLock.acquire(Path.of(args[0]))) {
      System.out.println("ACQUIRED");
    } catch (IOException e) {
      System.out.println("LOCKED: " + e.getMessage());
    }
  }
}
