package dev.strata.sstable;

import dev.strata.sstable.key.EncodedKeys;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;

/**
 * Iterates a table's entries in {@link InternalKey#ORDER}, for scans, cursors and compaction. Starts
 * unpositioned: call {@link #seekToFirst()}, {@link #seekToLast()} or {@link #seek(InternalKey)},
 * then read {@link #key()} and {@link #value()} while {@link #isValid()}, moving with {@link
 * #next()} or {@link #prev()}.
 *
 * <pre>{@code
 * try (TableIterator it = reader.iterator()) {
 *   for (it.seekToFirst(); it.isValid(); it.next()) {
 *     consume(it.key(), it.value());
 *   }
 * }
 * }</pre>
 *
 * <p>Data blocks come through the block cache and count into the reader's counters. Not thread-safe:
 * one thread uses an iterator.
 */
public final class TableIterator implements AutoCloseable {
  private final TableCursor cursor;
  private InternalKey key;
  private boolean closed;

  TableIterator(TableCursor cursor) {
    this.cursor = cursor;
  }

  /** Positions on the first entry (invalid when the table is empty, which a finished table never is). */
  public void seekToFirst() throws IOException {
    checkOpen();
    key = null;
    cursor.seekToFirst();
  }

  /** Positions on the last entry (invalid when the table is empty, which a finished table never is). */
  public void seekToLast() throws IOException {
    checkOpen();
    key = null;
    cursor.seekToLast();
  }

  /** Positions on the first entry whose key is {@code >= target}; invalid when there is none. */
  public void seek(InternalKey target) throws IOException {
    checkOpen();
    key = null;
    cursor.seek(target);
  }

  /** True when positioned on an entry. */
  public boolean isValid() {
    return !closed && cursor.isValid();
  }

  /** Moves to the next entry. */
  public void next() throws IOException {
    checkValid();
    key = null;
    cursor.next();
  }

  /** Moves to the previous entry; invalid before the first. */
  public void prev() throws IOException {
    checkValid();
    key = null;
    cursor.prev();
  }

  /** The current entry's key (a new object whose arrays the caller may keep). */
  public InternalKey key() {
    checkValid();
    if (key == null) {
      key = cursor.key();
    }
    return key;
  }

  /** The current entry's value, a new array. */
  public byte[] value() {
    checkValid();
    return cursor.value();
  }

  /**
   * The current key encoded (see {@link EncodedKeys}) in the first {@link #encodedKeyLength()}
   * bytes of the array returned: a view, valid until the iterator moves, that the caller must not
   * modify. With the value's view, what compaction merges and writes without an object per entry.
   */
  public byte[] encodedKey() {
    checkValid();
    return cursor.keyBytes();
  }

  /** Bytes of {@link #encodedKey()} that hold the current key. */
  public int encodedKeyLength() {
    checkValid();
    return cursor.keyLength();
  }

  /**
   * The array holding the current value at {@link #valueOffset()}, {@link #valueLength()} bytes: a
   * view of the data block, valid until the iterator moves (a bulk iterator reads its next block
   * into the same array), that the caller must not modify.
   */
  public byte[] valueArray() {
    checkValid();
    return cursor.valueArray();
  }

  public int valueOffset() {
    checkValid();
    return cursor.valueOffset();
  }

  public int valueLength() {
    checkValid();
    return cursor.valueLength();
  }

  /** Releases the iterator. Idempotent. */
  @Override
  public void close() {
    closed = true;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("iterator closed");
    }
  }

  private void checkValid() {
    checkOpen();
    if (!cursor.isValid()) {
      throw new IllegalStateException("iterator not positioned on an entry");
    }
  }
}
