package dev.strata.engine.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.strata.engine.fs.FileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ManifestProperties {

  @TempDir Path dir;

  @Test
  void read_returnsTheManifestWritten() {
    qt().withExamples(200)
        .forAll(longs().all(), integers().between(0, 60))
        .checkAssert(
            (seed, tables) -> {
              Manifest m = ManifestGens.manifest(new Random(seed), tables);
              assertNull(m.problem());
              try {
                ManifestWriter.write(dir, m);
                assertEquals(m, ManifestReader.read(FileNames.manifest(dir)));
                assertEquals(m, ManifestReader.readIfExists(dir).orElseThrow());
                assertFalse(Files.exists(FileNames.manifestTemp(dir)));
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }
}
