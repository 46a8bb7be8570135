package dev.strata.engine;

import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.write.Limits;
import dev.strata.sstable.format.SstableFormat;

/**
 * What a test substitutes in a database it opens, kept out of {@link DbOptions} so that the public
 * options (and their equality) hold no test machinery. Tests in this package pass it to {@code
 * Db.open(dir, options, hooks)}; every other open uses {@link #NONE}.
 *
 * <p>Immutable.
 *
 * @param fileLayer what logs, tables and the manifest are written through: the real file system
 *     but in fault-injection tests
 * @param maxTableBlockBytes the largest index block a table may get: what a reader accepts ({@code
 *     SstableFormat.MAX_BLOCK_BYTES}) but in tests of that limit, which reach it with small batches
 */
record EngineHooks(FileLayer fileLayer, int maxTableBlockBytes) {
  /** The real file system and the readers' own limit: what an application's open uses. */
  static final EngineHooks NONE = new EngineHooks(FileLayer.real(), SstableFormat.MAX_BLOCK_BYTES);

  EngineHooks {
    Limits.requireNonNull(fileLayer, "fileLayer");
    if (maxTableBlockBytes < 1 || maxTableBlockBytes > SstableFormat.MAX_BLOCK_BYTES) {
      throw new IllegalArgumentException("maxTableBlockBytes out of range: " + maxTableBlockBytes);
    }
  }

  /** These hooks writing through {@code files}. */
  EngineHooks withFileLayer(FileLayer files) {
    return new EngineHooks(files, maxTableBlockBytes);
  }

  /** These hooks keeping every table's index under {@code bytes}. */
  EngineHooks withMaxTableBlockBytes(int bytes) {
    return new EngineHooks(fileLayer, bytes);
  }
}
