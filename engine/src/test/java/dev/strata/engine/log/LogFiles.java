package dev.strata.engine.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Writes logs and reads them back whole, for the log tests. Not thread-safe. */
final class LogFiles {

  private LogFiles() {}

  /** What reading a whole log gave. */
  record ReadResult(
      List<LogRecord> records,
      boolean tailDropped,
      long droppedBytes,
      long validLength,
      String tailReport) {}

  /**
   * Writes {@code records} to a new log, in random groups; returns each record's end offset (the
   * file size after it).
   */
  static List<Long> write(Path file, long number, List<LogRecord> records, Random r)
      throws IOException {
    List<Long> ends = new ArrayList<>();
    try (LogWriter w = LogWriter.create(file, number, r.nextInt(4) == 0)) {
      int i = 0;
      while (i < records.size()) {
        int group = 1 + r.nextInt(Math.min(4, records.size() - i));
        List<byte[]> payloads = new ArrayList<>();
        for (int j = 0; j < group; j++) {
          payloads.add(BatchCodec.encode(records.get(i + j)));
        }
        long offset = group == 1 ? w.append(payloads.get(0)) : w.append(payloads);
        for (byte[] p : payloads) {
          offset += LogFormat.RECORD_HEADER_BYTES + p.length;
          ends.add(offset);
        }
        i += group;
      }
      if (!ends.isEmpty() && ends.get(ends.size() - 1) != w.size()) {
        throw new AssertionError("offsets disagree with the writer's size");
      }
    }
    if (Files.size(file)
        != (ends.isEmpty() ? LogFormat.FILE_HEADER_BYTES : ends.get(ends.size() - 1))) {
      throw new AssertionError("file size disagrees with the writer");
    }
    return ends;
  }

  static ReadResult readAll(Path file, long number) throws IOException {
    List<LogRecord> out = new ArrayList<>();
    try (LogReader reader = LogReader.open(file, number)) {
      for (LogRecord rec; (rec = reader.nextRecord()) != null; ) {
        out.add(rec);
      }
      if (reader.nextRecord() != null) {
        throw new AssertionError("a record after the end");
      }
      return new ReadResult(
          out,
          reader.tailDropped(),
          reader.droppedBytes(),
          reader.validLength(),
          reader.tailReport());
    }
  }

  static void truncate(Path file, long length) throws IOException {
    try (var ch =
        java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
      ch.truncate(length);
    }
  }

  static void flipBit(Path file, long offset, int bit) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[(int) offset] ^= (byte) (1 << bit);
    Files.write(file, bytes);
  }
}
