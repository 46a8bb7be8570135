package dev.strata.engine.manifest;

import dev.strata.engine.fs.FileLayer;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a manifest whole, as one snapshot ({@link ManifestFormat} version 2): how a new database
 * gets its first manifest, and how tests make one. The engine's later changes go through a {@link
 * ManifestLog}.
 *
 * <p>Thread-safe (stateless); the engine serializes manifest changes itself.
 */
public final class ManifestWriter {

  private ManifestWriter() {}

  /**
   * Replaces {@code dir/MANIFEST} with {@code manifest}; durable on return.
   *
   * @throws ManifestWriteException when it could not be made durable ({@link ManifestLog} says
   *     what state that leaves)
   * @throws IllegalArgumentException when {@code manifest} breaks an invariant ({@link
   *     Manifest#problem()}): the engine never persists a state it could not reopen
   */
  public static void write(Path dir, Manifest manifest) throws IOException {
    write(dir, FileLayer.real(), manifest);
  }

  /** As {@link #write(Path, Manifest)}, writing through {@code files}. */
  public static void write(Path dir, FileLayer files, Manifest manifest) throws IOException {
    try (ManifestLog log = new ManifestLog(dir, files)) {
      log.rewrite(manifest);
    }
  }
}
