package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.engine.fs.FileNames;
import dev.strata.engine.log.LogWriter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A power loss can leave the logs a database needs with no record at all: an older one cut to
 * nothing (its header and records never forced) and the newest holding only its header. Recovery
 * accepts that (nothing follows the empty log), but the open must not then append to the newest
 * log behind the empty one: after the next crash the empty log reads as one whose records a power
 * loss took while a newer log's survived, and replay drops everything after it, forced writes
 * included. Found by PowerLossProperties (a cycle under {@code syncWrites(false)} left the logs so,
 * the next cycle's forced batches were all dropped at its reopen).
 */
final class ResumeBehindEmptyLogsTest {
  @TempDir Path root;

  @Test
  void forcedWritesAfterAnOpenOverAnEmptyOlderLog_surviveTheNextCrash() throws IOException {
    Path live = root.resolve("live");
    DbOptions options = DbOptions.builder().syncWrites(true).build();
    try (Db db = Db.open(live, options)) {
      Path crashed = CrashCopy.copy(live, root.resolve("crashed"));
      // What a power loss may leave: the log the manifest names cut to nothing, a newer one (a
      // switch that happened after it) holding its header only.
      long named = onlyLog(crashed);
      try (FileChannel ch = FileChannel.open(FileNames.log(crashed, named), StandardOpenOption.WRITE)) {
        ch.truncate(0);
      }
      LogWriter.create(FileNames.log(crashed, named + 1), named + 1, true).close();
      try (Db reopened = Db.open(crashed, options)) {
        reopened.put(bytes("k"), bytes(""), bytes("forced"));
        Path again = CrashCopy.copy(crashed, root.resolve("again"));
        try (Db last = Db.open(again, options)) {
          assertArrayEquals(bytes("forced"), last.get(bytes("k"), bytes("")),
              "a write acknowledged under syncWrites was lost");
          assertEquals(0, last.stats().recovery().walBytesDropped());
        }
      }
      db.flush();
    }
  }

  private static long onlyLog(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      List<Long> logs =
          files
              .flatMap(f -> FileNames.parse(f.getFileName()).stream())
              .filter(p -> p.type() == FileNames.FileType.LOG)
              .map(FileNames.ParsedName::number)
              .toList();
      assertEquals(1, logs.size(), "one log: " + logs);
      return logs.get(0);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
