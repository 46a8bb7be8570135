package dev.strata.sstable;

import dev.strata.sstable.key.InternalKey;
import java.nio.file.Path;

/**
 * What {@link TableWriter#finish()} reports about the table it wrote: where, how large, and its
 * properties (the same ones a reader will load).
 *
 * @param path the table file
 * @param fileSize the file's length in bytes
 * @param properties the table's properties block
 *
 * <p>Immutable.
 */
public record TableMetadata(Path path, long fileSize, TableProperties properties) {

  /** The first key in the table. */
  public InternalKey smallest() {
    return properties.smallestKey();
  }

  /** The last key in the table. */
  public InternalKey largest() {
    return properties.largestKey();
  }

  /** Entries in the table. */
  public long entryCount() {
    return properties.entryCount();
  }
}
