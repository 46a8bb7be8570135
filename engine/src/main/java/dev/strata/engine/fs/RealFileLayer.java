package dev.strata.engine.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The production {@link FileLayer}: {@link FileChannel}s of the default file system.
 *
 * <p>Thread-safe (stateless).
 */
final class RealFileLayer implements FileLayer {
  static final RealFileLayer INSTANCE = new RealFileLayer();

  private RealFileLayer() {}

  @Override
  public FileChannel create(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  }

  @Override
  public FileChannel openForWrite(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.WRITE);
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    try {
      Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the file system cannot rename " + source + " atomically", e);
    }
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    Directories.fsync(dir);
  }

  @Override
  public String toString() {
    return "FileLayer.real()";
  }
}
