package dev.strata.bench.dbbench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Evicts a database's files from the OS page cache without privileges, for the cold cache state:
 * each file is fsynced (dirty pages cannot be dropped) and then dropped with {@code vmtouch -e}
 * when it is installed, or else with GNU dd's {@code iflag=nocache count=0}, which advises the
 * kernel to drop the whole file (POSIX_FADV_DONTNEED).
 *
 * <p>Immutable (static methods only).
 */
final class PageCache {
  /** Longest a single eviction command may take. */
  private static final long COMMAND_TIMEOUT_SECONDS = 120;

  private PageCache() {}

  /** Evicts every regular file under {@code dir}; returns the tool used. */
  static String evict(Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.filter(Files::isRegularFile).forEach(files::add);
    }
    for (Path f : files) {
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
        ch.force(true);
      }
    }
    if (onPath("vmtouch")) {
      run(List.of("vmtouch", "-q", "-e", dir.toString()));
      return "vmtouch -e";
    }
    for (Path f : files) {
      run(List.of("dd", "if=" + f, "iflag=nocache", "count=0", "status=none"));
    }
    return "dd iflag=nocache count=0";
  }

  private static boolean onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String d : path.split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(d, tool))) {
        return true;
      }
    }
    return false;
  }

  private static void run(List<String> command) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("timed out: " + String.join(" ", command));
      }
      String output = new String(p.getInputStream().readAllBytes());
      if (p.exitValue() != 0) {
        throw new IOException("failed (" + p.exitValue() + "): " + String.join(" ", command)
            + ": " + output.trim());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted: " + String.join(" ", command), e);
    }
  }
}
