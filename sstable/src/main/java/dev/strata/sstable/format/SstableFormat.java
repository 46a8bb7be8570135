package dev.strata.sstable.format;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The SSTable file format: every constant, size and offset that readers and writers use, and the
 * grammar below. {@code FORMAT.md} (section 3) is the byte-exact specification; this is its
 * summary. All integers are little-endian; {@code varint} is unsigned LEB128 of at most 5 bytes.
 *
 * <pre>
 * File       := (DataBlock | IndexPartition | Padding FilterChunk)* [Padding RowTombstoneFilter]
 *               FilterIndex [IndexPartition] Index Properties Footer
 * Block      := payload[length] type:u8 crc:u32
 *                 type = blockType.id &lt;&lt; 4 | compression.id
 *                 crc  = maskedCrc32c(payload || type)
 * Payload    := Entries | u32 uncompressedLength, lz4Block     (compression LZ4)
 * Entries    := Entry* restart:u32[n] n:u32     (n = 0 iff there are no entries)
 * Entry      := shared:varint unshared:varint valueLength:varint keyDelta[unshared] value[valueLength]
 * InternalKey:= rowLength:u16 row column (sequence &lt;&lt; 8 | kind.id):u64
 * CellKey    := rowLength:u16 row column
 * Handle     := offset:u64 length:u32             (length excludes the 5-byte trailer)
 * Padding    := 0x00*  up to the next multiple of 64 (a filter payload starts 64-byte aligned)
 * FilterChunk, RowTombstoneFilter := Block whose payload is the filter's bytes (a blocked Bloom
 *               filter's toByteArray()), then (version 4) its kind:u8 (FilterKind)
 * Index      := (version 3) Entries: key = the last key of an IndexPartition, value = its Handle
 *               (versions 1, 2) Entries: key = InternalKey (the last key of a data block), value = Handle
 * IndexPartition := (versions 3, 4) Entries: key = InternalKey S with last(block) &lt;= S &lt;
 *               first(next block), shortened (see IndexSeparators), value = the data block's Handle
 *               (every index block: one restart per entry)
 *               (version 5) the same separators, compact (CompactIndex): key = InternalKey, or the
 *               CellKey of S when S's cell sorts below first(next block)'s; value = lengthAndForm:varint
 *               [offset:u64]; a restart point every 16 entries (the top level: every entry)
 * FilterIndex:= Entries: key = CellKey (the last filter key of a chunk), value = Handle
 * Properties := the fields of {@link dev.strata.sstable.TableProperties}, in the order of FORMAT.md
 * Footer     := index:Handle filterIndex:Handle properties:Handle rowTombstoneFilter:Handle
 *               version:u32 crc:u32 magic:u8[8]  (64 bytes; crc = maskedCrc32c(footer[0, 52)))
 * </pre>
 *
 * <p>Filter keys (the bytes hashed by {@code KeyHash.hash64}): a row is {@code 0x01 row}; a cell is
 * {@code 0x02 rowLength:u16 row column}; a row prefix (version 2, when the table has a prefix
 * length n) is {@code 0x03 firstNBytesOfRow}. The leading tag keeps the hash domains apart and the
 * row length makes the encoding of (row, column) pairs canonical.
 *
 * <p>Version history (readers accept {@link #VERSION_START} to {@link #VERSION_CURRENT}):
 *
 * <ol>
 *   <li>The first format.
 *   <li>The properties record the table's row-prefix length (0: none), and the filter chunks hold
 *       the prefix of every row they cover in a hash domain of its own, so prefix scans can skip
 *       tables. A version-1 table reads as prefix length 0: never skipped by a prefix scan.
 *   <li>The index has two levels: partitions of about a block (written between the data blocks as
 *       they fill) keyed by shortened separators, and a top level (the footer's index handle) with
 *       one entry per partition. No index block grows with the table.
 *   <li>Every filter payload ends with a kind byte (1 = blocked Bloom), so each chunk says which
 *       filter structure it holds and a table can carry another kind than the blocked Bloom
 *       filter. A payload of versions 1 to 3 is a blocked Bloom filter's bytes alone.
 *   <li>Compact index blocks (block types 8 and 9): partitions share key prefixes between restart
 *       points every {@link #COMPACT_INDEX_RESTART_INTERVAL} entries, a key whose cell no other
 *       block shares drops its 8-byte trailer, and a handle stores its offset only at restart
 *       points and where the previous block does not end right before it.
 *   <li>The filter chunks are written together after the last data block, in filter-key order,
 *       instead of between the data blocks as each filled: a table's filter is one stretch of
 *       the file, loaded with one read. No block changes; a reader finds everything through
 *       handles as before and reads versions 1 to 5 as it did.
 * </ol>
 *
 * <p>Immutable (constants only).
 */
public final class SstableFormat {
  /** The oldest format version this reader reads. */
  public static final int VERSION_START = 1;

  /** The version every writer writes. */
  public static final int VERSION_CURRENT = 6;

  /** The first version whose properties record a row-prefix length. */
  public static final int VERSION_PREFIX_FILTER = 2;

  /** The first version whose index has two levels: a top level over index partitions. */
  public static final int VERSION_PARTITIONED_INDEX = 3;

  /**
   * The first version whose filter payloads end with their kind ({@code FilterKind} id, one byte):
   * a table may mix filter structures chunk by chunk.
   */
  public static final int VERSION_FILTER_KINDS = 4;

  /**
   * The first version whose index blocks are compact ({@code CompactIndex}): partitions share key
   * prefixes between restart points, keys drop their trailer where the blocks allow, and handles
   * leave out the offsets the file implies.
   */
  public static final int VERSION_COMPACT_INDEX = 5;

  /**
   * The first version whose filter chunks lie together after the last data block: the chunks'
   * handles, in filter-index order, cover one stretch of the file (with alignment padding).
   */
  public static final int VERSION_FILTER_REGION = 6;

  /** Bytes of the kind a filter payload ends with from {@link #VERSION_FILTER_KINDS} on. */
  public static final int FILTER_KIND_BYTES = 1;

  /** The last 8 bytes of every table file, in file order. Private: an array constant is mutable. */
  private static final byte[] MAGIC = "STRATSST".getBytes(StandardCharsets.US_ASCII);

  /** Bytes of the magic at the end of every table file. */
  public static final int MAGIC_BYTES = 8;

  /** Writes the table magic into {@code dst} at {@code offset}. */
  public static void putMagic(byte[] dst, int offset) {
    System.arraycopy(MAGIC, 0, dst, offset, MAGIC_BYTES);
  }

  /** Whether {@code b} holds the table magic at {@code offset}. */
  public static boolean hasMagic(byte[] b, int offset) {
    return Arrays.equals(b, offset, offset + MAGIC_BYTES, MAGIC, 0, MAGIC_BYTES);
  }

  /** Bytes of the fixed-size footer at the end of the file. */
  public static final int FOOTER_BYTES = 64;

  /** Bytes of an encoded block handle: offset u64, length u32. */
  public static final int HANDLE_BYTES = 12;

  /** Footer offset of the version field. */
  public static final int FOOTER_VERSION_OFFSET = 4 * HANDLE_BYTES;

  /** Footer offset of the masked CRC32C over the footer's first {@code FOOTER_CRC_OFFSET} bytes. */
  public static final int FOOTER_CRC_OFFSET = FOOTER_VERSION_OFFSET + 4;

  /** Footer offset of the magic. */
  public static final int FOOTER_MAGIC_OFFSET = FOOTER_CRC_OFFSET + 4;

  /** Bytes of a block trailer: type byte, masked CRC32C. */
  public static final int BLOCK_TRAILER_BYTES = 5;

  /** Bytes of the uncompressed-length prefix of an LZ4 payload. */
  public static final int LZ4_HEADER_BYTES = 4;

  /**
   * The largest block payload (stored or uncompressed) a reader accepts, and so the largest a
   * writer writes: {@link dev.strata.sstable.TableWriter#hasRoomFor} tells the engine to start a new table before the
   * index or the filter index of this one could outgrow it, and {@link dev.strata.sstable.TableWriter#add} refuses an
   * entry that would make it. Nothing the writer produces is something the reader rejects.
   */
  public static final int MAX_BLOCK_BYTES = 1 << 30;

  /**
   * Keys at least this long (encoded) make data blocks grow with them: see {@link
   * #DATA_BYTES_PER_INDEX_BYTE}. Shorter keys leave the block size target alone.
   */
  public static final int LARGE_KEY_BYTES = 1024;

  /**
   * A data block whose last key is large holds at least this many times its index entry (the key)
   * in bytes before it is cut. So the index of a table of large keys stays within 1/64 of its data,
   * whatever the block size target: a flush of a row with thousands of 64 KiB cells cannot build
   * an index of one entry per cell, which grew to 1 GiB indexes that no reader would open.
   */
  public static final int DATA_BYTES_PER_INDEX_BYTE = 64;

  /** Bytes of the trailer of an encoded internal key: (sequence << 8 | kind) as u64. */
  public static final int KEY_TRAILER_BYTES = 8;

  /** Bytes of the row-length prefix of internal and cell keys. */
  public static final int ROW_LENGTH_BYTES = 2;

  /** The longest row a table holds (the row length is a u16). */
  public static final int MAX_ROW_LENGTH = 0xffff;

  /** The largest value a table holds; the engine's own limit is lower. */
  public static final int MAX_VALUE_LENGTH = 256 << 20;

  /** Entries between restart points in data blocks. */
  public static final int DATA_RESTART_INTERVAL = 16;

  /**
   * Entries between restart points in the index blocks of versions 1 to 4, in filter-index blocks
   * and in the top level of a version-5 index: every entry, for binary search.
   */
  public static final int INDEX_RESTART_INTERVAL = 1;

  /**
   * Entries between restart points in a version-5 index partition: a search binary-searches the
   * restart points' whole keys, then rebuilds at most this many keys.
   */
  public static final int COMPACT_INDEX_RESTART_INTERVAL = 16;

  /** File offsets of filter payloads are multiples of this. */
  public static final int FILTER_ALIGNMENT = 64;

  /** The filter-key tag of the row domain. */
  public static final byte FILTER_TAG_ROW = 0x01;

  /** The filter-key tag of the (row, column) domain. */
  public static final byte FILTER_TAG_CELL = 0x02;

  /** Tag of a row-prefix filter key. */
  public static final byte FILTER_TAG_PREFIX = 0x03;

  /** File name extension of table files. */
  public static final String EXTENSION = ".sst";

  private SstableFormat() {}

  /** The file name of table {@code fileNumber}: six or more digits and {@code .sst}, e.g. {@code 000012.sst}. */
  public static String fileName(long fileNumber) {
    if (fileNumber < 0) {
      throw new IllegalArgumentException("fileNumber must be >= 0: " + fileNumber);
    }
    return fileNumberDigits(fileNumber) + EXTENSION;
  }

  /**
   * A file number as every numbered file of a database names it: its decimal digits, zero-padded
   * to six. Built by hand: {@code String.format} would load the locale data on an open's path.
   */
  public static String fileNumberDigits(long fileNumber) {
    if (fileNumber < 0) {
      throw new IllegalArgumentException("fileNumber must be >= 0: " + fileNumber);
    }
    String digits = Long.toString(fileNumber);
    return digits.length() >= 6 ? digits : "000000".substring(digits.length()) + digits;
  }

  /** The path of table {@code fileNumber} in {@code dir}. */
  public static Path tablePath(Path dir, long fileNumber) {
    return dir.resolve(fileName(fileNumber));
  }

  /** The file number a table file name stands for, or -1 when it is not a table file name. */
  public static long parseFileNumber(String fileName) {
    if (!fileName.endsWith(EXTENSION)) {
      return -1;
    }
    String digits = fileName.substring(0, fileName.length() - EXTENSION.length());
    if (digits.length() < 6 || digits.length() > 18) {
      return -1;
    }
    for (int i = 0; i < digits.length(); i++) {
      if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(digits);
  }
}
