package dev.strata.engine.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.write.Mutation;
import dev.strata.sstable.key.InternalKey;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class BatchCodecProperties {

  private static final Path FILE = Path.of("000007.log");

  @Test
  void decode_inversesEncode() {
    qt().withExamples(300)
        .forAll(longs().all(), integers().between(0, 40))
        .checkAssert(
            (seed, maxOps) -> {
              Random r = new Random(seed);
              LogRecord record = LogGens.records(r, 1, maxOps, 100_000).get(0);
              byte[] payload = BatchCodec.encode(record);
              assertEquals(record, decode(payload));
              long opBytes = 0;
              for (Mutation m : record.mutations()) {
                opBytes += LogFormat.encodedSize(m);
              }
              assertEquals(
                  LogFormat.BATCH_HEADER_BYTES + opBytes + LogFormat.markersSize(record.markers()),
                  payload.length);
            });
  }

  @Test
  void aRecordWithoutMarkers_hasTheBytesOfVersion1_andVersion1RefusesTrailingMarkers() {
    qt().withExamples(200)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              Random r = new Random(seed);
              LogRecord record = LogGens.records(r, 1, 10, 200).get(0);
              byte[] payload = BatchCodec.encode(record);
              if (record.markers().isEmpty()) {
                assertEquals(record, decode(payload, 1));
              } else {
                assertThrows(
                    CorruptionException.class, () -> BatchCodec.decode(payload, FILE, 0, 1));
                assertEquals(record, decode(payload, 2));
              }
            });
  }

  @Test
  void decode_ofATruncatedPayload_throwsCorruptionNamingTheFile() {
    qt().withExamples(200)
        .forAll(longs().all(), integers().between(1, 10))
        .checkAssert(
            (seed, ops) -> {
              Random r = new Random(seed);
              List<Mutation> batch = LogGens.batch(r, ops, 200);
              byte[] payload = BatchCodec.encode(5, batch);
              int cut = r.nextInt(payload.length);
              byte[] shorter = Arrays.copyOf(payload, cut);
              CorruptionException e =
                  assertThrows(
                      CorruptionException.class, () -> BatchCodec.decode(shorter, FILE, 1000));
              assertEquals(FILE, e.file());
              assertTrue(e.offset() >= 1000 && e.offset() <= 1000 + cut, e.getMessage());
            });
  }

  @Test
  void decode_ofRandomBytes_throwsOnlyCorruption() {
    qt().withExamples(500)
        .forAll(longs().all(), integers().between(0, 300))
        .checkAssert(
            (seed, length) -> {
              Random r = new Random(seed);
              byte[] garbage = LogGens.bytes(r, length);
              if (length >= LogFormat.BATCH_HEADER_BYTES && r.nextBoolean()) {
                // A plausible header so the op parser is reached.
                garbage[0] = 0;
                garbage[8] = 0;
                garbage[9] = 0;
                garbage[10] = 0;
                garbage[11] = (byte) r.nextInt(4);
              }
              try {
                LogRecord rec = BatchCodec.decode(garbage, FILE, 0);
                assertEquals(rec, BatchCodec.decode(BatchCodec.encode(rec), FILE, 0));
              } catch (CorruptionException expected) {
                assertTrue(expected.getMessage().contains(FILE.toString()));
              }
            });
  }

  private static LogRecord decode(byte[] payload) {
    try {
      return BatchCodec.decode(payload, FILE, 100);
    } catch (CorruptionException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void encode_rejectsSequencesPastTheMaximum() {
    List<Mutation> two =
        List.of(Mutation.deleteRow(new byte[] {1}), Mutation.deleteRow(new byte[] {2}));
    BatchCodec.encode(InternalKey.MAX_SEQUENCE - 1, two);
    assertThrows(
        IllegalArgumentException.class, () -> BatchCodec.encode(InternalKey.MAX_SEQUENCE, two));
    assertThrows(IllegalArgumentException.class, () -> BatchCodec.encode(-1, two));
  }

  private static LogRecord decode(byte[] payload, int version) {
    try {
      return BatchCodec.decode(payload, FILE, 0, version);
    } catch (CorruptionException e) {
      throw new AssertionError(e);
    }
  }
}
