package dev.strata.engine.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.FormatVersionException;
import dev.strata.sstable.testing.FuzzedDamage;
import dev.strata.sstable.testing.FuzzedDamage.Damaged;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    Damaged damage = FuzzedDamage.overwrite(Files.readAllBytes(file), 64, data);
    Files.write(file, damage.bytes());
    LogFiles.ReadResult read;
    try {
      read = LogFiles.readAll(file, 1);
    } catch (CorruptionException | FormatVersionException reported) {
      return;
    }
    // Records wholly before the damage come back exactly. After it, the fuzzer may have forged a
    // record with a valid checksum (it solves comparisons), which no reader could tell apart.
    for (int i = 0; i < written.size() && ends.get(i) <= damage.intactPrefix(); i++) {
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
