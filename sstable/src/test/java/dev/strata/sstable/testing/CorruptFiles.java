package dev.strata.sstable.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Damages closed files the way disks and bugs do: one flipped bit, a zeroed range, a truncation.
 * Tests corrupt a copy and check that readers report it.
 *
 * <p>Thread-safe (stateless).
 */
public final class CorruptFiles {
  private CorruptFiles() {}

  /** A copy of {@code source} at {@code target} (replaced if present). */
  public static Path copy(Path source, Path target) throws IOException {
    return Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Flips bit {@code bit} (0..7) of the byte at {@code offset}. */
  public static void flipBit(Path file, long offset, int bit) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      if (ch.read(b, offset) != 1) {
        throw new IOException("offset " + offset + " past the end of " + file);
      }
      b.put(0, (byte) (b.get(0) ^ (1 << bit)));
      b.rewind();
      ch.write(b, offset);
    }
  }

  /** Sets {@code length} bytes from {@code offset} to zero (not past the end of the file). */
  public static void zero(Path file, long offset, int length) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      long n = Math.max(0, Math.min(length, ch.size() - offset));
      ch.write(ByteBuffer.allocate((int) n), offset);
    }
  }

  /** Cuts the file to {@code size} bytes. */
  public static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }
}
