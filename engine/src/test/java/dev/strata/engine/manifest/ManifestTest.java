package dev.strata.engine.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.checksum.Checksums;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.FormatVersionException;
import dev.strata.engine.fs.FileNames;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ManifestTest {

  @TempDir Path dir;

  private static InternalKey key(String row, long sequence) {
    return new InternalKey(row.getBytes(), new byte[0], sequence, ValueKind.PUT);
  }

  private static FileMetadata table(long number, int level, String lo, String hi) {
    return new FileMetadata(number, level, 1000, 10, 1, 50, key(lo, 50), key(hi, 1), 64);
  }

  @Test
  void readIfExists_withoutManifest_isEmpty() throws IOException {
    assertTrue(ManifestReader.readIfExists(dir).isEmpty());
    assertNull(Manifest.empty().problem());
  }

  @Test
  void read_flippedBitAnywhere_throwsCorruptionNamingTheFile() throws IOException {
    ManifestWriter.write(dir, ManifestGens.manifest(new Random(7), 5));
    Path file = FileNames.manifest(dir);
    byte[] original = Files.readAllBytes(file);
    for (int i = 0; i < original.length; i++) {
      byte[] bytes = original.clone();
      bytes[i] ^= (byte) (1 << (i % 8));
      Files.write(file, bytes);
      CorruptionException e =
          assertThrows(CorruptionException.class, () -> ManifestReader.read(file), "byte " + i);
      assertEquals(file, e.file());
      assertTrue(e.getMessage().contains(file.toString()));
    }
  }

  @Test
  void read_truncatedAnywhere_throwsCorruption() throws IOException {
    ManifestWriter.write(dir, ManifestGens.manifest(new Random(8), 3));
    Path file = FileNames.manifest(dir);
    byte[] original = Files.readAllBytes(file);
    for (int length = 0; length < original.length; length++) {
      Files.write(file, Arrays.copyOf(original, length));
      assertThrows(CorruptionException.class, () -> ManifestReader.read(file), "length " + length);
    }
  }

  @Test
  void read_checksummedButInconsistentState_throwsCorruption() throws IOException {
    Manifest overlapping =
        new Manifest(10, 100, 9, List.of(table(1, 1, "a", "m"), table(2, 1, "k", "z")));
    assertNotNull(overlapping.problem());
    Files.write(FileNames.manifest(dir), ManifestFormat.encode(overlapping));
    CorruptionException e =
        assertThrows(CorruptionException.class, () -> ManifestReader.readIfExists(dir));
    assertTrue(e.getMessage().contains("overlap in level 1"), e.getMessage());
  }

  @Test
  void read_newerVersion_throwsFormatVersionException() throws IOException {
    byte[] bytes = ManifestFormat.encode(Manifest.empty());
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(8, ManifestFormat.VERSION_CURRENT + 1);
    b.putInt(
        ManifestFormat.HEADER1_BYTES,
        Checksums.maskedCrc32c(bytes, 0, ManifestFormat.HEADER1_BYTES)); // an intact header
    Files.write(FileNames.manifest(dir), bytes);
    assertThrows(FormatVersionException.class, () -> ManifestReader.readIfExists(dir));
  }

  @Test
  void write_replacesTheWholeStateAndIgnoresALeftoverTemp() throws IOException {
    Manifest first = new Manifest(5, 60, 4, List.of(table(1, 0, "a", "c"), table(2, 1, "d", "e")));
    Manifest second = new Manifest(7, 80, 6, List.of(table(3, 1, "a", "e")));
    ManifestWriter.write(dir, first);
    Files.write(FileNames.manifestTemp(dir), new byte[] {1, 2, 3});
    assertEquals(first, ManifestReader.readIfExists(dir).orElseThrow());
    ManifestWriter.write(dir, second);
    assertEquals(second, ManifestReader.readIfExists(dir).orElseThrow());
    assertTrue(Files.notExists(FileNames.manifestTemp(dir)));
  }

  @Test
  void write_brokenState_isRefusedAndKeepsTheOldManifest() throws IOException {
    Manifest good = new Manifest(5, 60, 4, List.of(table(1, 0, "a", "c")));
    ManifestWriter.write(dir, good);
    List<Manifest> broken =
        List.of(
            new Manifest(5, 60, 4, List.of(table(1, 0, "a", "c"), table(1, 2, "x", "y"))),
            new Manifest(5, 60, 5, List.of()),
            new Manifest(5, 60, 4, List.of(table(5, 0, "a", "c"))),
            new Manifest(5, 60, 4, List.of(table(1, ManifestFormat.NUM_LEVELS, "a", "c"))),
            new Manifest(5, 40, 4, List.of(table(1, 0, "a", "c"))),
            new Manifest(5, 60, 4, List.of(table(1, 0, "d", "c"))));
    for (Manifest m : broken) {
      assertNotNull(m.problem(), m.toString());
      assertThrows(IllegalArgumentException.class, () -> ManifestWriter.write(dir, m));
    }
    assertEquals(good, ManifestReader.readIfExists(dir).orElseThrow());
  }

  @Test
  void filesAt_andCoversRow_answerFromTheList() {
    Manifest m =
        new Manifest(
            9, 60, 8, List.of(table(1, 0, "a", "c"), table(2, 1, "d", "f"), table(3, 0, "b", "z")));
    assertEquals(List.of(1L, 3L), m.filesAt(0).stream().map(FileMetadata::fileNumber).toList());
    assertTrue(m.filesAt(1).get(0).coversRow("e".getBytes()));
    assertTrue(m.filesAt(1).get(0).coversRow("d".getBytes()));
    assertTrue(!m.filesAt(1).get(0).coversRow("g".getBytes()));
    assertEquals(2, m.filesAt(1).get(0).atLevel(2).level());
  }
}
