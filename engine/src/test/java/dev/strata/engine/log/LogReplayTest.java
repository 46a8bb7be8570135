package dev.strata.engine.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.WalRecoveryMode;
import dev.strata.engine.write.Mutation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay of several logs as one history: never a gap, never data from after a
 * gap. The case found in testing: an older log torn by a power loss while a newer one reached the
 * disk whole used to replay the newer one behind the hole.
 */
final class LogReplayTest {
  @TempDir Path dir;

  private final Random random = new Random(11);
  private final TreeMap<Long, Path> logs = new TreeMap<>();
  /** Each log's record end offsets. */
  private final List<List<Long>> ends = new ArrayList<>();

  /** Three logs of four one-put records each, sequences 1..12 in order. */
  private void threeLogs() throws IOException {
    long seq = 1;
    for (long number = 3; number <= 5; number++) {
      List<LogRecord> records = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        byte[] row = ("row" + seq).getBytes();
        records.add(new LogRecord(seq++, List.of(Mutation.put(row, new byte[0], row))));
      }
      Path file = dir.resolve(number + ".log");
      ends.add(LogFiles.write(file, number, records, random));
      logs.put(number, file);
    }
  }

  private LogReplay.Result replay(WalRecoveryMode mode, List<Long> sequences) throws IOException {
    return LogReplay.replay(logs, 0, mode, r -> sequences.add(r.firstSequence()));
  }

  @Test
  void intactLogs_replayWhole() throws IOException {
    threeLogs();
    List<Long> seen = new ArrayList<>();
    LogReplay.Result r = replay(WalRecoveryMode.POINT_IN_TIME, seen);
    assertEquals(12, seen.size());
    assertEquals(12, r.lastSequence());
    assertEquals(0, r.droppedBytes());
    assertEquals(null, r.stop());
  }

  @Test
  void tornOlderLog_dropsTheNewerLogsWhole() throws IOException {
    threeLogs();
    Path middle = logs.get(4L);
    LogFiles.truncate(middle, ends.get(1).get(1) + 5); // inside the third record of log 4
    List<Long> seen = new ArrayList<>();
    LogReplay.Result r = replay(WalRecoveryMode.POINT_IN_TIME, seen);
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), seen, "a prefix, nothing from log 5");
    assertEquals(6, r.lastSequence());
    assertEquals(1, r.droppedFiles());
    assertEquals(1 + 4, r.droppedRecords(), "the torn record and log 5's four");
    assertEquals(5 + Files.size(logs.get(5L)), r.droppedBytes());
    assertFalse(r.tornTailOnly());
    assertTrue(r.report().contains("5.log"), r.report());

    CorruptionException e =
        assertThrows(
            CorruptionException.class, () -> replay(WalRecoveryMode.ABSOLUTE_CONSISTENCY, seen));
    assertTrue(e.getMessage().contains("4.log"), e.getMessage());
  }

  @Test
  void tornNewestLog_isTheCrashCaseBothModesAccept() throws IOException {
    threeLogs();
    LogFiles.truncate(logs.get(5L), ends.get(2).get(2) + 3);
    for (WalRecoveryMode mode : WalRecoveryMode.values()) {
      List<Long> seen = new ArrayList<>();
      LogReplay.Result r = replay(mode, seen);
      assertEquals(11, seen.size(), mode.name());
      assertTrue(r.tornTailOnly(), mode.name());
      assertEquals(1, r.droppedRecords(), mode.name());
    }
  }

  @Test
  void damagedRecordFollowedByIntactOnes_dropsFromTheDamage() throws IOException {
    threeLogs();
    LogFiles.flipBit(logs.get(3L), ends.get(0).get(0) + 14, 2); // in the second record of log 3
    List<Long> seen = new ArrayList<>();
    LogReplay.Result r = replay(WalRecoveryMode.POINT_IN_TIME, seen);
    assertEquals(List.of(1L), seen);
    assertEquals(2, r.droppedFiles());
    assertEquals(ends.get(0).get(0), r.stop().offset());
    assertThrows(
        CorruptionException.class,
        () -> replay(WalRecoveryMode.ABSOLUTE_CONSISTENCY, new ArrayList<>()));
  }

  @Test
  void missingMiddleLog_isAGapInTheSequence() throws IOException {
    threeLogs();
    Files.delete(logs.remove(4L)); // its name was never made durable: it vanished
    List<Long> seen = new ArrayList<>();
    LogReplay.Result r = replay(WalRecoveryMode.POINT_IN_TIME, seen);
    assertEquals(List.of(1L, 2L, 3L, 4L), seen, "log 5 starts at 9, after a hole");
    assertEquals(Files.size(logs.get(5L)) - LogFormat.FILE_HEADER_BYTES, r.droppedBytes());
    assertEquals(4, r.droppedRecords());
    CorruptionException e =
        assertThrows(
            CorruptionException.class,
            () -> replay(WalRecoveryMode.ABSOLUTE_CONSISTENCY, new ArrayList<>()));
    assertTrue(e.getMessage().contains("sequence 9"), e.getMessage());
  }

  @Test
  void firstRecord_mayStartAtOrBelowTheManifestsNextSequence_notAbove() throws IOException {
    threeLogs();
    assertEquals(
        12,
        LogReplay.replay(logs, 5, WalRecoveryMode.ABSOLUTE_CONSISTENCY, r -> {}).lastSequence());
    assertEquals(
        20,
        LogReplay.replay(logs, 20, WalRecoveryMode.ABSOLUTE_CONSISTENCY, r -> {}).lastSequence());
    // The manifest says 0 was the last, but the first log starts at 1 only if nothing is missing.
    logs.remove(3L);
    assertThrows(
        CorruptionException.class,
        () -> LogReplay.replay(logs, 0, WalRecoveryMode.ABSOLUTE_CONSISTENCY, r -> {}));
  }

  /**
   * The power-loss case of a log whose pages were never forced while a newer log's were written
   * back (the flush thread forces a frozen memtable's log only before flushing it): the older log
   * is cut back to its header, or to nothing, at a record boundary, so nothing in it looks torn. The
   * manifest's last sequence number is ahead of the logs, as the engine writes it, so only the
   * empty older log tells that records are missing.
   */
  @Test
  void oldestLogEmptied_whileANewerOneKeptItsRecords_isAGap() throws IOException {
    for (long cutTo : new long[] {LogFormat.FILE_HEADER_BYTES, 0}) {
      for (Path p : logs.values()) {
        Files.delete(p);
      }
      logs.clear();
      ends.clear();
      threeLogs();
      LogFiles.truncate(logs.get(3L), cutTo);
      List<Long> seen = new ArrayList<>();
      LogReplay.Result r =
          LogReplay.replay(logs, 12, WalRecoveryMode.POINT_IN_TIME, x -> seen.add(x.firstSequence()));
      assertEquals(List.of(), seen, "cut to " + cutTo + ": logs 4 and 5 come after a hole");
      assertEquals(4L, r.stop().fileNumber());
      assertEquals(1, r.droppedFiles());
      assertEquals(4 + 4, r.droppedRecords());
      assertEquals(12, r.lastSequence(), "the manifest's");
      CorruptionException e =
          assertThrows(
              CorruptionException.class,
              () -> LogReplay.replay(logs, 12, WalRecoveryMode.ABSOLUTE_CONSISTENCY, x -> {}));
      assertTrue(e.getMessage().contains("3.log"), e.getMessage());
    }
  }

  /**
   * An empty log after replayed records hides nothing when the next log continues the chain (a
   * reopened newest log cut back to its header, then a memtable switch), nor does an empty newest
   * log.
   */
  @Test
  void emptyLogBetweenContinuousLogs_orNewest_isNoGap() throws IOException {
    long seq = 1;
    for (long number = 3; number <= 6; number++) {
      List<LogRecord> records = new ArrayList<>();
      for (int i = 0; number != 4 && number != 6 && i < 4; i++) {
        byte[] row = ("row" + seq).getBytes();
        records.add(new LogRecord(seq++, List.of(Mutation.put(row, new byte[0], row))));
      }
      Path file = dir.resolve(number + ".log");
      LogFiles.write(file, number, records, random);
      logs.put(number, file);
    }
    for (WalRecoveryMode mode : WalRecoveryMode.values()) {
      LogReplay.Result r = LogReplay.replay(logs, 8, mode, x -> {});
      assertEquals(8, r.records(), mode.name());
      assertEquals(null, r.stop(), mode.name());
    }
  }
}
