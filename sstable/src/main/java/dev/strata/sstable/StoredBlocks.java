package dev.strata.sstable;

import static dev.strata.sstable.format.SstableFormat.BLOCK_TRAILER_BYTES;

import dev.strata.checksum.Checksums;
import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.Lz4Decompressor;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.io.BulkBuffers;
import dev.strata.sstable.io.TableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import net.jpountz.lz4.LZ4Exception;

/**
 * Reads a table's stored blocks from its {@link TableFile} and checks them: the payload and its
 * five-byte trailer in one read, the trailer's checksum, block type and compression verified, an
 * LZ4 payload decompressed, then parsed as entries ({@link Block}) or as a filter ({@link
 * FilterChunk}). A block that fails any check throws {@link CorruptTableException} naming the file
 * and the block's offset. Shared by the reader's open, its read path (behind the block cache), its
 * bulk passes and its checksum verification. Stateless; FORMAT.md section 3 specifies the bytes.
 */
final class StoredBlocks {
  /**
   * The largest stored or decompressed block a thread's {@link #MISS_BUFFERS} take: a larger one is
   * read into arrays of its own, so no thread keeps a large buffer for one large block.
   */
  static final int MAX_BORROWED_BYTES = 256 << 10;

  /**
   * Each thread's buffers for its Gets' data-block misses ({@link #readDataBorrowed}): the stored
   * bytes and the decompressed payload, two distinct arrays (a payload read uncompressed lies in
   * the stored one, so a decompression never writes over what it reads).
   */
  private static final ThreadLocal<BulkBuffers> MISS_BUFFERS = ThreadLocal.withInitial(BulkBuffers::new);

  private StoredBlocks() {}

  /**
   * {@link #readBlock} of the data block at {@code h} into this thread's buffers, parsed into
   * {@code into} (this thread's scratch block, {@link Block#parseDataInto}): a miss then allocates no
   * array of the block's size. The block is {@link Block#borrowed}: valid until the thread's next
   * such read or scratch copy. A block larger than {@link #MAX_BORROWED_BYTES} stored or
   * decompressed is read as {@link #readBlock} reads it.
   */
  static Block readDataBorrowed(TableFile ch, Path file, long offset, int length, Block into) throws IOException {
    return readBorrowed(ch, file, offset, length, into, MISS_BUFFERS.get());
  }

  /**
   * {@link #readDataBorrowed} of a block of {@code into}'s type ({@link Block#reusable(BlockType)})
   * into {@code buffers}: an index partition a Get missed, in buffers of its own, as the partition
   * must stay whole while the data block it names is read.
   */
  static Block readBorrowed(TableFile ch, Path file, long offset, int length, Block into, BulkBuffers buffers)
      throws IOException {
    int storedLength = length + BLOCK_TRAILER_BYTES;
    if (storedLength > MAX_BORROWED_BYTES) {
      return readBlock(ch, file, new BlockHandle(offset, length), into.type());
    }
    byte[] raw = buffers.stored(storedLength);
    assert ch.path().equals(file) : file;
    ch.readFully(offset, raw, buffers.storedWrap(), storedLength);
    // The first four bytes are an LZ4 block's uncompressed length; payload() checks them, and a
    // payload too large for the buffers (or a stored block whose first bytes merely look like one)
    // gets an array of its own.
    boolean fits = length < SstableFormat.LZ4_HEADER_BYTES || Bytes.getU32(raw, 0) <= MAX_BORROWED_BYTES;
    byte[] payload = payload(raw, file, offset, length, into.type(), fits ? buffers : null);
    return Block.parseInto(into, payload, payloadLength(raw, payload, length), file, offset);
  }

  /**
   * Verifies and decodes {@code raw}, the stored filter payload (and trailer) of {@code h}: one copy
   * into the filter's aligned memory (the bloom module checks its own trailer too). {@code version}
   * is the table's format version, which says whether the payload ends with its filter kind
   * ({@link FilterChunk#decode}).
   */
  static FilterChunk decodeFilter(byte[] raw, Path path, BlockHandle h, BlockType type, int version)
      throws IOException {
    return decodeFilter(raw, 0, path, h, type, version);
  }

  /**
   * {@link #decodeFilter(byte[], Path, BlockHandle, BlockType, int)} of the stored block at {@code
   * raw[offset, offset + h.length() + 5)}: decoded where it lies in a larger read (an open's
   * stretch of filter chunks), so that the chunk's only copy is the filter's own memory.
   */
  static FilterChunk decodeFilter(byte[] raw, int offset, Path path, BlockHandle h, BlockType type,
      int version) throws IOException {
    checkTrailer(raw, offset, path, h.offset(), h.length(), type);
    try {
      return FilterChunk.decode(raw, offset, h.length(), version);
    } catch (IllegalArgumentException e) {
      throw new CorruptTableException(path, h.offset(), e, "%s does not parse: %s", type, e.getMessage());
    }
  }

  /**
   * {@link #decodeFilter(byte[], Path, BlockHandle, BlockType, int)} of the stored block (payload
   * and trailer) from {@code stored}'s position to its limit, checked and decoded where it lies: a
   * pinning open's direct memory, where a Bloom chunk is then probed in place and a Ribbon chunk is
   * laid out into direct memory of its own ({@link FilterChunk#decodeOffHeap}).
   */
  static FilterChunk decodeFilterOffHeap(ByteBuffer stored, Path path, BlockHandle h, BlockType type,
      int version) throws IOException {
    int n = h.length();
    int at = stored.position();
    byte typeByte = stored.get(at + n);
    int storedCrc = stored.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(at + n + 1);
    int computed = Checksums.maskedCrc32c(stored.slice(at, n), typeByte);
    checkType(typeByte, storedCrc, computed, path, h.offset(), type);
    try {
      return FilterChunk.decodeOffHeap(stored.slice(at, n), version);
    } catch (IllegalArgumentException e) {
      throw new CorruptTableException(path, h.offset(), e, "%s does not parse: %s", type, e.getMessage());
    }
  }

  /** Reads, verifies, decompresses and parses the entries block at {@code h}. */
  static Block readBlock(TableFile ch, Path file, BlockHandle h, BlockType type) throws IOException {
    return parseBlock(readStored(ch, file, h), file, h, type);
  }

  /** Verifies, decompresses and parses the stored entries block {@code raw} (payload and trailer) of {@code h}. */
  static Block parseBlock(byte[] raw, Path file, BlockHandle h, BlockType type) throws IOException {
    byte[] payload = payload(raw, file, h, type);
    return Block.parse(payload, payloadLength(raw, payload, h), type, file, h.offset());
  }

  /** The payload's length: the stored one, or the uncompressed length an LZ4 block's header holds. */
  static int payloadLength(byte[] raw, byte[] payload, BlockHandle h) {
    return payloadLength(raw, payload, h.length());
  }

  /** {@link #payloadLength(byte[], byte[], BlockHandle)} of a block whose stored payload is {@code length} bytes. */
  private static int payloadLength(byte[] raw, byte[] payload, int length) {
    return payload == raw ? length : Bytes.getU32(raw, 0);
  }

  /** The payload and trailer at {@code h}: {@code h.length() + 5} bytes. */
  static byte[] readStored(TableFile ch, Path file, BlockHandle h) throws IOException {
    return readFully(ch, file, h.offset(), h.length() + BLOCK_TRAILER_BYTES);
  }

  /**
   * Verifies the trailer of {@code raw} (checksum, then block type and compression) and returns the
   * payload: {@code raw} itself (payload in its first {@code h.length()} bytes) when stored
   * uncompressed, else a new array of exactly the uncompressed payload.
   */
  static byte[] payload(byte[] raw, Path file, BlockHandle h, BlockType want) throws CorruptTableException {
    return payload(raw, file, h, want, null);
  }

  /**
   * {@link #payload(byte[], Path, BlockHandle, BlockType)}, decompressing into {@code buffers} when
   * not null (the payload then fills only the start of the array returned: its length is {@link
   * #payloadLength}).
   */
  static byte[] payload(byte[] raw, Path file, BlockHandle h, BlockType want, BulkBuffers buffers)
      throws CorruptTableException {
    return payload(raw, file, h.offset(), h.length(), want, buffers);
  }

  /** {@link #payload(byte[], Path, BlockHandle, BlockType, BulkBuffers)} of the block (offset, n). */
  private static byte[] payload(byte[] raw, Path file, long offset, int n, BlockType want, BulkBuffers buffers)
      throws CorruptTableException {
    BlockCompression compression = checkTrailer(raw, 0, file, offset, n, want);
    if (compression == BlockCompression.NONE) {
      return raw;
    }
    int length = n < SstableFormat.LZ4_HEADER_BYTES ? -1 : Bytes.getU32(raw, 0);
    if (length < 0 || length > SstableFormat.MAX_BLOCK_BYTES) {
      throw new CorruptTableException(file, offset, "bad uncompressed length %d", length);
    }
    byte[] out = buffers == null ? new byte[length] : buffers.decompressed(length);
    try {
      int got = Lz4Decompressor.decompress(raw, SstableFormat.LZ4_HEADER_BYTES, n - SstableFormat.LZ4_HEADER_BYTES, out, 0, length);
      if (got != length) {
        throw new CorruptTableException(file, offset, "lz4 block inflates to %d bytes, want %d", got, length);
      }
    } catch (LZ4Exception e) {
      throw new CorruptTableException(file, offset, e, "lz4 block does not decompress");
    }
    return out;
  }

  /**
   * Verifies the trailer of the stored block at {@code raw[offset, offset + h.length() + 5)}: its
   * checksum, then its block type and compression, which it returns. Filters are never compressed
   * (their bits are random).
   */
  private static BlockCompression checkTrailer(byte[] raw, int offset, Path file, long blockOffset, int n,
      BlockType want) throws CorruptTableException {
    byte typeByte = raw[offset + n];
    int stored = Bytes.getU32(raw, offset + n + 1);
    return checkType(typeByte, stored, Checksums.maskedCrc32c(raw, offset, n, typeByte), file, blockOffset, want);
  }

  /**
   * The trailer's checks once its checksum is computed: {@code stored} against {@code computed},
   * then the block type and compression of {@code typeByte}, which it returns.
   */
  private static BlockCompression checkType(byte typeByte, int stored, int computed, Path file, long blockOffset,
      BlockType want) throws CorruptTableException {
    if (stored != computed) {
      throw new CorruptTableException(file, blockOffset, "%s block crc mismatch: stored=%08x computed=%08x",
          want, stored, computed);
    }
    BlockType type = BlockType.fromIdOrNull((typeByte >>> 4) & 0xf);
    BlockCompression compression = BlockCompression.fromIdOrNull(typeByte & 0xf);
    if (type != want || compression == null) {
      throw new CorruptTableException(file, blockOffset, "block type byte %02x, want a %s block", typeByte, want);
    }
    if (compression != BlockCompression.NONE
        && (want == BlockType.FILTER_CHUNK || want == BlockType.ROW_TOMBSTONE_FILTER)) {
      throw new CorruptTableException(file, blockOffset, "compressed %s block", want);
    }
    return compression;
  }

  static byte[] readFully(TableFile ch, Path file, long position, int length) throws IOException {
    assert ch.path().equals(file) : file;
    return ch.readFully(position, length);
  }
}
