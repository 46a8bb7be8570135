package dev.strata.engine.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class LogProperties {

  @TempDir Path dir;

  private final AtomicLong numbers = new AtomicLong(1);

  @Test
  void read_returnsEveryRecordWritten() {
    qt().withExamples(60)
        .forAll(longs().all(), integers().between(0, 25))
        .checkAssert(
            (seed, count) ->
                unchecked(
                    () -> {
                      Random r = new Random(seed);
                      List<LogRecord> records = LogGens.records(r, count, 6, 300_000);
                      long number = numbers.getAndIncrement();
                      Path file = dir.resolve(number + ".log");
                      List<Long> ends = LogFiles.write(file, number, records, r);
                      LogFiles.ReadResult result = LogFiles.readAll(file, number);
                      assertEquals(records, result.records());
                      assertFalse(result.tailDropped());
                      assertNull(result.tailReport());
                      assertEquals(0, result.droppedBytes());
                      assertEquals(Files.size(file), result.validLength());
                      assertEquals(count, ends.size());
                    }));
  }

  @Test
  void read_ofALogCutAnywhere_returnsTheCompleteRecordsAndDropsTheRest() {
    qt().withExamples(150)
        .forAll(longs().all(), integers().between(0, 12))
        .checkAssert(
            (seed, count) ->
                unchecked(
                    () -> {
                      Random r = new Random(seed);
                      List<LogRecord> records = LogGens.records(r, count, 4, 2_000);
                      long number = numbers.getAndIncrement();
                      Path file = dir.resolve(number + ".log");
                      List<Long> ends = LogFiles.write(file, number, records, r);
                      byte[] original = Files.readAllBytes(file);
                      long cut = (long) (r.nextDouble() * (original.length + 1));
                      LogFiles.truncate(file, cut);
                      long zeroBytes = r.nextBoolean() ? 1 + r.nextInt(3 * 4096) : 0;
                      // A power loss can leave allocated but unwritten (zero) blocks at the end.
                      Files.write(file, new byte[(int) zeroBytes], StandardOpenOption.APPEND);
                      long newSize = cut + zeroBytes;
                      // A record survives when its bytes are all still there: before the cut, or
                      // zeros that happen to equal what was written.
                      int complete = 0;
                      while (complete < ends.size()
                          && intact(original, cut, newSize, ends.get(complete))) {
                        complete++;
                      }
                      long validEnd =
                          complete > 0
                              ? ends.get(complete - 1)
                              : intact(original, cut, newSize, LogFormat.FILE_HEADER_BYTES)
                                  ? LogFormat.FILE_HEADER_BYTES
                                  : 0;
                      long dropped = newSize - validEnd;
                      LogFiles.ReadResult result = LogFiles.readAll(file, number);
                      assertEquals(records.subList(0, complete), result.records());
                      assertEquals(validEnd, result.validLength());
                      assertEquals(dropped, result.droppedBytes());
                      assertEquals(result.droppedBytes() > 0, result.tailDropped());
                      if (result.tailDropped()) {
                        assertTrue(
                            result
                                .tailReport()
                                .contains("tail dropped, " + result.droppedBytes() + " bytes"),
                            result.tailReport());
                      }
                    }));
  }

  /** True when bytes [0, end) of the cut and zero-extended file equal the original's. */
  private static boolean intact(byte[] original, long cut, long newSize, long end) {
    if (end > newSize) {
      return false;
    }
    for (long i = cut; i < end; i++) {
      if (original[(int) i] != 0) {
        return false;
      }
    }
    return true;
  }

  interface IoAction {
    void run() throws IOException;
  }

  static void unchecked(IoAction action) {
    try {
      action.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
