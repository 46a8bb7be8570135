package dev.strata.engine.read;

import dev.strata.sstable.InternalKey;
import java.io.IOException;

/**
 * An ordered cursor over internal keys (in {@link InternalKey#ORDER}), the one shape every source
 * of entries takes on the read and compaction paths: memtables, tables, and their merge.
 *
 * <p>Not thread-safe: an iterator belongs to one thread.
 */
public interface InternalIterator extends AutoCloseable {
  /** Positions at the first entry. */
  void seekToFirst() throws IOException;

  /** Positions at the first entry at or after {@code target}. */
  void seek(InternalKey target) throws IOException;

  /** True while positioned at an entry. */
  boolean isValid();

  /** Moves to the next entry; requires {@link #isValid()}. */
  void next() throws IOException;

  /** The current entry's key; requires {@link #isValid()}. */
  InternalKey key();

  /** The current entry's value; requires {@link #isValid()}. */
  byte[] value();

  /** Releases what the iterator holds. Idempotent. */
  @Override
  void close();
}
