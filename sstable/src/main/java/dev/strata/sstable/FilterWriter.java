package dev.strata.sstable;

import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.bloom.BloomFormat;
import dev.strata.bloom.BloomSizing;
import dev.strata.sstable.block.BlockBuilder;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.filter.FilterIndex;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterKeys;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.EncodedKeys;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a table's partitioned filter while the writer adds entries: collects the filter-key hashes
 * of the current chunk, cuts a chunk once it holds {@link TableOptions#keysPerChunk()} keys (always
 * between two cells, so a row's row-domain key and its first cell share a chunk), records each chunk's
 * last filter key in the filter index, and under {@code ROWCOL} gathers the rows of row tombstones.
 *
 * <p>The chunks are built as they fill but written only by {@link #finishChunks}, one after the
 * other after the last data block (format version 6): a table's filter is then one stretch of the
 * file, which a reader can load with one read instead of one per chunk (RocksDB's partitioned
 * filters sit together at the end of the file for the same reason). Until then the writer holds
 * the built filters, the table's filter memory (about 1.25 bytes per key at 10 bits), and the
 * filter index is kept with placeholder handles of the same fixed size, so its length, which
 * bounds the table ({@code TableWriter.hasRoomFor}), is known all along.
 *
 * <p>Row prefixes (when the options give a prefix length n): under {@code ROWCOL} each chunk holds
 * the n-byte prefix of every row with a cell in it (a row whose cells straddle a cut has it in both
 * chunks); under {@code ROW}, whose chunks are cut only at a row's first cell, of every row whose
 * first cell is in it. Rows shorter than n have none. Either way the one chunk a reader probes for a
 * prefix ({@link FilterIndex#find} of the prefix) holds it whenever any row of the table starts with
 * it (see {@code TableReader.prefixFilterExcludes}).
 *
 * <p>Not thread-safe.
 */
final class FilterWriter {
  /**
   * Where chunks go: writes a filter payload 64-byte aligned and returns its handle; {@code chunk}
   * is the filter the payload holds, as a reader would load it (for the block cache).
   */
  interface Sink {
    BlockHandle writeFilter(BlockType type, byte[] payload, FilterChunk chunk) throws IOException;
  }

  private final FilterType type;
  private final double bitsPerKey;
  private final FilterKind kind;
  /** The rate a Ribbon chunk is built for: a blocked Bloom filter's at bitsPerKey (model). */
  private final double ribbonRate;
  private final long keysPerChunk;
  private final int prefixLength;
  /** The prefix added last to the current chunk, in its first prefixLength bytes, if {@link #hasChunkPrefix}. */
  private byte[] chunkPrefix = new byte[0];
  /** False since the cut: no prefix added to the current chunk yet. */
  private boolean hasChunkPrefix;
  private final Sink sink;
  private final BlockBuilder index = new BlockBuilder(SstableFormat.INDEX_RESTART_INTERVAL);
  /** The open chunk's hashes: the writer's buffer, replaced there when it grows. */
  private final WriteBuffers buffers;
  private long[] hashes;
  private int count;
  /** The cell key of the current chunk's last filter key, in its first chunkLastCellLength bytes. */
  private byte[] chunkLastCell = new byte[64];
  private int chunkLastCellLength;
  private long[] tombstoneRows = new long[16];
  private int tombstoneRowCount;
  /** The row of the last row tombstone added, in its first lastTombstoneRowLength bytes; -1 before one. */
  private byte[] lastTombstoneRow = new byte[0];
  private int lastTombstoneRowLength = -1;
  private long keyCount;
  private long chunkCount;
  private long bytes;
  private final byte[] handleBytes = new byte[SstableFormat.HANDLE_BYTES];
  /** Built chunks not written yet, in filter-key order; written by {@link #finishChunks}. */
  private final List<PendingChunk> pending = new ArrayList<>();

  /** A chunk built and not written yet: its filter and its last filter key as a cell key. */
  private record PendingChunk(FilterChunk chunk, byte[] lastCell) {}

  FilterWriter(TableOptions options, Sink sink, WriteBuffers buffers) {
    this.buffers = buffers;
    this.hashes = buffers.filterHashes;
    this.type = options.filterType();
    this.bitsPerKey = options.bitsPerKey();
    this.kind = options.filterKind();
    this.ribbonRate = kind == FilterKind.RIBBON ? ribbonRate(bitsPerKey) : 0;
    this.keysPerChunk = options.keysPerChunk();
    this.prefixLength = options.prefixLength();
    this.sink = sink;
  }

  /**
   * Adds the filter keys of the encoded key {@code key[0, keyLength)} (see {@link EncodedKeys}),
   * which starts a new row or a new cell (the table writer knows, comparing it with the previous
   * key). Whatever it keeps of the key it copies: the caller may reuse the array.
   */
  void add(byte[] key, int keyLength, boolean newRow, boolean newCell) throws IOException {
    if (type == FilterType.NONE) {
      return;
    }
    int rowLength = EncodedKeys.rowLength(key);
    int rowStart = SstableFormat.ROW_LENGTH_BYTES;
    long rowHash = 0;
    if (newRow) {
      rowHash = FilterKeys.rowHash(key, rowStart, rowLength);
      push(rowHash);
    }
    // Under ROWCOL at every new cell (a row straddling a cut gets its prefix in both chunks);
    // under ROW at new rows only, so chunks are still cut only at a row's first cell.
    boolean prefixPoint = type == FilterType.ROWCOL ? newCell : newRow;
    if (prefixPoint && prefixLength > 0 && rowLength >= prefixLength
        && (!hasChunkPrefix
            || !Arrays.equals(chunkPrefix, 0, prefixLength, key, rowStart, rowStart + prefixLength))) {
      push(FilterKeys.prefixHash(key, rowStart, prefixLength));
      chunkPrefix = copy(key, rowStart, prefixLength, chunkPrefix);
      hasChunkPrefix = true;
    }
    if (type == FilterType.ROWCOL) {
      if (newCell) {
        push(FilterKeys.cellHash(key, 0, EncodedKeys.cellLength(keyLength)));
      }
      if (EncodedKeys.kind(key, keyLength) == ValueKind.DELETE_ROW
          && (lastTombstoneRowLength < 0 || !Arrays.equals(
              lastTombstoneRow, 0, lastTombstoneRowLength, key, rowStart, rowStart + rowLength))) {
        if (tombstoneRowCount == tombstoneRows.length) {
          tombstoneRows = Arrays.copyOf(tombstoneRows, tombstoneRowCount * 2);
        }
        tombstoneRows[tombstoneRowCount++] = newRow ? rowHash : FilterKeys.rowHash(key, rowStart, rowLength);
        lastTombstoneRow = copy(key, rowStart, rowLength, lastTombstoneRow);
        lastTombstoneRowLength = rowLength;
      }
    }
    if (newCell) {
      // The chunk's last filter key as a cell key: the row and, under ROWCOL, the column (a cell key
      // with the empty column is the row with its length).
      chunkLastCellLength = type == FilterType.ROWCOL ? EncodedKeys.cellLength(keyLength) : rowStart + rowLength;
      chunkLastCell = copy(key, 0, chunkLastCellLength, chunkLastCell);
      if (count >= keysPerChunk) {
        cutChunk();
      }
    }
  }

  /** {@code from[off, off + length)} at the start of {@code to}, or of a larger array if it is too short. */
  private static byte[] copy(byte[] from, int off, int length, byte[] to) {
    if (to.length < length) {
      to = new byte[Math.max(length, to.length * 2)];
    }
    System.arraycopy(from, off, to, 0, length);
    return to;
  }

  /**
   * Writes every chunk, in order, with the filter index's entries for them, then the row-tombstone
   * filter; returns the latter's handle (or NONE).
   */
  BlockHandle finishChunks() throws IOException {
    if (count > 0) {
      cutChunk();
    }
    // The index was built with placeholder handles of the same size: rebuilt with the real ones,
    // its length does not change.
    index.reset();
    for (PendingChunk p : pending) {
      BlockHandle h = sink.writeFilter(BlockType.FILTER_CHUNK, p.chunk().toPayload(), p.chunk());
      h.encodeTo(handleBytes, 0);
      index.add(p.lastCell(), p.lastCell().length, handleBytes, 0, handleBytes.length);
      bytes += h.storedLength();
    }
    pending.clear();
    if (tombstoneRowCount == 0) {
      return BlockHandle.NONE;
    }
    BlockHandle h = writeBloom(BlockType.ROW_TOMBSTONE_FILTER, tombstoneRows, tombstoneRowCount);
    bytes += h.storedLength();
    return h;
  }

  /** The filter index payload: {@code length} bytes of the returned buffer. */
  byte[] indexPayload() {
    return index.finish();
  }

  int indexPayloadLength() {
    return index.estimatedSize();
  }

  /** Counts the filter index block's stored bytes into {@link #bytes()}. */
  void addIndexBytes(long storedLength) {
    bytes += storedLength;
  }

  long keyCount() {
    return keyCount;
  }

  long chunkCount() {
    return chunkCount;
  }

  long bytes() {
    return bytes;
  }

  private void push(long hash) {
    if (count == hashes.length) {
      hashes = Arrays.copyOf(hashes, count * 2);
      buffers.filterHashes = hashes;
    }
    hashes[count++] = hash;
    keyCount++;
  }

  private void cutChunk() {
    FilterChunk chunk = kind == FilterKind.RIBBON
        ? new FilterChunk(buffers.ribbonBuilder.forFalsePositiveRate(hashes, count, ribbonRate))
        : new FilterChunk(bloom(hashes, count));
    pending.add(new PendingChunk(chunk, Arrays.copyOf(chunkLastCell, chunkLastCellLength)));
    index.add(chunkLastCell, chunkLastCellLength, PLACEHOLDER_HANDLE, 0, PLACEHOLDER_HANDLE.length);
    chunkCount++;
    count = 0;
    hasChunkPrefix = false;
  }

  /** A blocked Bloom filter of {@code hashes[0, count)} at the table's bits per key. */
  private BlockedBloomFilter bloom(long[] hashes, int count) {
    BlockedBloomFilter f = BlockedBloomFilter.create(count, bitsPerKey);
    for (int i = 0; i < count; i++) {
      f.putHash(hashes[i]);
    }
    return f;
  }

  /** Writes a blocked Bloom filter of {@code hashes[0, count)} as a {@code type} payload. */
  private BlockHandle writeBloom(BlockType type, long[] hashes, int count) throws IOException {
    FilterChunk chunk = new FilterChunk(bloom(hashes, count));
    return sink.writeFilter(type, chunk.toPayload(), chunk);
  }

  /**
   * The blocked Bloom filter's model rate at {@code bitsPerKey}, as it builds a filter of that
   * size, no lower than the smallest rate a Ribbon filter reaches (32 fingerprint bits).
   */
  static double ribbonRate(double bitsPerKey) {
    double rate = BloomSizing.blockedFpp(BloomFormat.BLOCK_BITS / bitsPerKey, BloomSizing.probesFor(bitsPerKey));
    return Math.max(MIN_RIBBON_RATE, rate);
  }

  /** The smallest rate a Ribbon filter is built for: 2^-32, its widest fingerprint. */
  private static final double MIN_RIBBON_RATE = 0x1p-32;

  /**
   * What the filter index holds for a chunk until it is written: any handle serves, since every
   * handle encodes to {@link SstableFormat#HANDLE_BYTES} bytes.
   */
  private static final byte[] PLACEHOLDER_HANDLE = new byte[SstableFormat.HANDLE_BYTES];
}
