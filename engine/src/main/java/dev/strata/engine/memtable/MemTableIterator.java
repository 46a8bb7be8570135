package dev.strata.engine.memtable;

import dev.strata.sstable.InternalKey;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * An ordered cursor over a memtable's entries, every version included, in the engine's iterator
 * vocabulary ({@code seekToFirst}, {@code seekToLast}, {@code seek}, {@code isValid}, {@code next},
 * {@code prev}, {@code key}, {@code value}). Weakly consistent while writers add entries: it never
 * returns entries out of order and sees every entry that was present when it was positioned; callers
 * filter by sequence number.
 *
 * <p>Forward steps walk the skip list's bottom level; a backward step is a predecessor search
 * ({@code lowerEntry}, O(log n)), as the skip list has no backward links. After a backward step the
 * forward walk restarts lazily from the current key.
 *
 * <p>Not thread-safe: an iterator stays on one thread.
 */
public final class MemTableIterator implements AutoCloseable {

  private final ConcurrentSkipListMap<InternalKey, byte[]> table;
  /** The forward walk after {@link #current}; null when it must restart from there. */
  private Iterator<Map.Entry<InternalKey, byte[]>> it;
  private Map.Entry<InternalKey, byte[]> current;

  MemTableIterator(ConcurrentSkipListMap<InternalKey, byte[]> table) {
    this.table = table;
  }

  /** Positions at the first entry. */
  public void seekToFirst() {
    it = table.entrySet().iterator();
    advance();
  }

  /** Positions at the last entry. */
  public void seekToLast() {
    it = null;
    current = table.lastEntry();
  }

  /** Positions at the first entry at or after {@code target} in {@link InternalKey#ORDER}. */
  public void seek(InternalKey target) {
    it = table.tailMap(target, true).entrySet().iterator();
    advance();
  }

  /** Positions at the last entry at or before {@code target} in {@link InternalKey#ORDER}. */
  public void seekForPrev(InternalKey target) {
    it = null;
    current = table.floorEntry(target);
  }

  /** True when positioned at an entry. */
  public boolean isValid() {
    return current != null;
  }

  /** Moves to the next entry. */
  public void next() {
    checkValid();
    if (it == null) {
      it = table.tailMap(current.getKey(), false).entrySet().iterator();
    }
    advance();
  }

  /** Moves to the previous entry; invalid before the first. */
  public void prev() {
    checkValid();
    it = null;
    current = table.lowerEntry(current.getKey());
  }

  /** The current entry's key. */
  public InternalKey key() {
    checkValid();
    return current.getKey();
  }

  /** The current entry's value (empty for tombstones); must not be modified. */
  public byte[] value() {
    checkValid();
    return current.getValue();
  }

  /** Releases nothing (memtables hold no files); present for the iterator contract. Idempotent. */
  @Override
  public void close() {
    it = null;
    current = null;
  }

  private void advance() {
    current = it.hasNext() ? it.next() : null;
  }

  private void checkValid() {
    if (current == null) {
      throw new NoSuchElementException("iterator is not positioned at an entry");
    }
  }
}
