package dev.strata.sstable.filter;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockCursor;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.cache.HeapCost;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.RowPrefix;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The parsed filter index a reader pins in memory at open: for each chunk, its last filter key as an
 * encoded cell key and its handle. One binary search finds the one chunk that can hold a key.
 *
 * <p>Immutable.
 */
public final class FilterIndex {
  private final byte[][] lastKeys;
  /**
   * The {@link RowPrefix} of each last key's row: a search compares these longs, one array in a few
   * cache lines, and the key bytes only on a tie. Each key of the search was a dependent load of a
   * key array that missed the CPU caches; the search was a tenth of an absent Get at 20 million keys.
   */
  private final long[] lastRowPrefixes;
  private final BlockHandle[] handles;
  private final long sizeBytes;

  /** An index of chunks ending on {@code lastKeys} (encoded cell keys, ascending), at {@code handles}. */
  FilterIndex(byte[][] lastKeys, BlockHandle[] handles) {
    this.lastKeys = lastKeys;
    this.handles = handles;
    this.lastRowPrefixes = new long[lastKeys.length];
    for (int i = 0; i < lastKeys.length; i++) {
      byte[] k = lastKeys[i];
      lastRowPrefixes[i] = RowPrefix.of(k, SstableFormat.ROW_LENGTH_BYTES, Bytes.getU16(k, 0));
    }
    // This object, the two arrays of references, the prefixes, each key's array and each handle (a
    // long, an int).
    long bytes = HeapCost.object(3 * HeapCost.REFERENCE + 8)
        + 2 * HeapCost.align(HeapCost.ARRAY_HEADER + (long) HeapCost.REFERENCE * handles.length)
        + HeapCost.longArray(handles.length)
        + handles.length * HeapCost.object(8 + 4);
    for (byte[] key : lastKeys) {
      bytes += HeapCost.byteArray(key.length);
    }
    this.sizeBytes = bytes;
  }

  /** What this index costs on the heap, as {@link HeapCost} counts it. */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** Reads the parsed filter-index block; every handle must lie before {@code limit}. */
  public static FilterIndex from(Block block, long limit, Path file) throws CorruptTableException {
    int n = block.entryCount;
    byte[][] keys = new byte[n][];
    BlockHandle[] handles = new BlockHandle[n];
    BlockCursor c = new BlockCursor();
    c.reset(block);
    c.seekToFirst();
    for (int i = 0; i < n; i++, c.next()) {
      assert c.isValid();
      keys[i] = Arrays.copyOf(c.keyBytes(), c.keyLength());
      handles[i] = BlockHandle.decodeOrNull(block.data, c.valueOffset(), limit);
      if (handles[i] == null) {
        throw new CorruptTableException(file, block.fileOffset, "filter chunk %d handle lies outside the file", i);
      }
    }
    return new FilterIndex(keys, handles);
  }

  public int chunkCount() {
    return handles.length;
  }

  public BlockHandle handle(int i) {
    return handles[i];
  }

  /** The encoded cell key of chunk {@code i}'s last filter key. */
  public byte[] lastKey(int i) {
    return lastKeys[i];
  }

  /** The first chunk whose last key is {@code >= (row, column)}, or -1 when every chunk ends before it. */
  public int find(byte[] row, byte[] column) {
    return find(row, column, 0);
  }

  /**
   * {@link #find}, for a key known to lie in chunk {@code from} or later (a batch of ascending keys
   * passes the previous key's chunk): a key in that same chunk costs one comparison.
   */
  int find(byte[] row, byte[] column, int from) {
    int lo = from;
    int hi = lastKeys.length;
    long prefix = RowPrefix.of(row);
    if (lo < hi && compareWithLastKey(row, prefix, column, lo) <= 0) {
      return lo;
    }
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareWithLastKey(row, prefix, column, mid) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo == lastKeys.length ? -1 : lo;
  }

  /**
   * {@code chunks[i] = find(row, column)} of the filter key of each of {@code probes[0, n)}, in
   * ascending order: (row, empty column) when {@code rowsOnly} (a {@code ROW} filter), else (row,
   * column). Each chunk's run of keys is found by a binary search over the keys, so a batch costs
   * about one comparison per chunk boundary it crosses and log2(n) per chunk, not one per key.
   */
  public void findAll(FilterProbe[] probes, int n, boolean rowsOnly, int[] chunks) {
    int i = 0;
    int chunk = 0;
    while (i < n) {
      chunk = find(probes[i].row(), column(probes[i], rowsOnly), chunk);
      if (chunk < 0) {
        Arrays.fill(chunks, i, n, -1); // this key and every later one sort after the last chunk
        return;
      }
      int lo = i + 1; // the first key after the chunk's last key lies in [i + 1, n]
      int hi = n;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (compareWithLastKey(probes[mid].row(), column(probes[mid], rowsOnly), chunk) > 0) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      Arrays.fill(chunks, i, lo, chunk);
      i = lo;
    }
  }

  private static byte[] column(FilterProbe probe, boolean rowsOnly) {
    return rowsOnly ? NO_COLUMN : probe.column();
  }

  private static final byte[] NO_COLUMN = new byte[0];

  private int compareWithLastKey(byte[] row, byte[] column, int i) {
    return compareWithLastKey(row, RowPrefix.of(row), column, i);
  }

  /** Compares (row, column) with chunk {@code i}'s last key; {@code prefix} is the row's {@link RowPrefix}. */
  private int compareWithLastKey(byte[] row, long prefix, byte[] column, int i) {
    int c = Long.compareUnsigned(prefix, lastRowPrefixes[i]);
    return c != 0 ? c : KeyCodec.compareCell(row, column, lastKeys[i], 0, lastKeys[i].length);
  }
}
