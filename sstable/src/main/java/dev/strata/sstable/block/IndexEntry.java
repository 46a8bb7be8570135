package dev.strata.sstable.block;

import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.SstableFormat;
import java.util.Arrays;

/**
 * A position among the entries of a compact index block ({@link CompactIndex}): the entry's offset
 * in the block and, decoded, the handle of the data block (or partition) it names, its key form and
 * where its stored key bytes lie. A handle's offset may be implied by the previous entry's, so the
 * position steps forward only, from a restart point ({@link #first}, {@link #restart}).
 *
 * <p>Not thread-safe: belongs to one lookup, cursor or search.
 */
public final class IndexEntry {
  int pos;
  long dataOffset;
  int dataLength;
  boolean cellForm;
  /** Key bytes shared with the previous entry's key, and where the rest lie in the block. */
  int shared;
  int unshared;
  int keyOffset;
  int valueLength;

  /**
   * Rebuilds this entry's stored key in {@code key}, which holds its predecessor's (the shared
   * bytes stay), with room for {@code spare} bytes after it; returns {@code key}, or a larger copy
   * when it was too short (grown to the longest key seen, so a search or cursor stops allocating).
   */
  byte[] rebuildKey(byte[] data, byte[] key, int spare) {
    int length = shared + unshared + spare;
    if (key.length < length) {
      key = Arrays.copyOf(key, Math.max(length, 2 * key.length));
    }
    System.arraycopy(data, keyOffset, key, shared, unshared);
    return key;
  }

  /** The entry's offset in its block; the end of the entries once past the last. */
  public int pos() {
    return pos;
  }

  /** The file offset of the block the entry names. */
  public long dataOffset() {
    return dataOffset;
  }

  /** The payload length of the block the entry names. */
  public int dataLength() {
    return dataLength;
  }

  /** Whether the entry's key is a cell key (standing for the last internal key of its cell). */
  public boolean isCellForm() {
    return cellForm;
  }

  /** Whether this stands past the last entry of {@code b}. */
  public boolean pastEnd(Block b) {
    return pos >= b.restartsOffset;
  }

  /** Moves to the first entry of {@code b} (past the end when it has none). */
  public void first(Block b) {
    decode(b, 0, -1);
  }

  /** Moves to the entry at restart point {@code i} of {@code b}. */
  public void restart(Block b, int i) {
    decode(b, b.restartPoint(i), -1);
  }

  /** Moves to the next entry of {@code b} (past the end after the last). */
  public void next(Block b) {
    decode(b, keyOffset + unshared + valueLength, dataOffset + dataLength + SstableFormat.BLOCK_TRAILER_BYTES);
  }

  /**
   * Moves to the entry at {@code pos} of {@code b} (an entry's offset, or the end) whose data block
   * lies at {@code dataOffset}: as this said there before, so a batch keeps an entry as two numbers.
   */
  public void moveTo(Block b, int pos, long dataOffset) {
    decode(b, pos, dataOffset); // an offset the entry stores is the same one
  }

  /** Decodes the entry at {@code at}; {@code previousEnd} is where the previous entry's block ends. */
  private void decode(Block b, int at, long previousEnd) {
    pos = at;
    byte[] d = b.data;
    int limit = b.restartsOffset;
    if (at >= limit) {
      return;
    }
    long v = Bytes.getVarint31(d, at, limit);
    long u = Bytes.getVarint31(d, (int) (v >>> 32), limit);
    long w = Bytes.getVarint31(d, (int) (u >>> 32), limit);
    assert v >= 0 && u >= 0 && w >= 0 : "unverified block at " + b.fileOffset;
    shared = (int) v;
    unshared = (int) u;
    keyOffset = (int) (w >>> 32);
    valueLength = (int) w;
    int valueOffset = keyOffset + unshared;
    long h = Bytes.getVarint31(d, valueOffset, limit);
    int lengthAndForm = (int) h;
    int after = (int) (h >>> 32);
    dataLength = lengthAndForm >>> 1;
    cellForm = (lengthAndForm & CompactIndex.CELL_FORM) != 0;
    dataOffset = after - valueOffset < valueLength ? Bytes.getU64(d, after) : previousEnd;
  }
}
