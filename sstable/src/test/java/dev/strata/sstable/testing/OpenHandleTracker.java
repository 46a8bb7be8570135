package dev.strata.sstable.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files under JUnit's temporary directories that this process still holds open, read from the
 * kernel's table of open descriptors ({@code /proc/self/fd}). Nothing in the production code is
 * instrumented for it: a table reader, log, lock or channel left open by any path (a failed open, a
 * forgotten release of a reference count) shows up as a descriptor.
 *
 * <p>Where the kernel offers no such table (not Linux) there is nothing to read and the list is
 * empty; CI runs on Linux. Thread-safe (stateless).
 */
public final class OpenHandleTracker {
  private static final Path DESCRIPTORS = Path.of("/proc/self/fd");
  /** JUnit's {@code @TempDir} directories are {@code <java.io.tmpdir>/junit-<number>}. */
  private static final String TEMP_DIR_PREFIX = "junit";

  private OpenHandleTracker() {}

  /** The open files under a JUnit temporary directory, by path (a file opened twice is listed twice). */
  public static List<Path> openTestFiles() {
    List<Path> open = new ArrayList<>();
    if (!Files.isDirectory(DESCRIPTORS)) {
      return open;
    }
    Path tmp = realTempDir();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(DESCRIPTORS)) {
      for (Path fd : fds) {
        Path target;
        try {
          target = Files.readSymbolicLink(fd);
        } catch (NoSuchFileException e) {
          continue; // closed since the listing, including the descriptor of the listing itself
        }
        if (isUnderTestTempDir(target, tmp)) {
          open.add(target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return open;
  }

  /** Fails, naming the files, when anything under a JUnit temporary directory is still open. */
  public static void assertNoneOpen() {
    List<Path> open = openTestFiles();
    if (!open.isEmpty()) {
      throw new AssertionError("files left open: " + open);
    }
  }

  private static boolean isUnderTestTempDir(Path target, Path tmp) {
    int depth = tmp.getNameCount();
    return target.startsWith(tmp)
        && target.getNameCount() > depth
        && target.getName(depth).toString().startsWith(TEMP_DIR_PREFIX);
  }

  private static Path realTempDir() {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    try {
      return tmp.toRealPath();
    } catch (IOException e) {
      return tmp.toAbsolutePath();
    }
  }
}
