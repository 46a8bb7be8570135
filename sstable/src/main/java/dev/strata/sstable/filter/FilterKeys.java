package dev.strata.sstable.filter;

import static dev.strata.sstable.format.SstableFormat.FILTER_TAG_CELL;
import static dev.strata.sstable.format.SstableFormat.FILTER_TAG_PREFIX;
import static dev.strata.sstable.format.SstableFormat.FILTER_TAG_ROW;

import dev.strata.bloom.KeyHash;
import dev.strata.sstable.key.KeyCodec;

/**
 * The canonical filter keys and their hashes. A row hashes as {@code 0x01 row}; a (row, column) cell
 * as {@code 0x02 rowLength:u16 row column}; a row prefix of the table's prefix length as {@code 0x03
 * prefix}. The tag keeps the row domain and the cell domain apart
 * (row "a" never meets a cell), the row length makes cells canonical ((row "ab", column "c") and
 * (row "a", column "bc") differ). Writers and probes go through these two methods only, so the bytes
 * hashed at a probe are exactly the bytes hashed at insert.
 *
 * <p>Thread-safe (stateless).
 */
public final class FilterKeys {
  private FilterKeys() {}

  /** Canonical keys of up to this many bytes are built in a per-thread buffer, not a new array. */
  private static final int SCRATCH_BYTES = 256;

  /**
   * Each thread's buffer for short canonical keys: every table write and every probe hashes one,
   * and an array per key was a large share of a compaction's garbage. Longer keys get their own.
   */
  private static final ThreadLocal<byte[]> SCRATCH =
      ThreadLocal.withInitial(() -> new byte[SCRATCH_BYTES]);

  /** The filter hash of a row. */
  public static long rowHash(byte[] row) {
    return rowHash(row, 0, row.length);
  }

  /** The filter hash of the row in {@code row[off, off + length)}. */
  public static long rowHash(byte[] row, int off, int length) {
    return tagged(FILTER_TAG_ROW, row, off, length);
  }

  /** The filter hash of the first {@code length} bytes of {@code row} (at least that long). */
  public static long prefixHash(byte[] row, int length) {
    assert row.length >= length : "row shorter than the prefix";
    return prefixHash(row, 0, length);
  }

  /** The filter hash of the row prefix in {@code row[off, off + length)}. */
  public static long prefixHash(byte[] row, int off, int length) {
    return tagged(FILTER_TAG_PREFIX, row, off, length);
  }

  /** The filter hash of the cell whose encoded cell key is {@code cellKey[off, off + length)}. */
  public static long cellHash(byte[] cellKey, int off, int length) {
    return tagged(FILTER_TAG_CELL, cellKey, off, length);
  }

  private static long tagged(byte tag, byte[] bytes, int off, int length) {
    return tagged(tag, bytes, off, length, buffer(1 + length));
  }

  /** The hash of {@code tag bytes[off, off + length)}, built in {@code b} (room for it). */
  private static long tagged(byte tag, byte[] bytes, int off, int length, byte[] b) {
    b[0] = tag;
    System.arraycopy(bytes, off, b, 1, length);
    return KeyHash.hash64(b, 0, 1 + length);
  }

  /**
   * {@link #rowHash(byte[])} with a buffer of its own instead of the thread's: for a caller that
   * hashes a row per call on one thread at a time (a memtable's writer hashes every row it takes,
   * and the thread-local lookup cost about as much as the hash).
   *
   * <p>Not thread-safe: one thread at a time.
   */
  public static final class RowHasher {
    private byte[] scratch = new byte[SCRATCH_BYTES];

    /** The filter hash of {@code row}, as {@link FilterKeys#rowHash(byte[])} gives it. */
    public long hash(byte[] row) {
      if (scratch.length < 1 + row.length) {
        scratch = new byte[1 + row.length]; // rows are at most 32 KiB: grown once, kept
      }
      return tagged(FILTER_TAG_ROW, row, 0, row.length, scratch);
    }
  }

  /** The filter hash of a (row, column) cell. */
  public static long cellHash(byte[] row, byte[] column) {
    int n = 1 + KeyCodec.cellKeyLength(row, column);
    byte[] b = buffer(n);
    b[0] = FILTER_TAG_CELL;
    KeyCodec.encodeCellKey(row, column, b, 1);
    return KeyHash.hash64(b, 0, n);
  }

  /** A buffer of at least {@code n} bytes, valid until this thread's next call. */
  private static byte[] buffer(int n) {
    return n <= SCRATCH_BYTES ? SCRATCH.get() : new byte[n];
  }
}
