package dev.strata.sstable.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.nio.file.ExtendedOpenOption;
import dev.strata.sstable.format.CorruptTableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TableFile}'s direct mode: the aligned spans it reads, and that it reads what buffered reads do. */
final class DirectReadsTest {
  private static final int ALIGN = 4096;

  @TempDir Path dir;

  @Test
  void span_coversTheReadWithWholeAlignedBlocks() {
    assertEquals(0, DirectReads.spanStart(0, ALIGN));
    assertEquals(0, DirectReads.spanStart(4095, ALIGN));
    assertEquals(4096, DirectReads.spanStart(4096, ALIGN));
    assertEquals(4096, DirectReads.spanStart(8191, ALIGN));
    assertEquals(0, DirectReads.spanEnd(0, ALIGN));
    assertEquals(4096, DirectReads.spanEnd(1, ALIGN));
    assertEquals(4096, DirectReads.spanEnd(4096, ALIGN));
    assertEquals(8192, DirectReads.spanEnd(4097, ALIGN));
    assertEquals(1L << 40, DirectReads.spanEnd((1L << 40) - 1, ALIGN));
    assertEquals(512, DirectReads.spanEnd(5, 512));
    // A 4 KiB block plus its 5-byte trailer starting mid-page spans two or three pages.
    assertEquals(8192, DirectReads.spanEnd(100 + 4101, ALIGN) - DirectReads.spanStart(100, ALIGN));
    assertEquals(3 * 4096, DirectReads.spanEnd(4095 + 4101, ALIGN) - DirectReads.spanStart(4095, ALIGN));
  }

  @Test
  void alignment_mustBeAPowerOfTwo() {
    for (long bad : new long[] {0, -4096, 3000, 1L << 17}) {
      assertThrows(IllegalArgumentException.class, () -> new DirectReads(bad), "align " + bad);
    }
  }

  /** A file of {@code size} seeded bytes, not a whole number of pages unless asked. */
  private Path file(int size) throws IOException {
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    Path f = dir.resolve("t" + size);
    Files.write(f, b);
    return f;
  }

  @Test
  void directReads_returnTheBytesBufferedReadsDo_atBoundariesAndAtTheEnd() throws IOException {
    for (int size : new int[] {1, 4095, 4096, 4097, 3 * 4096 + 17, DirectReads.MAX_PIECE_BYTES * 2 + 4099}) {
      Path f = file(size);
      byte[] all = Files.readAllBytes(f);
      try (TableFile direct = TableFile.open(f, true); TableFile buffered = TableFile.open(f, false)) {
        assumeTrue(direct.readsDirect(), "the file system refused O_DIRECT");
        assertFalse(buffered.readsDirect());
        List<long[]> reads = new java.util.ArrayList<>();
        for (long p : new long[] {0, 1, 4095, 4096, 4097, size - 1, size}) {
          for (int n : new int[] {0, 1, 5, 4091, 4096, 4101, 8192, DirectReads.MAX_PIECE_BYTES + 1}) {
            if (p >= 0 && p + n <= size) {
              reads.add(new long[] {p, n});
            }
          }
        }
        reads.add(new long[] {0, size}); // the whole file, across pieces when large
        for (long[] r : reads) {
          int p = (int) r[0];
          int n = (int) r[1];
          byte[] want = Arrays.copyOfRange(all, p, p + n);
          assertArrayEquals(want, direct.readFully(p, n), () -> "direct " + n + " at " + p + " of " + size);
          assertArrayEquals(want, buffered.readFully(p, n), () -> "buffered " + n + " at " + p + " of " + size);
          assertArrayEquals(want, intoDirectBuffer(direct, p, n), () -> "direct into a buffer " + n + " at " + p);
          assertArrayEquals(want, intoDirectBuffer(buffered, p, n), () -> "buffered into a buffer " + n + " at " + p);
        }
        assertThrows(CorruptTableException.class, () -> intoDirectBuffer(direct, size - 1, 2));
        assertThrows(CorruptTableException.class, () -> intoDirectBuffer(buffered, size - 1, 2));
        CorruptTableException e = assertThrows(CorruptTableException.class, () -> direct.readFully(size - 1, 2));
        assertTrue(e.getMessage().contains("unexpected end of file"), e.getMessage());
        assertThrows(CorruptTableException.class, () -> direct.readFully(size + 4096, 1));
        assertThrows(CorruptTableException.class, () -> buffered.readFully(size - 1, 2));
      }
    }
  }

  /**
   * {@code n} bytes at {@code p} read into a direct buffer between three bytes before and after, as
   * a pinning open reads a stretch of filter chunks: the buffer's position and limit stay put and
   * the bytes around are untouched.
   */
  private static byte[] intoDirectBuffer(TableFile file, int p, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocateDirect(n + 6);
    for (int i = 0; i < b.capacity(); i++) {
      b.put(i, (byte) 0x5a);
    }
    b.position(3).limit(n + 3);
    file.readFully(p, b);
    assertEquals(3, b.position());
    assertEquals(n + 3, b.limit());
    b.limit(b.capacity());
    for (int i : new int[] {0, 1, 2, n + 3, n + 4, n + 5}) {
      assertEquals((byte) 0x5a, b.get(i), "byte " + i + " outside the read");
    }
    byte[] out = new byte[n];
    b.get(3, out);
    return out;
  }

  @Test
  void refusedDirectOpen_fallsBackToBufferedReads() throws IOException {
    Path f = file(10_000);
    int[] directOpens = {0};
    TableFile.Opener refusesDirect = (path, options) -> {
      if (Arrays.asList(options).contains(ExtendedOpenOption.DIRECT)) {
        directOpens[0]++;
        throw new FileSystemException(path.toString(), null, "Invalid argument"); // tmpfs: EINVAL
      }
      return FileChannel.open(path, options);
    };
    try (TableFile t = TableFile.open(f, true, refusesDirect)) {
      assertEquals(1, directOpens[0]);
      assertFalse(t.readsDirect());
      assertArrayEquals(Arrays.copyOfRange(Files.readAllBytes(f), 4000, 9000), t.readFully(4000, 5000));
    }
  }

  @Test
  void missingFile_failsTheDirectOpenAsItFailsABufferedOne() {
    assertThrows(NoSuchFileException.class, () -> TableFile.open(dir.resolve("absent"), true));
  }
}
