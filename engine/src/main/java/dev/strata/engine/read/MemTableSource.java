package dev.strata.engine.read;

import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.memtable.MemTableIterator;
import dev.strata.sstable.InternalKey;

/**
 * A memtable as an {@link InternalIterator}.
 *
 * <p>Not thread-safe: an iterator belongs to one thread.
 */
public final class MemTableSource implements InternalIterator {
  private final MemTableIterator it;

  public MemTableSource(MemTable memTable) {
    this.it = memTable.iterator();
  }

  @Override
  public void seekToFirst() {
    it.seekToFirst();
  }

  @Override
  public void seekToLast() {
    it.seekToLast();
  }

  @Override
  public void seek(InternalKey target) {
    it.seek(target);
  }

  @Override
  public void seekForPrev(InternalKey target) {
    it.seekForPrev(target);
  }

  @Override
  public boolean isValid() {
    return it.isValid();
  }

  @Override
  public void next() {
    it.next();
  }

  @Override
  public void prev() {
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

  @Override
  public void close() {
    it.close();
  }
}
