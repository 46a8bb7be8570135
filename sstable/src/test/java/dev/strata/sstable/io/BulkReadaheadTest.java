package dev.strata.sstable.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strata.sstable.format.CorruptTableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BulkReadahead}: which reads go to the file, and that every read returns the file's bytes. */
final class BulkReadaheadTest {
  private static final int SIZE = 100_000;

  @TempDir Path dir;

  private byte[] bytes;

  private TableFile file(boolean direct) throws IOException {
    bytes = new byte[SIZE];
    new Random(7).nextBytes(bytes);
    Path f = dir.resolve("t");
    Files.write(f, bytes);
    return TableFile.open(f, direct);
  }

  private void read(BulkReadahead r, long position, int length) throws IOException {
    byte[] into = new byte[length + 3];
    r.readFully(position, into, length);
    assertArrayEquals(Arrays.copyOfRange(bytes, (int) position, (int) position + length),
        Arrays.copyOf(into, length), () -> length + " bytes at " + position);
  }

  @Test
  void consecutiveBlocks_comeFromOneReadPerWindow() throws IOException {
    for (boolean direct : new boolean[] {false, true}) {
      try (TableFile f = file(direct)) {
        BulkReadahead r = new BulkReadahead(f, SIZE, 10_000);
        for (int p = 0; p < 9_000; p += 900) {
          read(r, p, 900); // 0..9000: the window [0, 10000) read once
        }
        assertEquals(1, r.fileReads());
        read(r, 9_000, 1_500); // runs past the window: refills at 9000
        read(r, 10_500, 8_000);
        assertEquals(2, r.fileReads());
        read(r, 100, 10); // behind the window: refills there
        assertEquals(3, r.fileReads());
        read(r, 20_000, 5_001); // larger than half the window: on its own, the window kept
        read(r, 200, 10);
        assertEquals(4, r.fileReads());
      }
    }
  }

  @Test
  void nearTheEnd_theWindowStopsAtTheFileAndReadsPastItFail() throws IOException {
    try (TableFile f = file(false)) {
      BulkReadahead r = new BulkReadahead(f, SIZE, 10_000);
      read(r, SIZE - 4_000, 1_000); // window [96000, 100000)
      read(r, SIZE - 3_000, 3_000);
      assertEquals(1, r.fileReads());
      assertThrows(CorruptTableException.class, () -> r.readFully(SIZE - 10, new byte[20], 20));
      read(r, SIZE - 2_000, 2_000); // the window survived the failed read past it
      assertEquals(2, r.fileReads());
    }
  }

  @Test
  void noWindow_readsEveryBlockOnItsOwn() throws IOException {
    try (TableFile f = file(false)) {
      BulkReadahead r = new BulkReadahead(f, SIZE, 0);
      read(r, 0, 100);
      read(r, 100, 100);
      assertEquals(2, r.fileReads());
    }
  }
}
