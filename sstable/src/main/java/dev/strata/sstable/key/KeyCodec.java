package dev.strata.sstable.key;

import static dev.strata.sstable.format.SstableFormat.KEY_TRAILER_BYTES;
import static dev.strata.sstable.format.SstableFormat.ROW_LENGTH_BYTES;

import dev.strata.sstable.format.Bytes;
import java.util.Arrays;

/**
 * Encodes internal keys and cell keys for blocks ({@code rowLength:u16 row column [trailer:u64]}),
 * and compares a wanted key against an encoded one in place, without decoding it.
 *
 * <p>Thread-safe (stateless).
 */
public final class KeyCodec {
  private KeyCodec() {}

  /** Bytes of {@code key} encoded as an internal key. */
  public static int internalKeyLength(InternalKey key) {
    return ROW_LENGTH_BYTES + key.row().length + key.column().length + KEY_TRAILER_BYTES;
  }

  /** Writes {@code key} at {@code b[off]}; returns the offset after it. */
  public static int encodeInternalKey(InternalKey key, byte[] b, int off) {
    off = encodeCellKey(key.row(), key.column(), b, off);
    Bytes.putU64(b, off, key.sequence() << 8 | key.kind().id());
    return off + KEY_TRAILER_BYTES;
  }

  /** {@code key} encoded as an internal key, in a new array. */
  public static byte[] encodeInternalKey(InternalKey key) {
    byte[] b = new byte[internalKeyLength(key)];
    encodeInternalKey(key, b, 0);
    return b;
  }

  /** Bytes of (row, column) encoded as a cell key. */
  public static int cellKeyLength(byte[] row, byte[] column) {
    return ROW_LENGTH_BYTES + row.length + column.length;
  }

  /** Writes (row, column) as a cell key at {@code b[off]}; returns the offset after it. */
  public static int encodeCellKey(byte[] row, byte[] column, byte[] b, int off) {
    Bytes.putU16(b, off, row.length);
    off += ROW_LENGTH_BYTES;
    System.arraycopy(row, 0, b, off, row.length);
    off += row.length;
    System.arraycopy(column, 0, b, off, column.length);
    return off + column.length;
  }

  /**
   * True when {@code b[off, off + len)} is a well-formed internal key: the row fits and the kind id is
   * known. Block parsers call this on every key before it is trusted.
   */
  public static boolean isValidInternalKey(byte[] b, int off, int len) {
    if (len < ROW_LENGTH_BYTES + KEY_TRAILER_BYTES) {
      return false;
    }
    int rowLength = Bytes.getU16(b, off);
    if (rowLength > len - ROW_LENGTH_BYTES - KEY_TRAILER_BYTES) {
      return false;
    }
    return ValueKind.fromIdOrNull(b[off + len - KEY_TRAILER_BYTES] & 0xff) != null;
  }

  /** True when {@code b[off, off + len)} is a well-formed cell key. */
  public static boolean isValidCellKey(byte[] b, int off, int len) {
    return len >= ROW_LENGTH_BYTES && Bytes.getU16(b, off) <= len - ROW_LENGTH_BYTES;
  }

  /**
   * Compares (row, column, sequence, kind) against the valid encoded internal key at {@code b[off,
   * off + len)} in {@link InternalKey#ORDER}.
   */
  public static int compare(InternalKey want, byte[] b, int off, int len) {
    return compare(want.row(), want.column(), want.sequence(), want.kind(), b, off, len);
  }

  /** {@link #compare(InternalKey, byte[], int, int)} for the key (row, column, sequence, kind). */
  public static int compare(byte[] row, byte[] column, long sequence, ValueKind kind, byte[] b, int off, int len) {
    int c = compareCell(row, column, b, off, len - KEY_TRAILER_BYTES);
    if (c != 0) {
      return c;
    }
    long trailer = Bytes.getU64(b, off + len - KEY_TRAILER_BYTES);
    c = Long.compare(trailer >>> 8, sequence); // sequence descending
    if (c != 0) {
      return c;
    }
    return Integer.compare(kind.id(), (int) (trailer & 0xff));
  }

  /** Compares (row, column) against the valid encoded cell key at {@code b[off, off + len)}. */
  public static int compareCell(byte[] row, byte[] column, byte[] b, int off, int len) {
    int rowLength = Bytes.getU16(b, off);
    assert rowLength <= len - ROW_LENGTH_BYTES : "rowLength=" + rowLength + " len=" + len;
    int rowStart = off + ROW_LENGTH_BYTES;
    int c = UnsignedBytes.compare(row, 0, row.length, b, rowStart, rowLength);
    if (c != 0) {
      return c;
    }
    int columnStart = rowStart + rowLength;
    return UnsignedBytes.compare(column, 0, column.length, b, columnStart, off + len - columnStart);
  }

  /** True when the valid encoded internal key at {@code b[off, off + len)} is in cell (row, column). */
  public static boolean sameCell(byte[] row, byte[] column, byte[] b, int off, int len) {
    return compareCell(row, column, b, off, len - KEY_TRAILER_BYTES) == 0;
  }

  /** Decodes the valid internal key at {@code b[off, off + len)} into a new {@link InternalKey}. */
  public static InternalKey decodeInternalKey(byte[] b, int off, int len) {
    int rowLength = Bytes.getU16(b, off);
    int rowStart = off + ROW_LENGTH_BYTES;
    int columnEnd = off + len - KEY_TRAILER_BYTES;
    long trailer = Bytes.getU64(b, columnEnd);
    ValueKind kind = ValueKind.fromIdOrNull((int) (trailer & 0xff));
    assert kind != null : "unchecked key";
    return new InternalKey(
        Arrays.copyOfRange(b, rowStart, rowStart + rowLength),
        Arrays.copyOfRange(b, rowStart + rowLength, columnEnd),
        trailer >>> 8,
        kind);
  }

  /** The sequence number of the valid internal key at {@code b[off, off + len)}. */
  public static long sequence(byte[] b, int off, int len) {
    return Bytes.getU64(b, off + len - KEY_TRAILER_BYTES) >>> 8;
  }

  /** The kind of the valid internal key at {@code b[off, off + len)}. */
  public static ValueKind kind(byte[] b, int off, int len) {
    return ValueKind.fromIdOrNull(b[off + len - KEY_TRAILER_BYTES] & 0xff);
  }
}
