package dev.strata.engine.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * File system steps whose order makes a change durable: fsyncing a directory so that a created,
 * renamed or deleted entry survives a power loss, and the write-temp-then-rename replacement of a
 * whole file.
 *
 * <p>Thread-safe (stateless).
 */
public final class Directories {

  /**
   * Windows cannot open a directory as a channel; there, NTFS journals directory entries itself.
   */
  private static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

  private Directories() {}

  /** Attempts of a directory fsync that interrupts may cut short before it gives up. */
  private static final int MAX_INTERRUPTED_ATTEMPTS = 8;

  /**
   * Makes the entries of {@code dir} (files created, renamed or deleted in it) durable. The calling
   * thread's interrupt status is set aside meanwhile and restored: an interrupt would close the
   * channel under the force (what {@code Future.cancel(true)} delivers), and a log switch or a
   * manifest install must not lose its durability to it; a force cut short is done again.
   */
  public static void fsync(Path dir) throws IOException {
    if (WINDOWS) {
      return;
    }
    boolean interrupted = Thread.interrupted();
    try {
      for (int attempt = 1; ; attempt++) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
          ch.force(true);
          return;
        } catch (ClosedByInterruptException e) {
          interrupted |= Thread.interrupted();
          if (attempt == MAX_INTERRUPTED_ATTEMPTS) {
            throw e;
          }
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The directory that holds {@code file}: its parent, resolved against the working directory. */
  public static Path parentOf(Path file) {
    return file.toAbsolutePath().getParent();
  }

  /**
   * Replaces {@code target} with {@code bytes} through {@code files} so that a crash at any moment
   * leaves either the old file or the new one, whole: write {@code temp} (a file left there by an
   * earlier crash is deleted first), fsync it, rename it over {@code target} atomically; the caller then
   * syncs the directory ({@link FileLayer#syncDirectory}) to make the rename durable. {@code temp}
   * must be in the same directory as {@code target}. When this throws, {@code target} is untouched
   * and {@code temp} is gone.
   */
  public static void writeAndRename(FileLayer files, Path target, Path temp, byte[] bytes)
      throws IOException {
    try {
      if (Files.isRegularFile(temp, LinkOption.NOFOLLOW_LINKS)) {
        Files.delete(temp); // a leftover of a crash; anything else there fails the create
      }
      try (FileChannel ch = files.create(temp)) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      files.rename(temp, target);
    } catch (Throwable t) {
      // The target is untouched; the half-written temp file is garbage.
      try {
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        t.addSuppressed(e);
      }
      throw t;
    }
  }
}
