package dev.strata.engine.manifest;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.FormatVersionException;
import dev.strata.engine.fs.FileNames;
import dev.strata.sstable.format.LazyLogger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads and checks a database's manifest ({@link ManifestFormat}).
 *
 * <p>Thread-safe (stateless).
 */
public final class ManifestReader {

  private static final System.Logger LOG = LazyLogger.of(ManifestReader.class);

  /** A manifest larger than this is refused as corrupt rather than read into memory. */
  static final long MAX_MANIFEST_BYTES = 1L << 30;

  private ManifestReader() {}

  /**
   * The manifest of the database in {@code dir}, or empty when it has none (a new database). A torn
   * last record is dropped ({@link ManifestFormat}); any other damage is corruption.
   *
   * @throws CorruptionException when the manifest is damaged, does not parse or breaks an invariant
   * @throws FormatVersionException when it was written in an unsupported version
   */
  public static Optional<Manifest> readIfExists(Path dir) throws IOException {
    try {
      return Optional.of(read(FileNames.manifest(dir)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /**
   * The manifest in {@code file}, as {@link #readIfExists} reads it.
   *
   * @throws NoSuchFileException when there is no such file
   * @throws CorruptionException when it is damaged, does not parse or breaks an invariant
   * @throws FormatVersionException when it was written in an unsupported version
   */
  public static Manifest read(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_MANIFEST_BYTES) {
      throw new CorruptionException(file, 0, "manifest of %d bytes is implausibly large", size);
    }
    byte[] bytes = Files.readAllBytes(file);
    ManifestDecoder.Decoded decoded = ManifestDecoder.decode(bytes, file);
    if (decoded.validBytes() < bytes.length) {
      LOG.log(
          System.Logger.Level.WARNING,
          "{0}: dropped a torn last record ({1} bytes from offset {2}): an append cut by a crash",
          file, bytes.length - decoded.validBytes(), decoded.validBytes());
    }
    return decoded.manifest();
  }
}
