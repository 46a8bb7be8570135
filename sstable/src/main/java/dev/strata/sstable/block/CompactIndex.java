package dev.strata.sstable.block;

import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;

/**
 * The entries of a version-5 index block ({@link BlockType#COMPACT_INDEX_PARTITION}, and the top
 * level {@link BlockType#COMPACT_INDEX}): the entries grammar of every block, with a key in one of
 * two forms and a value that is a handle with its offset left out where the file implies it.
 *
 * <pre>
 * value := lengthAndForm:varint [offset:u64]
 *            lengthAndForm = length &lt;&lt; 1 | form      (length &lt;= MAX_LENGTH)
 *            form 0: the key is an internal key S (as in version 3)
 *            form 1: the key is a cell key C, standing for the last internal key of cell C,
 *                    (C, sequence 0, DELETE_ROW)
 *            offset present: at every restart point, and wherever the block does not start
 *            right after the previous entry's (offset = previous offset + previous length + 5)
 * </pre>
 *
 * Why the cell form is exact: a block ending at L followed by one starting at N gets it only when
 * its separator's cell sorts below N's cell, so every key of the block is at most the last key of
 * that cell and every key of the next block above it; where versions of one cell straddle two
 * blocks the entry keeps its whole internal key.
 *
 * <p>Immutable (static helpers only).
 */
public final class CompactIndex {
  /** The form bit of a value whose key is a cell key. */
  static final int CELL_FORM = 1;

  /** The longest block a value can name: its length shares a 31-bit varint with the form bit. */
  public static final int MAX_LENGTH = (1 << 30) - 1;

  /** The most bytes a value takes: the varint and an offset. */
  public static final int MAX_VALUE_BYTES = Bytes.MAX_VARINT32_BYTES + Long.BYTES;

  private CompactIndex() {}

  /**
   * Writes the value of an entry naming a block of {@code length} bytes at {@code dst[off]}, with
   * {@code offset} when it is {@code >= 0} (a restart point, or a block the file does not imply);
   * returns the offset after it.
   */
  public static int putValue(byte[] dst, int off, int length, boolean cellForm, long offset) {
    assert length >= 0 && length <= MAX_LENGTH : "length=" + length;
    int end = Bytes.putVarint32(dst, off, length << 1 | (cellForm ? CELL_FORM : 0));
    if (offset >= 0) {
      Bytes.putU64(dst, end, offset);
      end += Long.BYTES;
    }
    return end;
  }

  /**
   * The target (row, column, snapshot, PUT) against the key at {@code b[off, off + len)} of the
   * given form: a cell key stands for the last internal key of its cell, above every target in it.
   */
  static int compare(byte[] row, byte[] column, long snapshot, byte[] b, int off, int len, boolean cellForm) {
    if (!cellForm) {
      return KeyCodec.compare(row, column, snapshot, ValueKind.PUT, b, off, len);
    }
    int c = KeyCodec.compareCell(row, column, b, off, len);
    return c != 0 ? c : -1;
  }

  /** Whether the value at {@code d[valueOffset]} (of a parsed block) says its key is a cell key. */
  static boolean isCellForm(byte[] d, int valueOffset) {
    return (d[valueOffset] & CELL_FORM) != 0; // the varint's first byte holds its low bit
  }

  /** The length of the block the value at {@code d[valueOffset]} names (of a parsed block, ends before {@code limit}). */
  public static int length(byte[] d, int valueOffset, int limit) {
    return (int) Bytes.getVarint31(d, valueOffset, limit) >>> 1;
  }

  /** The offset stored in the value at {@code d[valueOffset]}, which must hold one (a restart point's). */
  public static long storedOffset(byte[] d, int valueOffset, int limit) {
    return Bytes.getU64(d, (int) (Bytes.getVarint31(d, valueOffset, limit) >>> 32));
  }

  /**
   * Checks the value {@code d[valueOffset, valueOffset + valueLength)} of an entry of a parsed
   * block and returns the file offset right after the block it names ({@code previousEnd}: that of
   * the previous entry, -1 at the first); -1 when the value is malformed: a bad varint, a length
   * above {@link #MAX_LENGTH}, bytes after it other than one offset, no offset at a restart point,
   * or an offset that is negative or so large that the block's end overflows.
   */
  static long checkValue(byte[] d, int valueOffset, int valueLength, boolean restart, long previousEnd) {
    long v = Bytes.getVarint31(d, valueOffset, valueOffset + valueLength);
    if (v < 0) {
      return -1;
    }
    int extra = valueOffset + valueLength - (int) (v >>> 32);
    long offset;
    if (extra == Long.BYTES) {
      offset = Bytes.getU64(d, (int) (v >>> 32));
    } else if (extra == 0 && !restart && previousEnd >= 0) {
      offset = previousEnd;
    } else {
      return -1;
    }
    int length = (int) v >>> 1;
    if (offset < 0 || offset > Long.MAX_VALUE - length - SstableFormat.BLOCK_TRAILER_BYTES) {
      return -1;
    }
    return offset + length + SstableFormat.BLOCK_TRAILER_BYTES;
  }
}
