package dev.strata.sstable.block;

import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;

/**
 * A cursor over a compact index block of version 5 ({@link CompactIndex}), for iterators and the
 * verifier: it rebuilds each entry's key from its restart point on (a cell key as the last internal
 * key of its cell, (C, 0, DELETE_ROW), which sorts the same) and writes the entry's handle into 12
 * bytes of its own, so that callers read keys and handles as they do in the blocks of older
 * versions. A seek binary-searches the restart points, then scans at most one interval; a step back
 * scans forward from the restart point before.
 *
 * <p>Not thread-safe: one cursor belongs to one thread.
 */
public final class CompactCursor implements EntryCursor {
  private Block b;
  private final IndexEntry at = new IndexEntry();
  /** The current key rebuilt; a cell key's trailer written after its stored bytes. */
  private byte[] key = new byte[64];
  /** Bytes of the key as stored (the next entry shares at most these). */
  private int storedLength;
  private boolean valid;
  private final byte[] handle = new byte[SstableFormat.HANDLE_BYTES];
  /** {@link #handle} as a block, named after the index block for messages. */
  private Block handleBlock;

  @Override
  public void reset(Block b) {
    assert b.isCompactIndex();
    this.b = b;
    this.valid = false;
    this.handleBlock = new Block(b.type, handle, 0, 0, 0, b.file, b.fileOffset);
  }

  @Override
  public Block block() {
    return handleBlock;
  }

  @Override
  public boolean isValid() {
    return valid;
  }

  @Override
  public byte[] keyBytes() {
    return key;
  }

  @Override
  public int keyLength() {
    return at.cellForm ? storedLength + SstableFormat.KEY_TRAILER_BYTES : storedLength;
  }

  @Override
  public int valueOffset() {
    return 0;
  }

  @Override
  public int entryId() {
    return at.pos;
  }

  @Override
  public void seekToFirst() {
    at.first(b);
    settle();
  }

  @Override
  public void next() {
    assert valid;
    at.next(b);
    settle();
  }

  @Override
  public void seekToLast() {
    if (b.restartCount == 0) {
      valid = false;
      return;
    }
    walkTo(b.restartCount - 1, b.restartsOffset);
  }

  @Override
  public void prev() {
    assert valid;
    int pos = at.pos;
    if (pos == 0) {
      valid = false;
      return;
    }
    int r = b.restartCount - 1;
    while (b.restartPoint(r) >= pos) {
      r--;
    }
    walkTo(r, pos);
  }

  @Override
  public void seek(InternalKey target) {
    int lo = 0;
    int hi = b.restartCount;
    while (lo < hi) { // the first restart point at or after the target
      int mid = (lo + hi) >>> 1;
      long k = PointSearch.restartKey(b, mid);
      int off = (int) (k >>> 32);
      int len = (int) k;
      if (compare(target, b.data, off, len, CompactIndex.isCellForm(b.data, off + len)) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo == 0) {
      seekToFirst();
      return;
    }
    int stop = lo < b.restartCount ? b.restartPoint(lo) : b.restartsOffset;
    at.restart(b, lo - 1);
    settle(); // below the target
    while (valid) {
      at.next(b);
      settle();
      if (!valid || at.pos >= stop || compare(target, key, 0, storedLength, at.cellForm) <= 0) {
        return;
      }
    }
  }

  /** Stands on the last entry before {@code end}, walking from restart point {@code r}. */
  private void walkTo(int r, int end) {
    at.restart(b, r);
    settle();
    while (true) {
      int pos = at.pos;
      long offset = at.dataOffset;
      at.next(b);
      if (at.pos >= end) {
        at.moveTo(b, pos, offset); // the key buffer still holds its key
        writeHandle();
        valid = true;
        return;
      }
      settle();
    }
  }

  /** Rebuilds the key and handle of the entry {@link #at} stands on, or becomes invalid past the end. */
  private void settle() {
    valid = !at.pastEnd(b);
    if (!valid) {
      return;
    }
    storedLength = at.shared + at.unshared;
    key = at.rebuildKey(b.data, key, SstableFormat.KEY_TRAILER_BYTES);
    if (at.cellForm) {
      Bytes.putU64(key, storedLength, ValueKind.DELETE_ROW.id()); // sequence 0
    }
    writeHandle();
  }

  private void writeHandle() {
    Bytes.putU64(handle, 0, at.dataOffset);
    Bytes.putU32(handle, 8, at.dataLength);
  }

  /** {@code target} against the stored key {@code k[off, off + len)} of the given form. */
  private static int compare(InternalKey target, byte[] k, int off, int len, boolean cellForm) {
    if (!cellForm) {
      return KeyCodec.compare(target, k, off, len);
    }
    int c = KeyCodec.compareCell(target.row(), target.column(), k, off, len);
    if (c != 0) {
      return c;
    }
    // The key stands for (C, 0, DELETE_ROW): the last internal key of the cell.
    return target.sequence() == 0 && target.kind() == ValueKind.DELETE_ROW ? 0 : -1;
  }
}
