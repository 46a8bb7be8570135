package dev.strata.engine.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strata.checksum.Checksums;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.FormatVersionException;
import dev.strata.sstable.testing.FuzzedDamage;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

/**
 * The manifest parser against damage that passes its checksum: a real manifest's snapshot record
 * has fuzzed bytes written over its payload from a fuzzed offset (maybe cut short), then a correct
 * length and checksum. It decodes to a manifest that breaks no invariant and encodes back to the
 * same bytes, or fails with
 * {@link CorruptionException} or {@link FormatVersionException}; nothing else. Checksum-failing
 * damage is covered exhaustively elsewhere ({@code CrashRecoveryTest}). Under {@code mvn verify}
 * the target runs its checked-in inputs; {@code JAZZER_FUZZ=1} fuzzes (see README).
 */
final class ManifestFuzzTest {
  private static final Path FILE = Path.of("MANIFEST");

  @FuzzTest
  void decode_rewrittenBehindValidChecksum_manifestOrCorruption(FuzzedDataProvider data) {
    Manifest original = ManifestGens.manifest(new Random(data.consumeLong()), data.consumeInt(0, 6));
    byte[] encoded = ManifestFormat.encode(original);
    int payloadAt = ManifestFormat.HEADER_BYTES + ManifestFormat.RECORD_HEADER_BYTES;
    byte[] payload = Arrays.copyOfRange(encoded, payloadAt, encoded.length);
    payload = FuzzedDamage.overwrite(payload, 64, data).bytes();
    ByteBuffer b = ByteBuffer.allocate(payloadAt + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put(encoded, 0, ManifestFormat.HEADER_BYTES);
    int lengthAt = b.position();
    b.putInt(payload.length);
    b.putInt(Checksums.maskedCrc32c(b.array(), lengthAt, 4));
    b.putInt(Checksums.maskedCrc32c(payload, 0, payload.length));
    b.put(payload);
    byte[] bytes = b.array();
    Manifest decoded;
    try {
      decoded = ManifestDecoder.decode(bytes, FILE).manifest();
    } catch (CorruptionException | FormatVersionException reported) {
      return;
    }
    assertNull(decoded.problem(), "decode accepted a manifest that breaks an invariant");
    assertArrayEquals(bytes, ManifestFormat.encode(decoded), "accepted bytes must be canonical");
  }
}
