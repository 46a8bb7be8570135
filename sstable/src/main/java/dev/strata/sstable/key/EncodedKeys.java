package dev.strata.sstable.key;

import static dev.strata.sstable.format.SstableFormat.KEY_TRAILER_BYTES;
import static dev.strata.sstable.format.SstableFormat.ROW_LENGTH_BYTES;

import dev.strata.sstable.format.Bytes;
import java.util.Arrays;

/**
 * Internal keys in their encoded form, as a table block stores them ({@code rowLength:u16 row column
 * trailer:u64}, the trailer {@code sequence << 8 | kind}), at the start of an array: what compaction
 * merges and writes without decoding an {@link InternalKey} (an object and two arrays) per cell.
 * Every method takes a well-formed key, such as a table iterator's {@link dev.strata.sstable.TableIterator#encodedKey()}
 * or {@link #encode}'s output, and compares in {@link InternalKey#ORDER}.
 *
 * <p>Thread-safe (stateless).
 */
public final class EncodedKeys {
  private EncodedKeys() {}

  /** Bytes of {@code key} encoded. */
  public static int length(InternalKey key) {
    return KeyCodec.internalKeyLength(key);
  }

  /** {@code key} encoded, in a new array of exactly its length. */
  public static byte[] encode(InternalKey key) {
    return KeyCodec.encodeInternalKey(key);
  }

  /** Writes {@code key} encoded at the start of {@code b} ({@link #length} bytes); returns its length. */
  public static int encode(InternalKey key, byte[] b) {
    return KeyCodec.encodeInternalKey(key, b, 0);
  }

  /** The key encoded in {@code k[0, length)}, decoded into a new {@link InternalKey}. */
  public static InternalKey decode(byte[] k, int length) {
    return KeyCodec.decodeInternalKey(k, 0, length);
  }

  /** Compares encoded keys {@code a[0, aLength)} and {@code b[0, bLength)} in {@link InternalKey#ORDER}. */
  public static int compare(byte[] a, int aLength, byte[] b, int bLength) {
    int ra = rowLength(a);
    int rb = rowLength(b);
    int c = UnsignedBytes.compare(a, ROW_LENGTH_BYTES, ra, b, ROW_LENGTH_BYTES, rb);
    if (c != 0) {
      return c;
    }
    c = UnsignedBytes.compare(a, ROW_LENGTH_BYTES + ra, aLength - KEY_TRAILER_BYTES - ROW_LENGTH_BYTES - ra,
        b, ROW_LENGTH_BYTES + rb, bLength - KEY_TRAILER_BYTES - ROW_LENGTH_BYTES - rb);
    if (c != 0) {
      return c;
    }
    long ta = Bytes.getU64(a, aLength - KEY_TRAILER_BYTES);
    long tb = Bytes.getU64(b, bLength - KEY_TRAILER_BYTES);
    c = Long.compare(tb >>> 8, ta >>> 8); // sequence descending
    return c != 0 ? c : Integer.compare((int) (ta & 0xff), (int) (tb & 0xff));
  }

  /** The row's length in bytes. */
  public static int rowLength(byte[] k) {
    return Bytes.getU16(k, 0);
  }

  /** Compares the key's row with {@code row}, unsigned. */
  public static int compareRow(byte[] k, byte[] row) {
    return UnsignedBytes.compare(k, ROW_LENGTH_BYTES, rowLength(k), row, 0, row.length);
  }

  /** True when the key's row is {@code row}. */
  public static boolean inRow(byte[] k, byte[] row) {
    return Arrays.equals(k, ROW_LENGTH_BYTES, ROW_LENGTH_BYTES + rowLength(k), row, 0, row.length);
  }

  /** The key's row, in a new array. */
  public static byte[] row(byte[] k) {
    return Arrays.copyOfRange(k, ROW_LENGTH_BYTES, ROW_LENGTH_BYTES + rowLength(k));
  }

  /** Copies the key's row into {@code to}, which is exactly {@link #rowLength} bytes long. */
  public static void copyRow(byte[] k, byte[] to) {
    assert to.length == rowLength(k);
    System.arraycopy(k, ROW_LENGTH_BYTES, to, 0, to.length);
  }

  /**
   * Bytes of the key's cell key (its row and column, with the row's length: the key without its
   * trailer). Two keys of one cell share their first {@code cellLength} bytes and no others do.
   */
  public static int cellLength(int keyLength) {
    return keyLength - KEY_TRAILER_BYTES;
  }

  /** True when {@code a[0, aLength)} and {@code b[0, bLength)} address the same (row, column) cell. */
  public static boolean sameCell(byte[] a, int aLength, byte[] b, int bLength) {
    return Arrays.equals(a, 0, cellLength(aLength), b, 0, cellLength(bLength));
  }

  /** The key's sequence number. */
  public static long sequence(byte[] k, int length) {
    return KeyCodec.sequence(k, 0, length);
  }

  /** The key's kind. */
  public static ValueKind kind(byte[] k, int length) {
    return KeyCodec.kind(k, 0, length);
  }
}
