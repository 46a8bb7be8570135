package dev.strata.engine.read;

import dev.strata.sstable.key.EncodedKeys;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;

/**
 * An ordered cursor over internal keys (in {@link InternalKey#ORDER}), the one shape every source
 * of entries takes on the read and compaction paths: memtables, tables, and their merge. It moves
 * both ways: {@link #prev()} and {@link #seekToLast()} are real backward steps of the source (a
 * predecessor search in a memtable, restart points in a table block), never a buffered forward
 * pass.
 *
 * <p>Not thread-safe: an iterator belongs to one thread.
 */
public interface InternalIterator extends AutoCloseable {
  /** Positions at the first entry. */
  void seekToFirst() throws IOException;

  /** Positions at the last entry. */
  void seekToLast() throws IOException;

  /** Positions at the first entry at or after {@code target}. */
  void seek(InternalKey target) throws IOException;

  /** Positions at the last entry at or before {@code target}. */
  default void seekForPrev(InternalKey target) throws IOException {
    seek(target);
    if (!isValid()) {
      seekToLast();
    } else if (InternalKey.compare(key(), target) > 0) {
      prev();
    }
  }

  /** True while positioned at an entry. */
  boolean isValid();

  /** Moves to the next entry; requires {@link #isValid()}. */
  void next() throws IOException;

  /** Moves to the previous entry (invalid before the first); requires {@link #isValid()}. */
  void prev() throws IOException;

  /** The current entry's key; requires {@link #isValid()}. */
  InternalKey key();

  /** The current entry's value; requires {@link #isValid()}. */
  byte[] value();

  /**
   * The current key encoded as a table block holds it ({@link EncodedKeys}), in the first {@link
   * #encodedKeyLength()} bytes of the array returned; valid until the iterator moves, and not to be
   * modified. Compaction merges and writes through these views and the value's, so a table source
   * (whose views are its block's bytes) costs no object per entry; a source without an encoded form
   * encodes {@link #key()}. Requires {@link #isValid()}.
   */
  default byte[] encodedKey() {
    return EncodedKeys.encode(key());
  }

  /** Bytes of {@link #encodedKey()} that hold the current key. */
  default int encodedKeyLength() {
    return EncodedKeys.length(key());
  }

  /**
   * The array holding the current value at {@link #valueOffset()}, {@link #valueLength()} bytes: a
   * view valid until the iterator moves, not to be modified (by default {@link #value()}).
   */
  default byte[] valueArray() {
    return value();
  }

  default int valueOffset() {
    return 0;
  }

  default int valueLength() {
    return value().length;
  }

  /**
   * True when {@link #encodedKey()} and {@link #valueArray()} are views that cost nothing (a table's
   * block): a merge of such sources compares their encoded keys instead of decoding each.
   */
  default boolean hasEncodedViews() {
    return false;
  }

  /** Releases what the iterator holds. Idempotent. */
  @Override
  void close();
}
