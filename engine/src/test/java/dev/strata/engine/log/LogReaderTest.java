package dev.strata.engine.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.checksum.Checksums;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.FormatVersionException;
import dev.strata.engine.write.Mutation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class LogReaderTest {

  private static final long NUMBER = 13;

  @TempDir Path dir;

  private Path file;
  private List<LogRecord> records;
  private List<Long> ends;
  private byte[] original;

  @BeforeEach
  void writeLog() throws IOException {
    file = dir.resolve("000013.log");
    Random r = new Random(42);
    records = new ArrayList<>();
    long sequence = 100;
    for (int i = 0; i < 5; i++) {
      List<Mutation> ops = new ArrayList<>();
      for (int j = 0; j <= i % 3; j++) {
        ops.add(Mutation.put(LogGens.bytes(r, 3), LogGens.bytes(r, 2), LogGens.bytes(r, 7)));
      }
      if (i == 3) {
        ops.add(Mutation.deleteRow(new byte[] {9}));
      }
      records.add(new LogRecord(sequence, ops));
      sequence += ops.size();
    }
    ends = LogFiles.write(file, NUMBER, records, r);
    original = Files.readAllBytes(file);
  }

  @Test
  void next_tornTailAtEveryOffsetOfTheLastRecord_isDroppedCleanly() throws IOException {
    long lastStart = ends.get(ends.size() - 2);
    for (long cut = lastStart; cut < original.length; cut++) {
      Files.write(file, original);
      LogFiles.truncate(file, cut);
      LogFiles.ReadResult result = LogFiles.readAll(file, NUMBER);
      assertEquals(records.subList(0, records.size() - 1), result.records(), "cut " + cut);
      assertEquals(lastStart, result.validLength());
      assertEquals(cut - lastStart, result.droppedBytes());
      assertEquals(cut > lastStart, result.tailDropped());
      if (cut > lastStart) {
        assertTrue(
            result.tailReport().contains("tail dropped, " + (cut - lastStart) + " bytes"),
            result.tailReport());
        assertTrue(result.tailReport().contains(file.toString()));
      }
    }
  }

  @Test
  void next_flippedBitInAnyRecordButTheLast_throwsCorruptionNamingFileAndRecord()
      throws IOException {
    long lastStart = ends.get(ends.size() - 2);
    for (long offset = 0; offset < lastStart; offset++) {
      Files.write(file, original);
      LogFiles.flipBit(file, offset, (int) (offset % 8));
      CorruptionException e =
          assertThrows(
              CorruptionException.class, () -> LogFiles.readAll(file, NUMBER), "offset " + offset);
      assertEquals(file, e.file());
      assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
      assertEquals(recordStart(offset), e.offset(), "flip at " + offset + ": " + e.getMessage());
    }
  }

  @Test
  void next_flippedBitInTheLastRecordsPayload_dropsThatRecordAsATornTail() throws IOException {
    long lastStart = ends.get(ends.size() - 2);
    for (long offset = lastStart + LogFormat.RECORD_HEADER_BYTES;
        offset < original.length;
        offset++) {
      Files.write(file, original);
      LogFiles.flipBit(file, offset, 3);
      LogFiles.ReadResult result = LogFiles.readAll(file, NUMBER);
      assertEquals(records.subList(0, records.size() - 1), result.records());
      assertTrue(result.tailDropped());
      assertEquals(original.length - lastStart, result.droppedBytes());
    }
  }

  @Test
  void next_flippedBitInTheLastRecordsHeader_isCorruption() throws IOException {
    long lastStart = ends.get(ends.size() - 2);
    LogFiles.flipBit(file, lastStart + 5, 0);
    CorruptionException e =
        assertThrows(CorruptionException.class, () -> LogFiles.readAll(file, NUMBER));
    assertEquals(lastStart, e.offset());
  }

  @Test
  void next_garbageAfterTheLastRecord_isCorruption() throws IOException {
    byte[] garbage = new byte[40];
    new Random(1).nextBytes(garbage);
    Files.write(file, garbage, StandardOpenOption.APPEND);
    CorruptionException e =
        assertThrows(CorruptionException.class, () -> LogFiles.readAll(file, NUMBER));
    assertEquals(original.length, e.offset());
  }

  @Test
  void next_shortGarbageAfterTheLastRecord_isAnIncompleteHeader() throws IOException {
    Files.write(file, new byte[] {1, 2, 3, 4, 5}, StandardOpenOption.APPEND);
    LogFiles.ReadResult result = LogFiles.readAll(file, NUMBER);
    assertEquals(records, result.records());
    assertEquals(5, result.droppedBytes());
  }

  @Test
  void next_zerosAfterTheLastRecord_areATornTail() throws IOException {
    Files.write(file, new byte[10_000], StandardOpenOption.APPEND);
    LogFiles.ReadResult result = LogFiles.readAll(file, NUMBER);
    assertEquals(records, result.records());
    assertEquals(10_000, result.droppedBytes());
    assertEquals(original.length, result.validLength());
  }

  @Test
  void next_zeroedRecordFollowedByGoodRecords_isCorruption() throws IOException {
    byte[] bytes = original.clone();
    long start = ends.get(1);
    for (long i = start; i < ends.get(2); i++) {
      bytes[(int) i] = 0;
    }
    Files.write(file, bytes);
    CorruptionException e =
        assertThrows(CorruptionException.class, () -> LogFiles.readAll(file, NUMBER));
    assertEquals(start, e.offset());
  }

  @Test
  void open_truncatedFileHeader_isAnEmptyLogWithItsBytesDropped() throws IOException {
    for (int cut = 0; cut < LogFormat.FILE_HEADER_BYTES; cut++) {
      Files.write(file, original);
      LogFiles.truncate(file, cut);
      LogFiles.ReadResult result = LogFiles.readAll(file, NUMBER);
      assertTrue(result.records().isEmpty());
      assertEquals(cut, result.droppedBytes());
      assertEquals(cut > 0, result.tailDropped());
      assertEquals(0, result.validLength());
    }
  }

  @Test
  void open_headerOnly_isAnEmptyLog() throws IOException {
    LogFiles.truncate(file, LogFormat.FILE_HEADER_BYTES);
    LogFiles.ReadResult result = LogFiles.readAll(file, NUMBER);
    assertTrue(result.records().isEmpty());
    assertFalse(result.tailDropped());
    assertEquals(LogFormat.FILE_HEADER_BYTES, result.validLength());
  }

  @Test
  void open_wrongFileNumber_isCorruption() {
    CorruptionException e =
        assertThrows(CorruptionException.class, () -> LogFiles.readAll(file, NUMBER + 1));
    assertTrue(e.getMessage().contains("file number 13, expected 14"), e.getMessage());
  }

  @Test
  void open_notALog_isCorruption() throws IOException {
    byte[] bytes = original.clone();
    bytes[0] = 'X';
    // Keep the header checksum valid so that the magic check itself is reached.
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(
            LogFormat.FILE_HEADER_CRC_OFFSET,
            Checksums.maskedCrc32c(bytes, 0, LogFormat.FILE_HEADER_CRC_OFFSET));
    Files.write(file, bytes);
    CorruptionException e =
        assertThrows(CorruptionException.class, () -> LogFiles.readAll(file, NUMBER));
    assertTrue(e.getMessage().contains("not a log file"), e.getMessage());
  }

  @Test
  void open_newerFormatVersion_throwsFormatVersionException() throws IOException {
    byte[] bytes = original.clone();
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(8, LogFormat.VERSION_CURRENT + 1);
    b.putInt(
        LogFormat.FILE_HEADER_CRC_OFFSET,
        Checksums.maskedCrc32c(bytes, 0, LogFormat.FILE_HEADER_CRC_OFFSET));
    Files.write(file, bytes);
    FormatVersionException e =
        assertThrows(FormatVersionException.class, () -> LogFiles.readAll(file, NUMBER));
    assertEquals(LogFormat.VERSION_CURRENT + 1, e.version());
  }

  @Test
  void nextRecord_payloadThatPassesItsChecksumButDoesNotParse_isCorruption() throws IOException {
    Path other = dir.resolve("000014.log");
    byte[] bad =
        BatchCodec.encode(1, List.of(Mutation.put(new byte[] {1}, new byte[0], new byte[] {2})));
    bad[LogFormat.BATCH_HEADER_BYTES] = 77; // no kind has id 77
    try (LogWriter w = LogWriter.create(other, 14, false)) {
      w.append(bad);
    }
    CorruptionException e =
        assertThrows(CorruptionException.class, () -> LogFiles.readAll(other, 14));
    assertEquals(
        LogFormat.FILE_HEADER_BYTES + LogFormat.RECORD_HEADER_BYTES + LogFormat.BATCH_HEADER_BYTES,
        e.offset());
    assertTrue(e.getMessage().contains("unknown kind id 77"), e.getMessage());
  }

  /** The start of the record (or 0 for the file header) that holds byte {@code offset}. */
  private long recordStart(long offset) {
    long start = 0;
    long next = LogFormat.FILE_HEADER_BYTES;
    for (long end : ends) {
      if (offset < next) {
        return start;
      }
      start = next;
      next = end;
    }
    return start;
  }
}
