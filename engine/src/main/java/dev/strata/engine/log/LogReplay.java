package dev.strata.engine.log;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.WalRecoveryMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;

/**
 * Replays the logs of a database, oldest first, as one history, under a {@link WalRecoveryMode}.
 * The history must be contiguous: each record's first sequence number is one above the last of
 * the record before it, in the same log or the previous one (a log that vanished, or lost pages in
 * the middle, breaks the chain); the first record may start at most one above the manifest's last
 * sequence number. A log left with no record (cut back to its header, or to nothing) before any
 * record was replayed, while a newer log holds records, breaks the chain too: the engine opens a
 * new log only when the memtable holds something, so that log had records a power loss took
 * (its pages were never forced, the newer log's were written back first).
 *
 * <p>Under {@link WalRecoveryMode#POINT_IN_TIME} replay stops at the first record it cannot take
 * (torn, damaged, failing to parse, or out of sequence): that record, the rest of its log and every
 * newer log are dropped and counted. Under {@link WalRecoveryMode#ABSOLUTE_CONSISTENCY} only a torn
 * tail of the newest log is dropped; anything else throws {@link CorruptionException}.
 *
 * <p>Either mode drops only what may never have reached the disk. So a log the manifest records as
 * forced up to a length (a clean close forces its logs and says so) must replay whole up to there,
 * in every mode: a stop before that length, or the log dropped whole behind an older one's damage,
 * throws {@link CorruptionException}, since those records were durable and acknowledged.
 *
 * <pre>{@code
 * LogReplay.Result r = LogReplay.replay(logsByNumber, manifestLastSequence, mode, memtable::apply);
 * if (r.droppedBytes() > 0) logger.log(WARNING, r.report());
 * }</pre>
 *
 * <p>Not thread-safe: used once, by the opening thread.
 */
public final class LogReplay {

  /** Takes the records of the consistent prefix, in order. */
  @FunctionalInterface
  public interface Sink {
    void accept(LogRecord record);
  }

  /**
   * What the replay kept and dropped.
   *
   * @param lastSequence the largest sequence number replayed or in the manifest
   * @param lastReplayedSequence the last sequence number of the last record replayed, or -1
   * @param records the records replayed
   * @param droppedBytes bytes of the logs not replayed: torn or damaged records and all after them
   * @param droppedRecords records known to be dropped: the torn or damaged one, and every record
   *     that could still be read behind it (a lower bound: damage hides how many follow)
   * @param droppedFiles whole log files dropped because they come after the stop
   * @param stop where replay stopped (file and offset), or null when every log was replayed whole
   * @param tornTailOnly true when the only thing dropped is a torn tail of the newest log (the
   *     case a killed process leaves; the log is still a clean prefix once cut back there)
   * @param notes one line per log that lost bytes, for the report
   */
  public record Result(
      long lastSequence,
      long lastReplayedSequence,
      long records,
      long droppedBytes,
      long droppedRecords,
      int droppedFiles,
      Stop stop,
      boolean tornTailOnly,
      List<String> notes) {

    /** A one-paragraph account of what was dropped and why, for the log. */
    public String report() {
      return String.format(
          Locale.ROOT,
          "log recovery dropped %d bytes (at least %d records, %d whole log files) after %s: %s",
          droppedBytes,
          droppedRecords,
          droppedFiles,
          stop,
          String.join("; ", notes));
    }
  }

  /** Where replay stopped: the first byte not replayed. */
  public record Stop(Path file, long fileNumber, long offset) {
    @Override
    public String toString() {
      return file + " offset " + offset;
    }
  }

  private LogReplay() {}

  /**
   * Replays {@code logs} (file number to path; every log the manifest still needs) into {@code
   * sink}.
   *
   * @param manifestLastSequence the last sequence number the manifest vouches for
   * @throws CorruptionException under {@link WalRecoveryMode#ABSOLUTE_CONSISTENCY}, for anything
   *     but a torn tail of the newest log
   */
  public static Result replay(
      SortedMap<Long, Path> logs, long manifestLastSequence, WalRecoveryMode mode, Sink sink)
      throws IOException {
    return replay(logs, Map.of(), manifestLastSequence, mode, sink);
  }

  /**
   * As {@link #replay(SortedMap, long, WalRecoveryMode, Sink)}, where {@code forcedBytes} maps the
   * number of each log known to be forced to the length it was forced to.
   *
   * @throws CorruptionException as above, and in every mode when replay would drop bytes of a log
   *     within its forced length
   */
  public static Result replay(
      SortedMap<Long, Path> logs,
      Map<Long, Long> forcedBytes,
      long manifestLastSequence,
      WalRecoveryMode mode,
      Sink sink)
      throws IOException {
    long max = manifestLastSequence;
    long previous = -1; // the last sequence number of the record before, or -1 before the first
    long records = 0;
    long droppedBytes = 0;
    long droppedRecords = 0;
    int droppedFiles = 0;
    Stop stop = null;
    boolean tornTailOnly = false;
    List<String> notes = new ArrayList<>();
    long newest = logs.isEmpty() ? -1 : logs.lastKey();
    Path emptiedLeader = null; // an older log found without records before any record replayed
    for (Map.Entry<Long, Path> log : logs.entrySet()) {
      long number = log.getKey();
      Path file = log.getValue();
      if (stop != null) {
        long size = Files.size(file);
        checkNotForced(file, forcedBytes.get(number), 0, "dropped whole after the stop at " + stop);
        long readable = countReadableRecords(file, number);
        droppedBytes += size;
        droppedRecords += readable;
        droppedFiles++;
        tornTailOnly = false;
        notes.add(file.getFileName() + " dropped whole (" + size + " bytes, " + readable
            + " readable records)");
        continue;
      }
      long fileSize = Files.size(file);
      long cleanEnd = -1; // where the log ended cleanly, when it did
      LogReader reader = null;
      try {
        reader = LogReader.open(file, number);
        for (LogRecord r; (r = reader.nextRecord()) != null; ) {
          boolean first = previous < 0;
          long expected = first ? manifestLastSequence + 1 : previous + 1;
          boolean inSequence =
              first
                  ? emptiedLeader == null && r.firstSequence() <= expected
                  : r.firstSequence() == expected;
          if (!inSequence) {
            CorruptionException gap =
                outOfSequence(file, reader.recordOffset(), r, first, expected, emptiedLeader);
            if (mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
              throw gap;
            }
            stop = new Stop(file, number, reader.recordOffset());
            break;
          }
          sink.accept(r);
          records++;
          previous = r.lastSequence();
          max = Math.max(max, previous);
        }
        if (stop != null) {
          long readable = 1 + countReadableRecordsAfter(reader);
          droppedBytes += fileSize - stop.offset();
          droppedRecords += readable;
          notes.add(file.getFileName() + " out of sequence at offset " + stop.offset()
              + " (" + readable + " readable records dropped)");
        } else if (reader.tailDropped()) {
          boolean newestLog = number == newest;
          if (!newestLog && mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
            throw new CorruptionException(
                file,
                reader.validLength(),
                "torn record in a log that is not the newest (%s): newer logs would replay data"
                    + " from after the gap",
                reader.tailReport());
          }
          stop = new Stop(file, number, reader.validLength());
          tornTailOnly = newestLog;
          droppedBytes += reader.droppedBytes();
          droppedRecords++;
          notes.add(reader.tailReport());
        } else {
          cleanEnd = reader.validLength();
          if (previous < 0 && number != newest && emptiedLeader == null) {
            emptiedLeader = file;
          }
        }
      } catch (CorruptionException e) {
        if (mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
          throw e;
        }
        // The reader stopped before the damaged record: its valid length is where damage begins.
        long at = reader == null ? 0 : reader.validLength();
        stop = new Stop(file, number, at);
        tornTailOnly = false;
        droppedBytes += fileSize - at;
        droppedRecords++;
        notes.add(file.getFileName() + " damaged at offset " + at + ": " + e.getMessage());
      } finally {
        if (reader != null) {
          reader.close();
        }
      }
      if (stop != null && stop.fileNumber() == number) {
        checkNotForced(file, forcedBytes.get(number), stop.offset(), notes.get(notes.size() - 1));
      } else {
        checkNotForced(file, forcedBytes.get(number), cleanEnd, "the file ends there");
      }
    }
    return new Result(
        max, previous, records, droppedBytes, droppedRecords, droppedFiles, stop, tornTailOnly, notes);
  }

  /**
   * Why record {@code r} at {@code offset} of {@code file} breaks the chain: it follows {@code
   * emptiedLeader}, an older log with no record (when {@code r} is the first record), or it does not
   * start at {@code expected} (at most {@code expected} for the first).
   */
  private static CorruptionException outOfSequence(
      Path file, long offset, LogRecord r, boolean first, long expected, Path emptiedLeader) {
    if (first && emptiedLeader != null) {
      return new CorruptionException(
          file,
          offset,
          "log record at sequence %d follows %s, an older log with no record: its records are"
              + " missing",
          r.firstSequence(),
          emptiedLeader.getFileName());
    }
    return new CorruptionException(
        file,
        offset,
        "log record starts at sequence %d, expected %s%d: a log or part of one is missing",
        r.firstSequence(),
        first ? "at most " : "",
        expected);
  }

  /**
   * Throws when bytes from {@code offset} on are to be dropped from {@code file} although the
   * manifest records it as forced up to {@code forced} bytes (null: not recorded).
   */
  private static void checkNotForced(Path file, Long forced, long offset, String why)
      throws CorruptionException {
    if (forced != null && offset < forced) {
      throw new CorruptionException(
          file,
          offset,
          "log forced to %d bytes at a clean close cannot be replayed past offset %d (%s):"
              + " acknowledged writes would be lost",
          forced,
          offset,
          why);
    }
  }

  /** Records that read cleanly from the start of a dropped log, up to its first damage. */
  private static long countReadableRecords(Path file, long number) {
    try (LogReader reader = LogReader.open(file, number)) {
      return countReadableRecordsAfter(reader);
    } catch (IOException e) {
      return 0; // a dropped log whose header is damaged: nothing readable
    }
  }

  /** Records that read cleanly from the reader's position on, up to the first damage. */
  private static long countReadableRecordsAfter(LogReader reader) {
    long n = 0;
    try {
      while (reader.next() != null) {
        n++;
      }
    } catch (IOException e) {
      // Damage in a dropped stretch ends the count; it is dropped either way.
    }
    return n;
  }
}
