package dev.strata.engine.memtable;

import dev.strata.sstable.key.InternalKey;
import java.util.NoSuchElementException;

/**
 * An ordered cursor over a memtable's entries, every version included, in the engine's iterator
 * vocabulary ({@code seekToFirst}, {@code seekToLast}, {@code seek}, {@code isValid}, {@code next},
 * {@code prev}, {@code key}, {@code value}). Weakly consistent while a writer adds entries: it
 * never returns entries out of order and sees every entry that was present when it was positioned;
 * callers filter by sequence number.
 *
 * <p>Forward steps follow the skip list's bottom level; a backward step is a search for the last
 * entry before the current one (O(log n)), as the list has no backward links. The current entry's
 * key and value are copied out of the arena on first use and kept until the cursor moves.
 *
 * <p>Not thread-safe: an iterator stays on one thread.
 */
public final class MemTableIterator implements AutoCloseable {

  private final ArenaSkipList table;
  private final ArenaEntries entries;
  /** The current node; 0 when not positioned at an entry. */
  private long node;

  private InternalKey key;
  private byte[] value;

  /** The current value copied for {@link #valueArray}, reused from entry to entry. */
  private byte[] valueCopy = new byte[0];

  /** Whether {@link #valueCopy} holds the current value. */
  private boolean valueCopied;

  MemTableIterator(ArenaSkipList table) {
    this.table = table;
    this.entries = table.entries();
  }

  /** Positions at the first entry. */
  public void seekToFirst() {
    moveTo(table.next(0));
  }

  /** Positions at the last entry. */
  public void seekToLast() {
    moveTo(table.last());
  }

  /** Positions at the first entry at or after {@code target} in {@link InternalKey#ORDER}. */
  public void seek(InternalKey target) {
    moveTo(table.seek(encode(target), 0, null));
  }

  /** Positions at the last entry at or before {@code target} in {@link InternalKey#ORDER}. */
  public void seekForPrev(InternalKey target) {
    byte[] k = encode(target);
    long at = table.seek(k, 0, null);
    if (at != 0 && entries.compare(table.entryOf(at), k, 0) == 0) {
      moveTo(at);
    } else {
      moveTo(table.seekBefore(k, 0));
    }
  }

  /** True when positioned at an entry. */
  public boolean isValid() {
    return node != 0;
  }

  /** Moves to the next entry. */
  public void next() {
    checkValid();
    moveTo(table.next(node));
  }

  /** Moves to the previous entry; invalid before the first. */
  public void prev() {
    checkValid();
    moveTo(table.seekBefore(encode(key()), 0));
  }

  /** The current entry's key. */
  public InternalKey key() {
    checkValid();
    if (key == null) {
      key = entries.key(table.entryOf(node));
    }
    return key;
  }

  /** The current entry's value (empty for tombstones); must not be modified. */
  public byte[] value() {
    checkValid();
    if (value == null) {
      value = entries.value(table.entryOf(node));
    }
    return value;
  }

  /** Bytes of the current key encoded as a table holds it. */
  public int encodedKeyLength() {
    checkValid();
    return entries.encodedKeyLength(table.entryOf(node));
  }

  /**
   * Writes the current key, encoded as a table holds it, at the start of {@code into} (room for
   * {@link #encodedKeyLength}): straight from the arena, no key object.
   */
  public void encodeKey(byte[] into) {
    checkValid();
    entries.encodeKey(table.entryOf(node), into);
  }

  /**
   * An array holding the current value at {@link #valueOffset()}, {@link #valueLength()} bytes:
   * the iterator's own copy out of the arena (which is not on the heap), reused at the next entry,
   * so a flush allocates nothing per value. Not to be modified.
   */
  public byte[] valueArray() {
    checkValid();
    if (!valueCopied) {
      long entry = table.entryOf(node);
      int length = entries.valueLength(entry);
      if (valueCopy.length < length) {
        valueCopy = new byte[Math.max(length, 2 * valueCopy.length)];
      }
      entries.copyValue(entry, valueCopy);
      valueCopied = true;
    }
    return valueCopy;
  }

  /** Where the current value starts in {@link #valueArray()}: at its start. */
  public int valueOffset() {
    checkValid();
    return 0;
  }

  /** Bytes of the current value. */
  public int valueLength() {
    checkValid();
    return entries.valueLength(table.entryOf(node));
  }

  /** Releases nothing (memtables hold no files); present for the iterator contract. Idempotent. */
  @Override
  public void close() {
    moveTo(0);
  }

  private void moveTo(long n) {
    node = n;
    key = null;
    value = null;
    valueCopied = false;
  }

  private static byte[] encode(InternalKey k) {
    return ArenaEntries.searchKey(k.row(), k.column(), k.sequence(), k.kind());
  }

  private void checkValid() {
    if (node == 0) {
      throw new NoSuchElementException("iterator is not positioned at an entry");
    }
  }
}
