package dev.strata.engine.manifest;

import dev.strata.engine.fs.Directories;
import dev.strata.engine.fs.FileNames;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Makes a manifest durable by replacing the directory's {@code MANIFEST} atomically (write {@code
 * MANIFEST.tmp}, fsync, rename, fsync the directory; see {@link ManifestFormat}).
 *
 * <p>Thread-safe (stateless); the engine serializes manifest changes itself.
 */
public final class ManifestWriter {

  private ManifestWriter() {}

  /**
   * Replaces {@code dir/MANIFEST} with {@code manifest}; when this returns the new state survives a
   * power loss, and when it throws the old manifest is still in place.
   *
   * @throws IllegalArgumentException when {@code manifest} breaks an invariant ({@link
   *     Manifest#problem()}): the engine never persists a state it could not reopen
   */
  public static void write(Path dir, Manifest manifest) throws IOException {
    String problem = manifest.problem();
    if (problem != null) {
      throw new IllegalArgumentException("refusing to write a broken manifest: " + problem);
    }
    byte[] bytes = ManifestFormat.encode(manifest);
    Directories.replaceAtomically(FileNames.manifest(dir), FileNames.manifestTemp(dir), bytes);
  }
}
