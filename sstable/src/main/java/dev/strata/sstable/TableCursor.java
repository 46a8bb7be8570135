package dev.strata.sstable;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockCursor;
import dev.strata.sstable.index.IndexCursor;
import dev.strata.sstable.io.BulkBuffers;
import dev.strata.sstable.io.BulkReadahead;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;

/**
 * A position among a table's entries: a cursor on the index ({@link IndexCursor}, over one level or
 * two) and one on the current data block. {@link TableIterator} moves one, forward or backward (a backward step that leaves a data block moves the index cursor back one
 * entry and lands on the last entry of that block). A seek that lands in the data block already
 * loaded reuses it without asking the cache again.
 *
 * <p>Not thread-safe.
 */
final class TableCursor {
  private final IndexReader indexReader;
  private final BlockFetcher fetcher;
  /** Where a bulk pass counts the data blocks it reads past the cache; null for cached reads. */
  private final ReadCounters bulk;
  /** The buffers a bulk pass reads its data blocks into, one block at a time; null for cached reads. */
  private final BulkBuffers bulkBuffers;
  /** The read-ahead window a bulk pass reads its data blocks through; null for cached reads. */
  private final BulkReadahead bulkReadahead;
  private IndexCursor index;
  private final BlockCursor data = new BlockCursor();
  private Block loadedData;
  /** The {@link IndexCursor#position()} of {@code loadedData}; meaningless while it is null. */
  private long loadedPosition;
  private boolean valid;

  /**
   * A cursor over the table {@code indexReader} indexes, whose data blocks {@code fetcher} fetches:
   * through the block cache, or from the file past it, counted into {@code bulk}, when {@code bulk}
   * is not null (see {@link TableReader#bulkIterator}).
   */
  TableCursor(IndexReader indexReader, BlockFetcher fetcher, ReadCounters bulk) {
    this.indexReader = indexReader;
    this.fetcher = fetcher;
    this.bulk = bulk;
    this.bulkBuffers = bulk == null ? null : new BulkBuffers();
    this.bulkReadahead = bulk == null ? null : fetcher.bulkReadahead();
  }

  boolean isValid() {
    return valid;
  }

  void seekToFirst() throws IOException {
    ensureIndex();
    index.seekToFirst();
    if (positionData()) {
      data.seekToFirst();
      skipExhaustedBlocks();
    }
  }

  void seekToLast() throws IOException {
    ensureIndex();
    index.seekToLast();
    if (positionData()) {
      data.seekToLast();
      skipExhaustedBlocksBackward();
    }
  }

  /**
   * Moves to the first entry {@code >= target}. When the target lies in the data block the cursor
   * already holds, the index is not searched and the cache not asked again: a cursor's nearby seeks
   * keep walking forward through one block.
   */
  void seek(InternalKey target) throws IOException {
    ensureIndex();
    if (inLoadedBlock(target)) {
      valid = true;
      data.reset(loadedData);
    } else {
      index.seek(target);
      if (!positionData()) {
        return;
      }
    }
    data.seek(target);
    skipExhaustedBlocks();
  }

  /**
   * True when an index seek for {@code target} would choose the loaded data block again: the index
   * cursor stands on its entry, whose key is at or after the block's last key and before the next
   * block's first key, and the target lies between the block's first key and that entry's key (every
   * earlier block's index key is then below the target).
   */
  private boolean inLoadedBlock(InternalKey target) {
    return loadedData != null
        && index.isValid()
        && index.position() == loadedPosition
        && KeyCodec.compare(target, index.keyBytes(), 0, index.keyLength()) <= 0
        && data.block() == loadedData
        && data.startsAtOrBefore(target);
  }

  void next() throws IOException {
    assert valid;
    data.next();
    skipExhaustedBlocks();
  }

  void prev() throws IOException {
    assert valid;
    data.prev();
    skipExhaustedBlocksBackward();
  }

  /** True when the current entry belongs to cell (row, column). */
  boolean inCell(byte[] row, byte[] column) {
    assert valid;
    return KeyCodec.sameCell(row, column, data.keyBytes(), 0, data.keyLength());
  }

  InternalKey key() {
    assert valid;
    return KeyCodec.decodeInternalKey(data.keyBytes(), 0, data.keyLength());
  }

  long sequence() {
    return KeyCodec.sequence(data.keyBytes(), 0, data.keyLength());
  }

  ValueKind kind() {
    return KeyCodec.kind(data.keyBytes(), 0, data.keyLength());
  }

  byte[] value() {
    assert valid;
    return data.value();
  }

  /** The current key encoded, in the first {@link #keyLength()} bytes; valid until the cursor moves. */
  byte[] keyBytes() {
    assert valid;
    return data.keyBytes();
  }

  int keyLength() {
    assert valid;
    return data.keyLength();
  }

  /** The array holding the current value (the block's), at {@link #valueOffset()}. */
  byte[] valueArray() {
    assert valid;
    return data.block().data;
  }

  int valueOffset() {
    return data.valueOffset();
  }

  int valueLength() {
    return data.valueLength();
  }

  private void ensureIndex() throws IOException {
    if (index == null) {
      index = indexReader.cursor();
    }
  }

  /** Loads the data block the index cursor stands on (unless loaded); false past the last block. */
  private boolean positionData() throws IOException {
    valid = index.isValid();
    if (!valid) {
      return false;
    }
    long position = index.position();
    if (loadedData == null || position != loadedPosition) {
      int entry = index.valueOffset();
      if (bulk != null) {
        // The read overwrites the loaded block's bytes: should it fail, nothing may use that block.
        loadedData = null;
        valid = false;
      }
      // A reader's cursor keeps its block across calls, for as long as its user takes, and values
      // handed out may lie in it: a block of its own, not the thread's buffers, which the thread's
      // next Get reuses. Its miss is read and offered to the cache without a loader or future.
      loadedData =
          bulk == null
              ? fetcher.dataBlock(index.block(), entry)
              : fetcher.dataBlockUncached(index.block(), entry, bulk, bulkBuffers, bulkReadahead);
      loadedPosition = position;
    }
    data.reset(loadedData);
    return true;
  }

  private void skipExhaustedBlocksBackward() throws IOException {
    while (!data.isValid()) {
      index.prev();
      if (!positionData()) {
        return;
      }
      data.seekToLast();
    }
    valid = true;
  }

  private void skipExhaustedBlocks() throws IOException {
    while (!data.isValid()) {
      index.next();
      if (!positionData()) {
        return;
      }
      data.seekToFirst();
    }
    valid = true;
  }
}
