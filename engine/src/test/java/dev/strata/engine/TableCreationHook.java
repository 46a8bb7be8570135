package dev.strata.engine;

import dev.strata.engine.fs.FileLayer;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** The real file layer, calling a hook on the creating thread before each table file is created. */
final class TableCreationHook implements FileLayer {
  /** Called with the table about to be created; may throw to fail the creation. */
  interface Hook {
    void beforeCreate(Path table) throws IOException;
  }

  private final Hook hook;

  TableCreationHook(Hook hook) {
    this.hook = hook;
  }

  @Override
  public FileChannel create(Path file) throws IOException {
    if (file.getFileName().toString().endsWith(".sst")) {
      hook.beforeCreate(file);
    }
    return FileLayer.real().create(file);
  }

  @Override
  public FileChannel openForWrite(Path file) throws IOException {
    return FileLayer.real().openForWrite(file);
  }

  @Override
  public void rename(Path source, Path target) throws IOException {
    FileLayer.real().rename(source, target);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    FileLayer.real().syncDirectory(dir);
  }
}
