package dev.strata.bench.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Deletes a benchmark's databases and temporary folders.
 *
 * <p>Immutable (static methods only).
 */
public final class FileTrees {
  private FileTrees() {}

  /** Deletes {@code dir} and everything under it; nothing when it does not exist. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    List<Path> paths;
    try (Stream<Path> s = Files.walk(dir)) {
      paths = s.sorted(Comparator.reverseOrder()).toList();
    }
    for (Path p : paths) {
      Files.deleteIfExists(p);
    }
  }
}
