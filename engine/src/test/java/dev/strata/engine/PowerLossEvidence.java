package dev.strata.engine;

import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.ManifestFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a power-loss test needs to explain a failure it cannot replay (the background threads make
 * the interleaving, not the seed): the database's files as the power loss found them, kept before
 * the damage is done, and on failure both copies, undamaged and damaged, moved under {@code
 * target/power-loss-failures/} with the manifest's record boundaries in the message.
 */
final class PowerLossEvidence {
  private static final Path KEPT = Path.of("target", "power-loss-failures");

  private final Path undamaged;

  private PowerLossEvidence(Path undamaged) {
    this.undamaged = undamaged;
  }

  /** Copies {@code db} to {@code scratch}: call after the power went, before its damage is done. */
  static PowerLossEvidence before(Path db, Path scratch) throws IOException {
    return new PowerLossEvidence(CrashCopy.copy(db, scratch));
  }

  /**
   * Keeps the undamaged copy and the damaged {@code db} under {@code target/power-loss-failures/
   * name} and returns what to add to the failure's message: where they are and the undamaged
   * manifest's records. Never throws: the failure being reported matters more.
   */
  String keep(Path db, String name) {
    try {
      Path to = KEPT.resolve(name);
      CrashCopy.copy(undamaged, to.resolve("undamaged"));
      CrashCopy.copy(db, to.resolve("damaged"));
      return " [files kept in " + to.toAbsolutePath() + "; undamaged manifest records "
          + records(FileNames.manifest(undamaged)) + ", damaged "
          + records(FileNames.manifest(db)) + "]";
    } catch (IOException | RuntimeException e) {
      return " [could not keep the files: " + e + "]";
    }
  }

  /** The records' offsets and lengths by their length fields, unchecked: "offset+length" each. */
  private static String records(Path manifest) throws IOException {
    if (!Files.exists(manifest)) {
      return "(no MANIFEST)";
    }
    byte[] bytes = Files.readAllBytes(manifest);
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    List<String> out = new ArrayList<>();
    int at = ManifestFormat.HEADER_BYTES;
    while (at + ManifestFormat.RECORD_HEADER_BYTES <= bytes.length) {
      long length = Integer.toUnsignedLong(b.getInt(at));
      out.add(at + "+" + length);
      if (length == 0) {
        break;
      }
      at += ManifestFormat.RECORD_HEADER_BYTES + length;
    }
    return bytes.length + " bytes " + out;
  }
}
