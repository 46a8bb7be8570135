package dev.strata.engine.read;

import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.memtable.MemTableIterator;
import dev.strata.sstable.key.InternalKey;

/**
 * A memtable as an {@link InternalIterator}.
 *
 * <p>Not thread-safe: an iterator belongs to one thread.
 */
public final class MemTableSource implements InternalIterator {
  private final MemTableIterator it;
  private byte[] keyBuffer = new byte[64];
  private int keyLength;
  /** Whether {@link #keyBuffer} holds the current key; false after every move. */
  private boolean keyCached;

  public MemTableSource(MemTable memTable) {
    this.it = memTable.iterator();
  }

  @Override
  public void seekToFirst() {
    keyCached = false;
    it.seekToFirst();
  }

  @Override
  public void seekToLast() {
    keyCached = false;
    it.seekToLast();
  }

  @Override
  public void seek(InternalKey target) {
    keyCached = false;
    it.seek(target);
  }

  @Override
  public void seekForPrev(InternalKey target) {
    keyCached = false;
    it.seekForPrev(target);
  }

  @Override
  public boolean isValid() {
    return it.isValid();
  }

  @Override
  public void next() {
    keyCached = false;
    it.next();
  }

  @Override
  public void prev() {
    keyCached = false;
    it.prev();
  }

  @Override
  public InternalKey key() {
    return it.key();
  }

  @Override
  public byte[] value() {
    return it.value();
  }

  /**
   * The current key encoded into a buffer this source reuses, once per position (a flush reads it
   * several times), straight from the arena: a memtable entry has no encoded key to view, but needs
   * no key object to make one.
   */
  @Override
  public byte[] encodedKey() {
    cacheKey();
    return keyBuffer;
  }

  @Override
  public int encodedKeyLength() {
    cacheKey();
    return keyLength;
  }

  /** The value copied out of the arena into the iterator's reused array (see MemTableIterator). */
  @Override
  public byte[] valueArray() {
    return it.valueArray();
  }

  @Override
  public int valueOffset() {
    return it.valueOffset();
  }

  @Override
  public int valueLength() {
    return it.valueLength();
  }

  private void cacheKey() {
    if (keyCached) {
      return;
    }
    keyLength = it.encodedKeyLength();
    if (keyBuffer.length < keyLength) {
      keyBuffer = new byte[Math.max(keyLength, keyBuffer.length * 2)];
    }
    it.encodeKey(keyBuffer);
    keyCached = true;
  }

  @Override
  public void close() {
    it.close();
  }
}
