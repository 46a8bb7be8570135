package dev.strata.engine.manifest;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the golden manifest of the current version ({@code golden/manifest-vN}) from the state
 * {@link ManifestLogTest} expects of it. Run once when a version is added; older golden files are
 * never rewritten:
 *
 * <pre>{@code
 * java -cp engine/target/test-classes:engine/target/classes:... \
 *     dev.strata.engine.manifest.GoldenManifests engine/src/test/resources/dev/strata/engine/manifest/golden
 * }</pre>
 */
final class GoldenManifests {
  private GoldenManifests() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    Path file = dir.resolve("manifest-v" + ManifestFormat.VERSION_CURRENT);
    if (Files.exists(file)) {
      throw new IOException(file + " exists: golden files are never rewritten");
    }
    try (OutputStream out = Files.newOutputStream(file)) {
      out.write(ManifestFormat.encode(ManifestLogTest.goldenV5Snapshot()));
      for (ManifestEdit e : ManifestLogTest.goldenV5Edits()) {
        out.write(ManifestFormat.editRecord(e));
      }
    }
  }
}
