package dev.strata.engine.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FaultyFileLayer;

import dev.strata.engine.write.Mutation;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class LogWriterTest {

  @TempDir Path dir;

  private static byte[] payload(long sequence) {
    return BatchCodec.encode(
        sequence, List.of(Mutation.put(new byte[] {1}, new byte[0], new byte[] {2})));
  }

  @Test
  void create_writesTheHeaderAndRefusesAnExistingFile() throws IOException {
    Path file = dir.resolve("000001.log");
    try (LogWriter w = LogWriter.create(file, 1, true)) {
      assertEquals(LogFormat.FILE_HEADER_BYTES, w.size());
      assertEquals(1, w.fileNumber());
      assertEquals(file, w.file());
    }
    assertEquals(LogFormat.FILE_HEADER_BYTES, Files.size(file));
    assertThrows(FileAlreadyExistsException.class, () -> LogWriter.create(file, 1, false));
  }

  @Test
  void append_returnsRecordOffsetsAndGroupsIntoOneWrite() throws IOException {
    Path file = dir.resolve("000002.log");
    byte[] a = payload(1);
    byte[] b = payload(2);
    byte[] c = payload(3);
    try (LogWriter w = LogWriter.create(file, 2, false)) {
      assertEquals(LogFormat.FILE_HEADER_BYTES, w.append(a));
      long second = LogFormat.FILE_HEADER_BYTES + LogFormat.RECORD_HEADER_BYTES + a.length;
      assertEquals(second, w.append(List.of(b, c)));
      w.sync();
      assertEquals(second + 2L * LogFormat.RECORD_HEADER_BYTES + b.length + c.length, w.size());
      assertEquals(w.size(), Files.size(file));
    }
    List<LogRecord> read = LogFiles.readAll(file, 2).records();
    assertEquals(List.of(1L, 2L, 3L), read.stream().map(LogRecord::firstSequence).toList());
  }

  @Test
  void append_thatFailsOnAFullDisk_leavesNoFragmentAndTheNextAppendWorks() throws IOException {
    FaultyFileLayer files = new FaultyFileLayer();
    Path file = dir.resolve("000004.log");
    try (LogWriter w = LogWriter.create(files, file, 4, false)) {
      w.append(payload(1));
      files.diskFull(true);
      assertThrows(IOException.class, () -> w.append(List.of(payload(2), payload(3))));
      assertFalse(w.failed());
      files.diskFull(false);
      w.append(payload(2));
      assertEquals(w.size(), Files.size(file));
    }
    LogFiles.ReadResult read = LogFiles.readAll(file, 4);
    assertEquals(List.of(1L, 2L), read.records().stream().map(LogRecord::firstSequence).toList());
  }

  @Test
  void append_byAnInterruptedThread_succeedsAndKeepsTheFlag() throws IOException {
    Path file = dir.resolve("000005.log");
    try (LogWriter w = LogWriter.create(file, 5, true)) {
      Thread.currentThread().interrupt();
      try {
        w.append(payload(1));
        w.sync();
        assertTrue(Thread.currentThread().isInterrupted());
      } finally {
        Thread.interrupted();
      }
      w.append(payload(2));
    }
    assertEquals(2, LogFiles.readAll(file, 5).records().size());
  }

  @Test
  void append_afterClose_throwsIllegalState() throws IOException {
    LogWriter w = LogWriter.create(dir.resolve("000003.log"), 3, false);
    w.close();
    w.close();
    assertThrows(IllegalStateException.class, () -> w.append(payload(1)));
    assertThrows(IllegalStateException.class, w::sync);
  }
}
