package dev.strata.sstable;

import dev.strata.bloom.BlockedBloomFilter;
import java.io.IOException;
import java.util.Arrays;

/**
 * Builds a table's partitioned filter while the writer adds entries: collects the filter-key hashes
 * of the current chunk, cuts a chunk once it holds {@link TableOptions#keysPerChunk()} keys (always
 * between two cells, so a row's row-domain key and its first cell share a chunk), records each chunk's
 * last filter key in the filter index, and under {@code ROWCOL} gathers the rows of row tombstones.
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
  private static final byte[] EMPTY = new byte[0];

  /** Where chunks go: writes a filter payload 64-byte aligned and returns its handle. */
  interface Sink {
    BlockHandle writeFilter(BlockType type, byte[] payload) throws IOException;
  }

  private final FilterType type;
  private final double bitsPerKey;
  private final long keysPerChunk;
  private final int prefixLength;
  /** The row whose prefix was added last to the current chunk, or null since the cut. */
  private byte[] chunkPrefixRow;
  private final Sink sink;
  private final BlockBuilder index = new BlockBuilder(SstableFormat.INDEX_RESTART_INTERVAL);
  private long[] hashes = new long[1024];
  private int count;
  private byte[] chunkLastRow;
  private byte[] chunkLastColumn;
  private long[] tombstoneRows = new long[16];
  private int tombstoneRowCount;
  private byte[] lastTombstoneRow;
  private long keyCount;
  private long chunkCount;
  private long bytes;
  private final byte[] handleBytes = new byte[SstableFormat.HANDLE_BYTES];

  FilterWriter(TableOptions options, Sink sink) {
    this.type = options.filterType();
    this.bitsPerKey = options.bitsPerKey();
    this.keysPerChunk = options.keysPerChunk();
    this.prefixLength = options.prefixLength();
    this.sink = sink;
  }

  /** Adds the filter keys of {@code key}, which follows {@code previous} (null for the first entry). */
  void add(InternalKey key, InternalKey previous) throws IOException {
    if (type == FilterType.NONE) {
      return;
    }
    boolean newRow = previous == null || !Arrays.equals(previous.row(), key.row());
    boolean newCell = newRow || !Arrays.equals(previous.column(), key.column());
    long rowHash = 0;
    if (newRow) {
      rowHash = FilterKeys.rowHash(key.row());
      push(rowHash);
    }
    // Under ROWCOL at every new cell (a row straddling a cut gets its prefix in both chunks);
    // under ROW at new rows only, so chunks are still cut only at a row's first cell.
    boolean prefixPoint = type == FilterType.ROWCOL ? newCell : newRow;
    if (prefixPoint && prefixLength > 0 && key.row().length >= prefixLength
        && (chunkPrefixRow == null
            || !Arrays.equals(chunkPrefixRow, 0, prefixLength, key.row(), 0, prefixLength))) {
      push(FilterKeys.prefixHash(key.row(), prefixLength));
      chunkPrefixRow = key.row();
    }
    if (type == FilterType.ROWCOL) {
      if (newCell) {
        push(FilterKeys.cellHash(key.row(), key.column()));
      }
      if (key.kind() == ValueKind.DELETE_ROW && !Arrays.equals(lastTombstoneRow, key.row())) {
        if (tombstoneRowCount == tombstoneRows.length) {
          tombstoneRows = Arrays.copyOf(tombstoneRows, tombstoneRowCount * 2);
        }
        tombstoneRows[tombstoneRowCount++] = newRow ? rowHash : FilterKeys.rowHash(key.row());
        lastTombstoneRow = key.row();
      }
    }
    if (newCell) {
      chunkLastRow = key.row();
      chunkLastColumn = type == FilterType.ROWCOL ? key.column() : EMPTY;
      if (count >= keysPerChunk) {
        cutChunk();
      }
    }
  }

  /** Writes the last chunk and the row-tombstone filter; returns the latter's handle (or NONE). */
  BlockHandle finishChunks() throws IOException {
    if (count > 0) {
      cutChunk();
    }
    if (tombstoneRowCount == 0) {
      return BlockHandle.NONE;
    }
    BlockedBloomFilter f = BlockedBloomFilter.create(tombstoneRowCount, bitsPerKey);
    for (int i = 0; i < tombstoneRowCount; i++) {
      f.putHash(tombstoneRows[i]);
    }
    BlockHandle h = sink.writeFilter(BlockType.ROW_TOMBSTONE_FILTER, f.toByteArray());
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
    }
    hashes[count++] = hash;
    keyCount++;
  }

  private void cutChunk() throws IOException {
    BlockedBloomFilter f = BlockedBloomFilter.create(count, bitsPerKey);
    for (int i = 0; i < count; i++) {
      f.putHash(hashes[i]);
    }
    BlockHandle h = sink.writeFilter(BlockType.FILTER_CHUNK, f.toByteArray());
    byte[] key = new byte[KeyCodec.cellKeyLength(chunkLastRow, chunkLastColumn)];
    KeyCodec.encodeCellKey(chunkLastRow, chunkLastColumn, key, 0);
    h.encodeTo(handleBytes, 0);
    index.add(key, key.length, handleBytes, 0, handleBytes.length);
    bytes += h.storedLength();
    chunkCount++;
    count = 0;
    chunkPrefixRow = null;
  }
}
