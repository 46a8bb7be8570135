package dev.strata.engine.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.FormatVersionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log's parsers against fuzzed bytes. A damaged log gives back every record that lies wholly
 * before the damage, or fails with {@link CorruptionException} or {@link FormatVersionException},
 * never with another exception; a payload that passed its checksum decodes or fails with {@link CorruptionException}.
 * Under {@code mvn verify} the targets run their checked-in inputs; {@code JAZZER_FUZZ=1} fuzzes
 * (see README).
 */
final class LogFuzzTest {
  private static final Path FILE = Path.of("000001.log");

  @TempDir Path dir;

  /** A real log, then fuzzed bytes written over it from a fuzzed offset, maybe a cut. */
  @FuzzTest
  void read_damagedLog_writtenPrefixOrCorruption(FuzzedDataProvider data) throws IOException {
    Random r = new Random(data.consumeLong());
    List<LogRecord> written = LogGens.records(r, data.consumeInt(0, 5), 4, 0);
    Path file = dir.resolve(FILE);
    Files.deleteIfExists(file);
    List<Long> ends = LogFiles.write(file, 1, written, r);
    byte[] bytes = Files.readAllBytes(file);
    int from = data.consumeInt(0, bytes.length);
    byte[] patch = data.consumeBytes(bytes.length + 64 - from);
    byte[] damaged = new byte[Math.max(bytes.length, from + patch.length)];
    System.arraycopy(bytes, 0, damaged, 0, bytes.length);
    System.arraycopy(patch, 0, damaged, from, patch.length);
    int intactUpTo = from;
    if (data.consumeBoolean()) {
      int cut = data.consumeInt(0, damaged.length);
      damaged = Arrays.copyOf(damaged, cut);
      intactUpTo = Math.min(from, cut);
    }
    Files.write(file, damaged);
    LogFiles.ReadResult read;
    try {
      read = LogFiles.readAll(file, 1);
    } catch (CorruptionException | FormatVersionException reported) {
      return;
    }
    // Records wholly before the damage come back exactly. After it, the fuzzer may have forged a
    // record with a valid checksum (it solves comparisons), which no reader could tell apart.
    for (int i = 0; i < written.size() && ends.get(i) <= intactUpTo; i++) {
      assertTrue(i < read.records().size(), "intact record " + i + " lost");
      assertArrayEquals(
          BatchCodec.encode(written.get(i)),
          BatchCodec.encode(read.records().get(i)),
          "record " + i + " is not what was written");
    }
  }

  /** Any payload behind a valid checksum: a record that encodes back to it, or corruption. */
  @FuzzTest
  void decode_anyPayload_recordOrCorruption(byte[] payload) {
    LogRecord record;
    try {
      record = BatchCodec.decode(payload, FILE, 0);
    } catch (CorruptionException reported) {
      return;
    }
    assertArrayEquals(payload, BatchCodec.encode(record), "accepted payloads must be canonical");
  }
}
