package dev.strata.engine.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The file operations whose outcome decides what survives a crash, behind one small interface so
 * that tests can stand between the engine and the disk: creating a file and writing it, reopening a
 * file to cut it back and write on, forcing a file, renaming one over another, and forcing a
 * directory's entries. The log and the manifest write through it (the manifest's appends, and its
 * whole rewrites by temp file and rename), and the tables of flushes and compactions are created
 * through it; a test
 * layer records what was forced and, on a simulated power loss, drops or zeroes the rest, or fails
 * writes as a full disk does (LevelDB's fault-injection Env and Pebble's {@code errorfs} are the
 * models). Reads go to the file system directly: a test layer works on real files, so readers see
 * what a crash left.
 *
 * <pre>{@code
 * FileLayer files = FileLayer.real();
 * try (FileChannel ch = files.create(dir.resolve("000012.log"))) {
 *   ch.write(buffers);
 *   ch.force(false);              // the bytes survive a power loss
 * }
 * files.syncDirectory(dir);       // and so does the file's name
 * }</pre>
 *
 * <p>Implementations are thread-safe; each channel is used by one thread at a time.
 */
public interface FileLayer {

  /** The production layer: plain {@link FileChannel}s on the default file system. */
  static FileLayer real() {
    return RealFileLayer.INSTANCE;
  }

  /** Creates {@code file}, which must not exist, open for writing at offset 0. */
  FileChannel create(Path file) throws IOException;

  /** Opens the existing {@code file} for writing (to cut it back with truncate and write on). */
  FileChannel openForWrite(Path file) throws IOException;

  /**
   * Renames {@code source} over {@code target} atomically, replacing it if it exists: a reader sees
   * the old file or the new one, never neither. Both are in one directory; the new name survives a
   * power loss only once that directory is synced ({@link #syncDirectory}).
   *
   * @throws IOException also when the file system cannot rename atomically
   */
  void rename(Path source, Path target) throws IOException;

  /** Makes the entries of {@code dir} (files created, renamed or deleted in it) durable. */
  void syncDirectory(Path dir) throws IOException;
}
