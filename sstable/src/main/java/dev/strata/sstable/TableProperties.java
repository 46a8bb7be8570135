package dev.strata.sstable;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What a table says about itself, from its properties block: held in memory by every open reader.
 * The filter type and parameters a reader uses come from here, never from live options.
 *
 * @param formatVersion the format version the table was written in
 * @param entryCount entries (cell versions and tombstones), at least 1
 * @param putCount entries of kind {@link ValueKind#PUT}
 * @param deleteCount cell tombstones ({@link ValueKind#DELETE})
 * @param rowTombstoneCount row tombstones ({@link ValueKind#DELETE_ROW})
 * @param distinctRowCount distinct rows
 * @param distinctCellCount distinct (row, column) cells
 * @param minSequence the smallest sequence number of any entry
 * @param maxSequence the largest sequence number of any entry
 * @param rawKeyBytes sum of row and column lengths over all entries
 * @param rawValueBytes sum of value lengths over all entries
 * @param dataBlockCount data blocks
 * @param dataBytes bytes the data blocks take in the file, trailers included
 * @param indexBytes bytes the index block takes in the file, trailer included
 * @param filterType what the filter holds
 * @param compression the compression data blocks were written with (each block records its own)
 * @param bitsPerKey filter bits per key the filter was sized with
 * @param filterKeyCount filter keys inserted into the chunks (rows, cells, or both under ROWCOL)
 * @param filterChunkCount filter chunks
 * @param filterBytes bytes of filter chunks, the row-tombstone filter and the filter index in the
 *     file, trailers included, alignment padding excluded
 * @param blockSizeBytes the writer's target data block size
 * @param filterChunkBytes the writer's target filter chunk size
 * @param smallestKey the first entry's key
 * @param largestKey the last entry's key
 * @param prefixLength the row-prefix length the filter chunks hold prefixes of (0: none; always 0
 *     for version 1 and for tables without a filter)
 *
 * <p>Immutable.
 */
public record TableProperties(
    int formatVersion,
    long entryCount,
    long putCount,
    long deleteCount,
    long rowTombstoneCount,
    long distinctRowCount,
    long distinctCellCount,
    long minSequence,
    long maxSequence,
    long rawKeyBytes,
    long rawValueBytes,
    long dataBlockCount,
    long dataBytes,
    long indexBytes,
    FilterType filterType,
    BlockCompression compression,
    double bitsPerKey,
    long filterKeyCount,
    long filterChunkCount,
    long filterBytes,
    int blockSizeBytes,
    int filterChunkBytes,
    InternalKey smallestKey,
    InternalKey largestKey,
    int prefixLength) {

  /** Bytes of the fixed-width fields of version 1, before the two length-prefixed keys. */
  static final int FIXED_BYTES = 4 + 13 * 8 + 2 + 8 + 3 * 8 + 4 + 4;

  /** Bytes of the fixed-width fields from version 2: version 1's and the prefix length (u32). */
  static final int FIXED_BYTES_V2 = FIXED_BYTES + 4;

  /** The fixed-width bytes of a properties record of {@code version}. */
  static int fixedBytes(int version) {
    return version >= SstableFormat.VERSION_PREFIX_FILTER ? FIXED_BYTES_V2 : FIXED_BYTES;
  }

  public TableProperties {
    Objects.requireNonNull(filterType, "filterType");
    Objects.requireNonNull(compression, "compression");
    Objects.requireNonNull(smallestKey, "smallestKey");
    Objects.requireNonNull(largestKey, "largestKey");
  }

  /** Tombstones of both kinds. */
  public long tombstoneCount() {
    return deleteCount + rowTombstoneCount;
  }

  /** The smallest row in the table. */
  public byte[] smallestRow() {
    return smallestKey.row();
  }

  /** The largest row in the table. */
  public byte[] largestRow() {
    return largestKey.row();
  }

  /** The payload of the properties block. */
  byte[] encode() {
    int s = KeyCodec.internalKeyLength(smallestKey);
    int l = KeyCodec.internalKeyLength(largestKey);
    int fixed = fixedBytes(formatVersion);
    byte[] b = new byte[fixed + 4 + s + 4 + l];
    int p = 0;
    Bytes.putU32(b, p, formatVersion);
    p += 4;
    for (long v : new long[] {entryCount, putCount, deleteCount, rowTombstoneCount, distinctRowCount,
        distinctCellCount, minSequence, maxSequence, rawKeyBytes, rawValueBytes, dataBlockCount,
        dataBytes, indexBytes}) {
      Bytes.putU64(b, p, v);
      p += 8;
    }
    b[p++] = (byte) filterType.id();
    b[p++] = (byte) compression.id();
    Bytes.putU64(b, p, Double.doubleToLongBits(bitsPerKey));
    p += 8;
    Bytes.putU64(b, p, filterKeyCount);
    Bytes.putU64(b, p + 8, filterChunkCount);
    Bytes.putU64(b, p + 16, filterBytes);
    p += 24;
    Bytes.putU32(b, p, blockSizeBytes);
    Bytes.putU32(b, p + 4, filterChunkBytes);
    p += 8;
    if (fixed == FIXED_BYTES_V2) {
      Bytes.putU32(b, p, prefixLength);
      p += 4;
    } else {
      assert prefixLength == 0 : "a version-1 table records no prefix length";
    }
    assert p == fixed;
    Bytes.putU32(b, p, s);
    p = KeyCodec.encodeInternalKey(smallestKey, b, p + 4);
    Bytes.putU32(b, p, l);
    p = KeyCodec.encodeInternalKey(largestKey, b, p + 4);
    assert p == b.length;
    return b;
  }

  /**
   * Decodes and checks a properties payload of {@code length} bytes read at {@code offset} of
   * {@code file}: exact length, known enum ids, consistent counts, well-formed ordered keys.
   */
  static TableProperties decode(byte[] b, int length, Path file, long offset)
      throws CorruptTableException {
    int version = length < 4 ? 0 : Bytes.getU32(b, 0);
    int fixed = fixedBytes(version);
    if (length < fixed + 8) {
      throw new CorruptTableException(file, offset, "properties of %d bytes, want at least %d",
          length, fixed + 8);
    }
    int p = 4; // after the version
    long[] v = new long[13];
    for (int i = 0; i < v.length; i++, p += 8) {
      v[i] = Bytes.getU64(b, p);
      if (v[i] < 0) {
        throw new CorruptTableException(file, offset + p, "negative property %d: %d", i, v[i]);
      }
    }
    FilterType filterType = FilterType.fromIdOrNull(b[p] & 0xff);
    BlockCompression compression = BlockCompression.fromIdOrNull(b[p + 1] & 0xff);
    if (filterType == null || compression == null) {
      throw new CorruptTableException(file, offset + p, "unknown filter type %d or compression %d",
          b[p] & 0xff, b[p + 1] & 0xff);
    }
    p += 2;
    double bitsPerKey = Double.longBitsToDouble(Bytes.getU64(b, p));
    p += 8;
    long filterKeyCount = Bytes.getU64(b, p);
    long filterChunkCount = Bytes.getU64(b, p + 8);
    long filterBytes = Bytes.getU64(b, p + 16);
    p += 24;
    int blockSize = Bytes.getU32(b, p);
    int chunkBytes = Bytes.getU32(b, p + 4);
    p += 8;
    int prefixLength = 0;
    if (fixed == FIXED_BYTES_V2) {
      prefixLength = Bytes.getU32(b, p);
      if (prefixLength < 0 || prefixLength > SstableFormat.MAX_ROW_LENGTH
          || (prefixLength > 0 && filterType == FilterType.NONE)) {
        throw new CorruptTableException(file, offset + p, "bad prefix length %d under filter %s",
            prefixLength, filterType);
      }
      p += 4;
    }
    if (!(bitsPerKey >= 1 && bitsPerKey <= 64) || filterKeyCount < 0 || filterChunkCount < 0
        || filterBytes < 0) {
      throw new CorruptTableException(file, offset, "bad filter properties: bits/key %s, keys %d,"
          + " chunks %d, bytes %d", bitsPerKey, filterKeyCount, filterChunkCount, filterBytes);
    }
    InternalKey[] keys = new InternalKey[2];
    for (int i = 0; i < 2; i++) {
      int n = length - p < 4 ? -1 : Bytes.getU32(b, p);
      if (n < 0 || n > length - p - 4 || !KeyCodec.isValidInternalKey(b, p + 4, n)) {
        throw new CorruptTableException(file, offset + p, "bad %s key", i == 0 ? "smallest" : "largest");
      }
      keys[i] = KeyCodec.decodeInternalKey(b, p + 4, n);
      p += 4 + n;
    }
    if (p != length) {
      throw new CorruptTableException(file, offset + p, "%d bytes after the properties", length - p);
    }
    long entries = v[0];
    if (entries < 1 || v[1] + v[2] + v[3] != entries || InternalKey.compare(keys[0], keys[1]) > 0) {
      throw new CorruptTableException(file, offset, "inconsistent properties: %d entries = %d puts"
          + " + %d deletes + %d row tombstones, keys %s..%s", entries, v[1], v[2], v[3], keys[0], keys[1]);
    }
    return new TableProperties(version, entries, v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
        v[10], v[11], v[12], filterType, compression, bitsPerKey, filterKeyCount, filterChunkCount,
        filterBytes, blockSize, chunkBytes, keys[0], keys[1], prefixLength);
  }
}
