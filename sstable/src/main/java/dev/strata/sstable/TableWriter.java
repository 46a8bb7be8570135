package dev.strata.sstable;

import dev.strata.checksum.Checksums;
import dev.strata.sstable.block.BlockBuilder;
import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.CompactIndex;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.index.IndexWriter;
import dev.strata.sstable.key.EncodedKeys;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * Writes one table file, once, in key order: entries go into data blocks of about {@link
 * TableOptions#blockSizeBytes()}, filter keys into chunks built as they fill, and {@link #finish()}
 * appends the filter chunks (one stretch of the file), the row-tombstone filter, the filter index,
 * the index, the properties and the footer, then forces the file to disk. See {@link SstableFormat}
 * for the layout.
 *
 * <pre>{@code
 * try (TableWriter w = TableWriter.create(dir.resolve(SstableFormat.fileName(12)), TableOptions.defaults())) {
 *   for (Entry e : sortedEntries) w.add(e.key(), e.value());
 *   TableMetadata meta = w.finish();
 * } // an unfinished writer is aborted: the partial file is deleted
 * }</pre>
 *
 * <p>Not thread-safe: one thread writes a table.
 */
public final class TableWriter implements AutoCloseable {
  private static final byte[] PADDING = new byte[SstableFormat.FILTER_ALIGNMENT];

  private final Path path;
  private final TableOptions options;
  /** The largest index or filter index this writer builds: the reader's limit, smaller in tests. */
  private final int maxBlockBytes;
  private final FileChannel channel;
  private final OutputStream out;
  private final LZ4Compressor compressor;
  private final BlockBuilder dataBlock;
  /** The buffers this writer works in, given back when it is finished or aborted. */
  private final WriteBuffers buffers;
  private final IndexWriter index;
  private final FilterWriter filter;
  /** Where the filter chunks and index partitions go as they are written; null for nowhere. */
  private CacheOnWrite metadataCache;
  private final byte[] trailer = new byte[SstableFormat.BLOCK_TRAILER_BYTES];
  private byte[] keyScratch = new byte[64];
  private long offset;
  private boolean finished;
  private boolean closed;

  private InternalKey first;
  /** The last key added, encoded in its first lastKeyLength bytes (valid once an entry was added). */
  private byte[] lastKey = new byte[64];
  private int lastKeyLength;
  /** {@link #lastKey} decoded, made on demand by {@link #last()}; null when not made yet. */
  private InternalKey last;
  private long entryCount;
  private long putCount;
  private long deleteCount;
  private long rowTombstoneCount;
  private long distinctRows;
  private long distinctCells;
  private long minSequence = Long.MAX_VALUE;
  private long maxSequence = -1;
  private long rawKeyBytes;
  private long rawValueBytes;
  private long dataBlockCount;
  private long dataBytes;

  private TableWriter(Path path, TableOptions options, FileChannel channel, int maxBlockBytes,
      WriteBuffers buffers) {
    buffers.take();
    this.buffers = buffers;
    this.dataBlock = buffers.dataBlock;
    this.path = path;
    this.options = options;
    this.maxBlockBytes = maxBlockBytes;
    this.channel = channel;
    this.out = new ChannelOutput(channel, buffers.output);
    this.compressor = options.compression() == BlockCompression.LZ4
        ? LZ4Factory.fastestInstance().fastCompressor()
        : null;
    this.filter = new FilterWriter(options, this::writeFilter, buffers);
    this.index = new IndexWriter(options.blockSizeBytes(), this::writeIndexBlock);
  }

  /** Creates {@code file}, which must not exist yet, and a writer for it. */
  public static TableWriter create(Path file, TableOptions options) throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(options, "options");
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new TableWriter(file, options, ch, SstableFormat.MAX_BLOCK_BYTES, new WriteBuffers());
  }

  /**
   * A writer whose index and filter index stay under {@code maxBlockBytes} instead of {@link
   * SstableFormat#MAX_BLOCK_BYTES}: tests reach the limit with a small table.
   */
  static TableWriter create(Path file, TableOptions options, int maxBlockBytes) throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new TableWriter(file, options, ch, maxBlockBytes, new WriteBuffers());
  }

  /**
   * A writer for {@code file}, just created empty by the caller and open for writing as {@code
   * channel} (a caller that writes through a file layer of its own, as the engine's fault tests
   * do). The writer owns the channel from here on, and deletes the file if it is aborted.
   */
  public static TableWriter create(Path file, FileChannel channel, TableOptions options) {
    return create(file, channel, options, SstableFormat.MAX_BLOCK_BYTES);
  }

  /**
   * As {@link #create(Path, FileChannel, TableOptions)}, with the index and filter index kept under
   * {@code maxBlockBytes} (at most {@link SstableFormat#MAX_BLOCK_BYTES}, what a reader accepts):
   * a smaller limit lets a test reach it with a small table.
   */
  public static TableWriter create(
      Path file, FileChannel channel, TableOptions options, int maxBlockBytes) {
    return create(file, channel, options, maxBlockBytes, new WriteBuffers());
  }

  /**
   * As {@link #create(Path, FileChannel, TableOptions, int)}, working in {@code buffers}, which the
   * writer takes until it is finished or aborted: a compaction passes the same buffers to each of
   * its output tables in turn.
   */
  public static TableWriter create(
      Path file, FileChannel channel, TableOptions options, int maxBlockBytes, WriteBuffers buffers) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(buffers, "buffers");
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(options, "options");
    if (maxBlockBytes < 1 || maxBlockBytes > SstableFormat.MAX_BLOCK_BYTES) {
      throw new IllegalArgumentException(
          "maxBlockBytes must be in [1, " + SstableFormat.MAX_BLOCK_BYTES + "]: " + maxBlockBytes);
    }
    return new TableWriter(file, options, channel, maxBlockBytes, buffers);
  }

  /** The file being written. */
  public Path path() {
    return path;
  }

  /**
   * Puts every filter chunk, row-tombstone filter and index partition written from now on into
   * {@code cache}, as table {@code fileNumber}'s reader would load them: a reader of the finished
   * table finds its metadata cached and reads none of it from disk. Call before the first {@link
   * #add}. The blocks of a table that is then aborted stay until the cache evicts them (a file
   * number is never reused, so nothing ever finds them).
   */
  public void cacheMetadataIn(BlockCache cache, long fileNumber) {
    Objects.requireNonNull(cache, "cache");
    this.metadataCache = new CacheOnWrite(cache, fileNumber, path);
  }

  /**
   * True when an entry with {@code key} still fits this table: its index and its filter index would
   * stay within the largest block a reader accepts ({@link SstableFormat#MAX_BLOCK_BYTES}) whatever
   * blocks and chunks it closes. A new table always has room. Flush and compaction start a new
   * table when this says no.
   */
  public boolean hasRoomFor(InternalKey key) {
    return hasRoomFor(KeyCodec.internalKeyLength(key));
  }

  /** {@link #hasRoomFor(InternalKey)} for a key of {@code keyLength} bytes encoded. */
  private boolean hasRoomFor(int keyLength) {
    // Adding the entry adds at most one index entry (of this key or a shorter one) to the open
    // partition, at most one top-level entry (a partition's last key) and at most one filter index
    // entry (of a cell key no longer than this key), each with its handle, the entry header varints
    // and a restart point.
    long cost =
        keyLength
            + Math.max(SstableFormat.HANDLE_BYTES, CompactIndex.MAX_VALUE_BYTES)
            + 3L * Bytes.MAX_VARINT32_BYTES
            + Integer.BYTES;
    return index.topLevelSize() + cost <= maxBlockBytes
        && index.partitionSize() + cost <= maxBlockBytes
        && filter.indexPayloadLength() + cost <= maxBlockBytes;
  }

  /**
   * True once the index or the filter index has used half of what a reader accepts: flush and
   * compaction start a new table at the next row, so a row, which they never split, still has the
   * other half (with large keys, blocks grow to 64 times their key: that half holds tens of GiB of
   * a row's cells).
   */
  public boolean isNearlyFull() {
    return Math.max(index.topLevelSize(), filter.indexPayloadLength()) > maxBlockBytes / 2;
  }

  /**
   * Appends an entry. Keys must be strictly increasing in {@link InternalKey#ORDER}; an out-of-order
   * key, a row over {@link SstableFormat#MAX_ROW_LENGTH}, a value over {@link
   * SstableFormat#MAX_VALUE_LENGTH} or a row tombstone with a non-empty column is an {@link
   * IllegalArgumentException} and changes nothing; an entry the table has no room for ({@link
   * #hasRoomFor}) is an {@link IllegalStateException} and changes nothing. The key's arrays are
   * kept (not copied) until the writer is done.
   */
  public void add(InternalKey key, byte[] value) throws IOException {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    checkOpen();
    checkRoom(KeyCodec.internalKeyLength(key));
    if (key.row().length > SstableFormat.MAX_ROW_LENGTH) { // before encoding: its length is a u16
      throw new IllegalArgumentException("row of " + key.row().length + " bytes exceeds MAX_ROW_LENGTH");
    }
    int keyLength = KeyCodec.internalKeyLength(key);
    if (keyScratch.length < keyLength) {
      keyScratch = new byte[Math.max(keyLength, keyScratch.length * 2)];
    }
    KeyCodec.encodeInternalKey(key, keyScratch, 0);
    add(keyScratch, keyLength, value, 0, value.length);
  }

  /**
   * {@link #add(InternalKey, byte[])} for an entry given as views: the key encoded in {@code
   * key[0, keyLength)} (see {@link EncodedKeys}) and the value in {@code value[valueOffset,
   * valueOffset + valueLength)}. Both are copied before this returns, so a caller can hand over
   * the views a table iterator gives (compaction does: no object per entry on either side).
   */
  public void add(byte[] key, int keyLength, byte[] value, int valueOffset, int valueLength)
      throws IOException {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    checkOpen();
    // A public entry point taking raw bytes: a malformed key would be written as it is and make the
    // table unreadable, so it is checked here (three reads), not only under assertions.
    if (keyLength > key.length || !KeyCodec.isValidInternalKey(key, 0, keyLength)) {
      throw new IllegalArgumentException("not an encoded internal key: " + keyLength + " bytes");
    }
    Objects.checkFromIndexSize(valueOffset, valueLength, value.length);
    checkRoom(keyLength);
    if (valueLength > SstableFormat.MAX_VALUE_LENGTH) {
      throw new IllegalArgumentException("value of " + valueLength + " bytes exceeds MAX_VALUE_LENGTH");
    }
    int rowLength = EncodedKeys.rowLength(key);
    int cellLength = EncodedKeys.cellLength(keyLength);
    ValueKind kind = EncodedKeys.kind(key, keyLength);
    if (kind == ValueKind.DELETE_ROW && cellLength != SstableFormat.ROW_LENGTH_BYTES + rowLength) {
      throw new IllegalArgumentException(
          "a row tombstone has the empty column: " + EncodedKeys.decode(key, keyLength));
    }
    boolean isFirst = entryCount == 0;
    if (!isFirst && EncodedKeys.compare(lastKey, lastKeyLength, key, keyLength) >= 0) {
      throw new IllegalArgumentException(
          "key out of order: " + EncodedKeys.decode(key, keyLength) + " after " + last());
    }
    if (index.waitsForNextKey()) {
      index.beforeKey(EncodedKeys.decode(key, keyLength)); // once per data block
    }
    boolean newRow = isFirst || EncodedKeys.rowLength(lastKey) != rowLength
        || !Arrays.equals(lastKey, SstableFormat.ROW_LENGTH_BYTES, SstableFormat.ROW_LENGTH_BYTES + rowLength,
            key, SstableFormat.ROW_LENGTH_BYTES, SstableFormat.ROW_LENGTH_BYTES + rowLength);
    boolean newCell = newRow || !EncodedKeys.sameCell(lastKey, lastKeyLength, key, keyLength);
    filter.add(key, keyLength, newRow, newCell);
    count(kind, newRow, newCell, EncodedKeys.sequence(key, keyLength), keyLength, valueLength);
    dataBlock.add(key, keyLength, value, valueOffset, valueLength);
    if (isFirst) {
      first = EncodedKeys.decode(key, keyLength);
    }
    if (lastKey.length < keyLength) {
      lastKey = new byte[Math.max(keyLength, lastKey.length * 2)];
    }
    System.arraycopy(key, 0, lastKey, 0, keyLength);
    lastKeyLength = keyLength;
    last = null;
    if (dataBlock.estimatedSize() >= blockTarget(keyLength)) {
      flushDataBlock();
    }
  }

  private void checkRoom(int keyLength) {
    if (!hasRoomFor(keyLength)) {
      throw new IllegalStateException(
          path + " is full: one more entry could make its index larger than a reader accepts ("
              + maxBlockBytes + " bytes); start a new table");
    }
  }

  /** The last key added, decoded once per data block (or for a message); null before the first. */
  private InternalKey last() {
    if (last == null && entryCount > 0) {
      last = EncodedKeys.decode(lastKey, lastKeyLength);
    }
    return last;
  }

  /** When to cut a data block whose last key is {@code keyLength} bytes: see LARGE_KEY_BYTES. */
  private long blockTarget(int keyLength) {
    if (keyLength < SstableFormat.LARGE_KEY_BYTES) {
      return options.blockSizeBytes();
    }
    return Math.max(
        options.blockSizeBytes(), (long) SstableFormat.DATA_BYTES_PER_INDEX_BYTE * keyLength);
  }

  /** Entries added so far. */
  public long entryCount() {
    return entryCount;
  }

  /** Bytes written so far plus the current data block: what compaction splits output files by. */
  public long estimatedFileSize() {
    return offset + dataBlock.estimatedSize();
  }

  /**
   * Writes the remaining blocks and the footer, forces the file to disk and closes it. A table holds at
   * least one entry: finishing an empty writer is an {@link IllegalStateException}.
   */
  public TableMetadata finish() throws IOException {
    checkOpen();
    if (entryCount == 0) {
      throw new IllegalStateException("a table needs at least one entry: abort an empty writer");
    }
    if (!dataBlock.isEmpty()) {
      flushDataBlock();
    }
    BlockHandle tombstoneFilter = filter.finishChunks();
    BlockHandle filterIndex =
        writeBlock(BlockType.FILTER_INDEX, filter.indexPayload(), filter.indexPayloadLength(), BlockCompression.NONE);
    filter.addIndexBytes(filterIndex.storedLength());
    BlockHandle topIndex = index.finish();
    TableProperties props = new TableProperties(
        SstableFormat.VERSION_CURRENT, entryCount, putCount, deleteCount, rowTombstoneCount, distinctRows,
        distinctCells, minSequence, maxSequence, rawKeyBytes, rawValueBytes, dataBlockCount, dataBytes,
        index.storedBytes(), options.filterType(), options.compression(),
        options.bitsPerKey(),
        filter.keyCount(), filter.chunkCount(), filter.bytes(), options.blockSizeBytes(),
        options.filterChunkBytes(), first, last(),
        options.filterType() == FilterType.NONE ? 0 : options.prefixLength());
    byte[] propBytes = props.encode();
    BlockHandle propHandle = writeBlock(BlockType.PROPERTIES, propBytes, propBytes.length, BlockCompression.NONE);
    byte[] footer =
        new Footer(topIndex, filterIndex, propHandle, tombstoneFilter, SstableFormat.VERSION_CURRENT).encode();
    out.write(footer);
    offset += footer.length;
    out.flush();
    channel.force(true);
    finished = true;
    closed = true;
    buffers.giveBack();
    channel.close();
    return new TableMetadata(path, offset, props);
  }

  /** Abandons the table: closes and deletes the file. Idempotent; does nothing after {@link #finish()}. */
  public void abort() throws IOException {
    if (finished) {
      return;
    }
    if (!closed) {
      closed = true;
      buffers.giveBack();
      channel.close();
    }
    Files.deleteIfExists(path);
  }

  /** Aborts the table unless {@link #finish()} succeeded. */
  @Override
  public void close() throws IOException {
    abort();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException((finished ? "finished" : "aborted") + " writer of " + path);
    }
  }

  private void count(ValueKind kind, boolean newRow, boolean newCell, long sequence, int keyLength,
      int valueLength) {
    entryCount++;
    switch (kind) {
      case PUT -> putCount++;
      case DELETE -> deleteCount++;
      case DELETE_ROW -> rowTombstoneCount++;
    }
    if (newRow) {
      distinctRows++;
    }
    if (newCell) {
      distinctCells++;
    }
    minSequence = Math.min(minSequence, sequence);
    maxSequence = Math.max(maxSequence, sequence);
    rawKeyBytes += EncodedKeys.cellLength(keyLength) - SstableFormat.ROW_LENGTH_BYTES;
    rawValueBytes += valueLength;
  }

  private void flushDataBlock() throws IOException {
    BlockHandle h = writeBlock(BlockType.DATA, dataBlock.finish(), dataBlock.estimatedSize(), options.compression());
    index.blockFinished(last(), h);
    dataBlock.reset();
    dataBlockCount++;
    dataBytes += h.storedLength();
  }

  private BlockHandle writeFilter(BlockType type, byte[] payload, FilterChunk chunk) throws IOException {
    int pad = (int) (-offset & (SstableFormat.FILTER_ALIGNMENT - 1));
    out.write(PADDING, 0, pad);
    offset += pad;
    BlockHandle h = writeBlock(type, payload, payload.length, BlockCompression.NONE);
    if (metadataCache != null) {
      metadataCache.filter(h.offset(), chunk);
    }
    return h;
  }

  /** Writes an index block, uncompressed; an index partition also goes to the metadata cache. */
  private BlockHandle writeIndexBlock(BlockType type, byte[] payload, int length) throws IOException {
    BlockHandle h = writeBlock(type, payload, length, BlockCompression.NONE);
    if (metadataCache != null && type == BlockType.COMPACT_INDEX_PARTITION) {
      metadataCache.indexPartition(h.offset(), payload, length);
    }
    return h;
  }

  /** Writes payload[0, length) as a block, LZ4-compressed when asked and worth it. */
  private BlockHandle writeBlock(BlockType type, byte[] payload, int length, BlockCompression compression)
      throws IOException {
    byte[] stored = payload;
    int storedLength = length;
    BlockCompression used = BlockCompression.NONE;
    if (compression == BlockCompression.LZ4) {
      int max = SstableFormat.LZ4_HEADER_BYTES + compressor.maxCompressedLength(length);
      byte[] compressed = buffers.compressed;
      if (compressed.length < max) {
        compressed = new byte[max];
        buffers.compressed = compressed;
      }
      int n = compressor.compress(payload, 0, length, compressed, SstableFormat.LZ4_HEADER_BYTES,
          max - SstableFormat.LZ4_HEADER_BYTES);
      if (SstableFormat.LZ4_HEADER_BYTES + n <= length - length / 8) {
        Bytes.putU32(compressed, 0, length);
        stored = compressed;
        storedLength = SstableFormat.LZ4_HEADER_BYTES + n;
        used = BlockCompression.LZ4;
      }
    }
    byte typeByte = BlockType.trailerType(type, used);
    trailer[0] = typeByte;
    Bytes.putU32(trailer, 1, Checksums.maskedCrc32c(stored, 0, storedLength, typeByte));
    out.write(stored, 0, storedLength);
    out.write(trailer);
    BlockHandle h = new BlockHandle(offset, storedLength);
    offset += storedLength + trailer.length;
    return h;
  }
}
