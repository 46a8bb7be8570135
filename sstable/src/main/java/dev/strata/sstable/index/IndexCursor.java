package dev.strata.sstable.index;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockCursor;
import dev.strata.sstable.block.CompactCursor;
import dev.strata.sstable.block.EntryCursor;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;

/**
 * A position among a table's index entries (one per data block), over either index shape: the one
 * index block of versions 1 and 2, or the two levels of versions 3 to 5, a top level held in memory whose
 * entries name index partitions that are loaded on demand (through the block cache on the read
 * path). Callers see one sorted run of entries either way.
 *
 * <p>A partition's top-level key is its last entry's key, so a seek in the top level for the first
 * entry {@code >= target} names the partition that holds the first index entry {@code >= target}.
 * Moving past either end of a partition moves the top level one step and loads the neighbour; a
 * partition with no entries (only damage makes one) is stepped over, never looped on.
 *
 * <p>Not thread-safe: one cursor belongs to one thread.
 */
public final class IndexCursor {
  /** Loads the partition named by the top-level entry {@code top} stands on (it must not move it). */
  public interface PartitionSource {
    Block partition(EntryCursor top) throws IOException;
  }

  /** The top level; null for a one-level index. */
  private final EntryCursor top;
  private final PartitionSource source;
  private final EntryCursor entries;
  /** The top-level entry ({@link EntryCursor#entryId}) of the partition in {@code entries}; -1 for none or one level. */
  private int loadedPartition = -1;
  private boolean valid;
  /** Whether {@code entries} holds a partition (two levels). */
  private boolean loaded;
  private IndexCursor(EntryCursor top, PartitionSource source, EntryCursor entries) {
    this.top = top;
    this.source = source;
    this.entries = entries;
  }

  /** A cursor over the single index block of a version 1 or 2 table. */
  public static IndexCursor oneLevel(Block index) {
    IndexCursor c = new IndexCursor(null, null, new BlockCursor());
    c.entries.reset(index);
    return c;
  }

  /** A cursor over a two-level index whose partitions come from {@code source}. */
  public static IndexCursor twoLevel(Block topLevel, PartitionSource source) {
    boolean compact = topLevel.isCompactIndex(); // so are the partitions (version 5)
    EntryCursor top = compact ? new CompactCursor() : new BlockCursor();
    top.reset(topLevel);
    return new IndexCursor(top, source, compact ? new CompactCursor() : new BlockCursor());
  }

  public boolean isValid() {
    return valid;
  }

  public void seekToFirst() throws IOException {
    if (top == null) {
      entries.seekToFirst();
    } else {
      top.seekToFirst();
      if (!loadPartition()) {
        return;
      }
      entries.seekToFirst();
    }
    settleForward();
  }

  public void seekToLast() throws IOException {
    if (top == null) {
      entries.seekToLast();
    } else {
      top.seekToLast();
      if (!loadPartition()) {
        return;
      }
      entries.seekToLast();
    }
    settleBackward();
  }

  /** Moves to the first entry whose key is {@code >= target}. */
  public void seek(InternalKey target) throws IOException {
    if (top == null) {
      entries.seek(target);
    } else {
      top.seek(target);
      if (!loadPartition()) {
        return;
      }
      entries.seek(target);
    }
    settleForward();
  }

  public void next() throws IOException {
    assert valid;
    entries.next();
    settleForward();
  }

  public void prev() throws IOException {
    assert valid;
    entries.prev();
    settleBackward();
  }

  /** The block holding the current entry: its value is a data block handle. */
  public Block block() {
    assert valid;
    return entries.block();
  }

  /** Offset of the current entry's value (a data block handle) in {@link #block()}. */
  public int valueOffset() {
    assert valid;
    return entries.valueOffset();
  }

  /** The current entry's key, in its first {@link #keyLength()} bytes. */
  public byte[] keyBytes() {
    return entries.keyBytes();
  }

  public int keyLength() {
    return entries.keyLength();
  }

  /** Names the current entry uniquely within the table: equal positions mean the same data block. */
  public long position() {
    assert valid;
    return (long) loadedPartition << 32 | (entries.entryId() & 0xffffffffL);
  }

  /** Steps over exhausted partitions forward; invalid past the last. */
  private void settleForward() throws IOException {
    while (!entries.isValid()) {
      if (top == null) {
        valid = false;
        return;
      }
      top.next();
      if (!loadPartition()) {
        return;
      }
      entries.seekToFirst();
    }
    valid = true;
  }

  /** Steps over exhausted partitions backward; invalid before the first. */
  private void settleBackward() throws IOException {
    while (!entries.isValid()) {
      if (top == null) {
        valid = false;
        return;
      }
      top.prev();
      if (!loadPartition()) {
        return;
      }
      entries.seekToLast();
    }
    valid = true;
  }

  /** Loads the partition the top level stands on (unless loaded); false, and invalid, off its ends. */
  private boolean loadPartition() throws IOException {
    if (!top.isValid()) {
      valid = false;
      return false;
    }
    int entry = top.entryId();
    if (entry != loadedPartition || !loaded) {
      entries.reset(source.partition(top));
      loaded = true;
      loadedPartition = entry;
    }
    return true;
  }
}
