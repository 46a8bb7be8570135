package dev.strata.engine.read;

import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.memtable.MemTableIterator;
import dev.strata.sstable.key.EncodedKeys;
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
  /** The current value once {@link #cacheViews} ran at this position; null after every move. */
  private byte[] value;

  public MemTableSource(MemTable memTable) {
    this.it = memTable.iterator();
  }

  @Override
  public void seekToFirst() {
    value = null;
    it.seekToFirst();
  }

  @Override
  public void seekToLast() {
    value = null;
    it.seekToLast();
  }

  @Override
  public void seek(InternalKey target) {
    value = null;
    it.seek(target);
  }

  @Override
  public void seekForPrev(InternalKey target) {
    value = null;
    it.seekForPrev(target);
  }

  @Override
  public boolean isValid() {
    return it.isValid();
  }

  @Override
  public void next() {
    value = null;
    it.next();
  }

  @Override
  public void prev() {
    value = null;
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
   * The current key encoded into a buffer this source reuses, and the value, both made once per
   * position (a flush reads each several times): a memtable entry has no encoded form to view.
   */
  @Override
  public byte[] encodedKey() {
    cacheViews();
    return keyBuffer;
  }

  @Override
  public int encodedKeyLength() {
    cacheViews();
    return keyLength;
  }

  @Override
  public byte[] valueArray() {
    cacheViews();
    return value;
  }

  @Override
  public int valueLength() {
    cacheViews();
    return value.length;
  }

  private void cacheViews() {
    if (value != null) {
      return;
    }
    InternalKey k = it.key();
    keyLength = EncodedKeys.length(k);
    if (keyBuffer.length < keyLength) {
      keyBuffer = new byte[Math.max(keyLength, keyBuffer.length * 2)];
    }
    EncodedKeys.encode(k, keyBuffer);
    value = it.value();
  }

  @Override
  public void close() {
    it.close();
  }
}
