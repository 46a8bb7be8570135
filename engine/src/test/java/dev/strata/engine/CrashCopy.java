package dev.strata.engine;

import dev.strata.engine.fs.FileNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What a killed process leaves of a database: its files as they are while it is open (everything
 * written is in the page cache, nothing a clean close adds), copied to another directory; tests
 * then cut or damage the copy as a crash or a power loss would. The lock file is not copied.
 */
final class CrashCopy {
  private CrashCopy() {}

  /** Copies every file of {@code from} but the lock into {@code to}, emptied or created first. */
  static Path copy(Path from, Path to) throws IOException {
    if (Files.exists(to)) {
      try (Stream<Path> files = Files.list(to)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (!p.getFileName().toString().equals(FileNames.LOCK)) {
          Files.copy(p, to.resolve(p.getFileName()));
        }
      }
    }
    return to;
  }
}
