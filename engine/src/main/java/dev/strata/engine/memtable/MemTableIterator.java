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
 * <p><b>Reading ahead.</b> Entries lie in the arena in the order they were added, so walking them
 * in key order (a flush, a long scan) meets each entry as a miss to memory, one after the other.
 * Every {@link #READ_AHEAD} forward steps the cursor therefore collects the entry addresses of the
 * next {@link #READ_AHEAD} nodes (the nodes are packed together, so mostly in the caches) and then
 * loads the first word of each, then the last of each short one: independent loads, which the
 * processor has in flight together, so the entries arrive in about the time of two misses instead
 * of one or two each. It only reads; which nodes it reads is decided by the list alone.
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

  /** Entries loaded ahead at a time (see the class comment). */
  static final int READ_AHEAD = 16;

  /** Entries up to this size have their end loaded ahead too: a few cache lines. */
  private static final int SHORT_ENTRY_BYTES = 256;

  /** The entries of the nodes ahead, collected before any of them is loaded. */
  private final long[] ahead = new long[READ_AHEAD];

  /** Forward steps left before the next read-ahead. */
  private int stepsToReadAhead;

  /** What the read-ahead loaded, kept in a field so that the loads are not dropped as unused. */
  private long readAheadSink;

  MemTableIterator(ArenaSkipList table) {
    this.table = table;
    this.entries = table.entries();
  }

  /** Positions at the first entry. */
  public void seekToFirst() {
    position(table.next(0));
  }

  /** Positions at the last entry. */
  public void seekToLast() {
    position(table.last());
  }

  /** Positions at the first entry at or after {@code target} in {@link InternalKey#ORDER}. */
  public void seek(InternalKey target) {
    position(table.seek(encode(target), 0, null));
  }

  /** Positions at the last entry at or before {@code target} in {@link InternalKey#ORDER}. */
  public void seekForPrev(InternalKey target) {
    byte[] k = encode(target);
    long at = table.seek(k, 0, null);
    if (at != 0 && entries.compare(table.entryOf(at), k, 0) == 0) {
      position(at);
    } else {
      position(table.seekBefore(k, 0));
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
    if (--stepsToReadAhead <= 0 && node != 0) {
      readAhead();
    }
  }

  /** Loads the entries of the current node and the {@link #READ_AHEAD} - 1 after it. */
  private void readAhead() {
    int n = 0;
    for (long x = node; n < READ_AHEAD && x != 0; x = table.next(x)) {
      ahead[n++] = table.entryOf(x);
    }
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += entries.valueLength(ahead[i]);
    }
    // Then each short entry's end, its length now in the caches.
    for (int i = 0; i < n; i++) {
      sum += entries.lastByteIfShort(ahead[i], SHORT_ENTRY_BYTES);
    }
    readAheadSink += sum;
    stepsToReadAhead = n;
  }

  /** Moves to the previous entry; invalid before the first. */
  public void prev() {
    checkValid();
    position(table.seekBefore(encode(key()), 0));
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

  /** Moves to {@code n} by a search: the next forward step reads ahead from there. */
  private void position(long n) {
    moveTo(n);
    stepsToReadAhead = 0;
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
