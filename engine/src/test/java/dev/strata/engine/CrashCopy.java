package dev.strata.engine;

import dev.strata.engine.fs.FileNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a killed process leaves of a database: its files as they are while it is open (everything
 * written is in the page cache, nothing a clean close adds), copied to another directory; tests
 * then cut or damage the copy as a crash or a power loss would. The lock file is not copied.
 *
 * <p>A kill freezes every file at one instant; a copy takes time while flushes and compactions
 * go on, and a table created, grown or deleted between the directory's listing and the
 * MANIFEST's copy would leave a copy no crash can leave (a MANIFEST naming a table the copy
 * lacks). So the copy is taken again until no file appeared, vanished or changed size while it
 * was made: then it is the directory as it was at any instant of that copy.
 */
final class CrashCopy {
  private CrashCopy() {}

  /** Copies every file of {@code from} but the lock into {@code to}, emptied or created first. */
  static Path copy(Path from, Path to) throws IOException {
    for (int attempt = 0; ; attempt++) {
      Map<String, Long> before = sizes(from);
      if (copyOnce(from, to, before.keySet()) && before.equals(sizes(from))) {
        return to;
      }
      if (attempt == 1000) {
        throw new IOException("the database under " + from + " never held still for a copy");
      }
      try {
        Thread.sleep(10); // a flush or compaction is under way: let it finish
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while copying " + from, e);
      }
    }
  }

  /** False when a listed file vanished before it was copied. */
  private static boolean copyOnce(Path from, Path to, Set<String> names) throws IOException {
    if (Files.exists(to)) {
      try (Stream<Path> files = Files.list(to)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(to);
    for (String name : names) {
      try {
        Files.copy(from.resolve(name), to.resolve(name));
      } catch (NoSuchFileException e) {
        return false;
      }
    }
    return true;
  }

  /** Every file but the lock, by name, with its size; a file that vanishes while listed is left out. */
  private static Map<String, Long> sizes(Path dir) throws IOException {
    Map<String, Long> sizes = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String name = p.getFileName().toString();
        if (!name.equals(FileNames.LOCK)) {
          try {
            sizes.put(name, Files.size(p));
          } catch (NoSuchFileException e) {
            // deleted between the listing and the size: the next listing tells
          }
        }
      }
    }
    return sizes;
  }
}
