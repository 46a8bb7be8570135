package dev.strata.sstable.block;

import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import java.util.Arrays;

/**
 * A position in a parsed {@link Block}: decodes entries in order, and seeks by binary search over the
 * restart points followed by a short linear scan. The block was verified by {@link Block#parse}, so
 * decoding only {@code assert}s.
 *
 * <p>Backward steps (LevelDB's block iterator): entries are prefix-compressed against their
 * predecessor, so an entry can only be decoded forward from a restart point. {@link #prev()} goes
 * back to the last restart point before the current entry and decodes forward to the entry just
 * before it: at most one restart interval of entries per step, and no buffer.
 *
 * <p>Not thread-safe: one cursor per iterator or lookup.
 */
public final class BlockCursor implements EntryCursor {
  private Block block;
  /** Offset of the current entry's header. */
  private int currentEntry;
  private int nextEntry;
  private boolean valid;
  private byte[] key = new byte[64];
  private int keyLength;
  private int valueOffset;
  private int valueLength;
  /** Positions the cursor before the first entry of {@code b}; it is not valid until a seek. */
  public void reset(Block b) {
    block = b;
    valid = false;
    nextEntry = 0;
    keyLength = 0;
  }

  public Block block() {
    return block;
  }

  public boolean isValid() {
    return valid;
  }

  /** The current key, in its first {@link #keyLength()} bytes; valid until the cursor moves. */
  public byte[] keyBytes() {
    assert valid;
    return key;
  }

  public int keyLength() {
    assert valid;
    return keyLength;
  }

  /** Offset of the current value in {@code block().data}. */
  /** An entry's value offset names it within its block. */
  @Override
  public int entryId() {
    return valueOffset();
  }

  public int valueOffset() {
    assert valid;
    return valueOffset;
  }

  public int valueLength() {
    assert valid;
    return valueLength;
  }

  /** The current value, copied. */
  public byte[] value() {
    return Arrays.copyOfRange(block.data, valueOffset, valueOffset + valueLength);
  }

  public void seekToFirst() {
    nextEntry = 0;
    keyLength = 0;
    next();
  }

  /** Moves to the next entry; the cursor becomes invalid past the last one. */
  public void next() {
    if (nextEntry >= block.restartsOffset) {
      valid = false;
      return;
    }
    byte[] d = block.data;
    int limit = block.restartsOffset;
    currentEntry = nextEntry;
    long v = Bytes.getVarint31(d, nextEntry, limit);
    int shared = (int) v;
    long u = Bytes.getVarint31(d, (int) (v >>> 32), limit);
    int unshared = (int) u;
    long w = Bytes.getVarint31(d, (int) (u >>> 32), limit);
    assert v >= 0 && u >= 0 && w >= 0 : "unverified block at " + block.fileOffset;
    int p = (int) (w >>> 32);
    int newLength = shared + unshared;
    if (key.length < newLength) {
      key = Arrays.copyOf(key, Math.max(newLength, key.length * 2));
    }
    System.arraycopy(d, p, key, shared, unshared);
    keyLength = newLength;
    valueOffset = p + unshared;
    valueLength = (int) w;
    nextEntry = valueOffset + valueLength;
    assert nextEntry <= limit;
    valid = true;
  }

  /** Moves to the last entry; invalid when the block has none. */
  public void seekToLast() {
    if (block.restartCount == 0) {
      valid = false;
      return;
    }
    decodeUpTo(block.restartPoint(block.restartCount - 1), block.restartsOffset);
  }

  /** Moves to the entry before the current one; the cursor becomes invalid before the first. */
  public void prev() {
    assert valid;
    int original = currentEntry;
    // The last restart point before the current entry: restart points ascend.
    int lo = 0;
    int hi = block.restartCount - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (block.restartPoint(mid) < original) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    if (block.restartPoint(lo) >= original) {
      valid = false; // the current entry is the first
      return;
    }
    decodeUpTo(block.restartPoint(lo), original);
  }

  /** Decodes from restart point {@code start} up to the last entry that begins before {@code end}. */
  private void decodeUpTo(int start, int end) {
    nextEntry = start;
    keyLength = 0;
    do {
      next();
    } while (nextEntry < end);
  }

  /**
   * Moves to the first entry whose internal key is {@code >= target}; invalid when there is none.
   * Binary search over the restart points for the last whose key is below {@code target} (or the
   * first), then a linear scan.
   */
  public void seek(InternalKey target) {
    int lo = 0;
    int hi = block.restartCount - 1;
    if (hi < 0) {
      valid = false;
      return;
    }
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (compareRestartKey(target, mid) > 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    nextEntry = block.restartPoint(lo);
    keyLength = 0;
    next();
    while (valid && KeyCodec.compare(target, key, 0, keyLength) > 0) {
      next();
    }
  }

  /** True when the block's first key is {@code <= target}; false for an empty block. */
  public boolean startsAtOrBefore(InternalKey target) {
    return block.restartCount > 0 && compareRestartKey(target, 0) >= 0;
  }

  /** Compares {@code target} with the whole key stored at restart point {@code i}. */
  private int compareRestartKey(InternalKey target, int i) {
    byte[] d = block.data;
    int limit = block.restartsOffset;
    long v = Bytes.getVarint31(d, block.restartPoint(i), limit);
    long u = Bytes.getVarint31(d, (int) (v >>> 32), limit);
    long w = Bytes.getVarint31(d, (int) (u >>> 32), limit);
    assert (int) v == 0 && u >= 0 && w >= 0 : "restart entry shares bytes";
    return KeyCodec.compare(target, d, (int) (w >>> 32), (int) u);
  }
}
