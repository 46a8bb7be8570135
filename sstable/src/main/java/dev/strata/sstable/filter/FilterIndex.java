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
  private static final int ROW = SstableFormat.ROW_LENGTH_BYTES;
  private final byte[][] lastKeys;
  /**
   * The length of the prefix the rows of all last keys share ("user0000" when the rows are
   * "user0000xxxx"), and those bytes: a row that does not start with them sorts below or above
   * every last key, and among rows that do, the 8 bytes after them decide most comparisons.
   */
  private final int sharedLength;
  private final byte[] shared;
  /**
   * The head of each last key's row: its 8 bytes after the shared prefix, zero-padded ({@link
   * RowPrefix}). A search compares these longs, one array in a few cache lines, and the key bytes
   * only on a tie. Each key of the search was a dependent load of a key array that missed the CPU
   * caches (a tenth of an absent Get at 20 million keys); and the first 8 bytes of the rows, which
   * the heads were before, tie for every row when the rows share 8 bytes ("key00000..."), so every
   * comparison compared the key bytes.
   */
  private final long[] lastRowHeads;
  private final BlockHandle[] handles;
  private final long sizeBytes;

  /** An index of chunks ending on {@code lastKeys} (encoded cell keys, ascending), at {@code handles}. */
  FilterIndex(byte[][] lastKeys, BlockHandle[] handles) {
    this.lastKeys = lastKeys;
    this.handles = handles;
    int sharedLength = lastKeys.length == 0 ? 0 : Bytes.getU16(lastKeys[0], 0);
    for (int i = 1; i < lastKeys.length && sharedLength > 0; i++) {
      byte[] k = lastKeys[i];
      int m = Arrays.mismatch(lastKeys[0], ROW, ROW + sharedLength, k, ROW, ROW + Math.min(sharedLength, Bytes.getU16(k, 0)));
      if (m >= 0) {
        sharedLength = m;
      }
    }
    this.sharedLength = sharedLength;
    this.shared = lastKeys.length == 0 ? new byte[0] : Arrays.copyOfRange(lastKeys[0], ROW, ROW + sharedLength);
    this.lastRowHeads = new long[lastKeys.length];
    for (int i = 0; i < lastKeys.length; i++) {
      byte[] k = lastKeys[i];
      lastRowHeads[i] = RowPrefix.of(k, ROW + sharedLength, Bytes.getU16(k, 0) - sharedLength);
    }
    // This object, the two arrays of references, the shared bytes, the heads, each key's array and
    // each handle (a long, an int).
    long bytes = HeapCost.object(4 * HeapCost.REFERENCE + 4 + 8)
        + 2 * HeapCost.align(HeapCost.ARRAY_HEADER + (long) HeapCost.REFERENCE * handles.length)
        + HeapCost.byteArray(sharedLength)
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
    int side = sideOfShared(row);
    if (side != 0) { // below every last key (the first chunk from on holds it), or above all
      return side < 0 && from < lastKeys.length ? from : -1;
    }
    return findSharing(row, column, from);
  }

  /**
   * {@code chunks[i] = find(row, column)} of the filter key of each of {@code probes[from, to)}, in
   * ascending order: (row, empty column) when {@code rowsOnly} (a {@code ROW} filter), else (row,
   * column). Each key's chunk is sought from the previous key's on, by galloping: one comparison
   * when the key lies in the same chunk, about 2 log2(d) when it lies d chunks further (a binary
   * search over the chunks left would cost log2 of all of them for every key). Each key's head is
   * taken once.
   */
  public void findAll(FilterProbe[] probes, int from, int to, boolean rowsOnly, int[] chunks) {
    if (from == to) {
      return;
    }
    // The rows ascend: when the first and the last start with the shared prefix, all do, and
    // their heads compare without checking it again.
    boolean allShare = sideOfShared(probes[from].row()) == 0 && sideOfShared(probes[to - 1].row()) == 0;
    int chunk = 0;
    for (int i = from; i < to; i++) {
      byte[] row = probes[i].row();
      byte[] column = column(probes[i], rowsOnly);
      chunk = allShare ? gallop(row, head(row), column, chunk) : find(row, column, chunk);
      if (chunk < 0) {
        Arrays.fill(chunks, i, to, -1); // this key and every later one sort after the last chunk
        return;
      }
      chunks[i] = chunk;
    }
  }

  private static byte[] column(FilterProbe probe, boolean rowsOnly) {
    return rowsOnly ? NO_COLUMN : probe.column();
  }

  private static final byte[] NO_COLUMN = new byte[0];

  /** {@link RowPrefix#sideOfShared} of {@code row} and the prefix the last keys' rows share. */
  private int sideOfShared(byte[] row) {
    return RowPrefix.sideOfShared(row, shared);
  }

  /** The head of {@code row}, which starts with the shared prefix: as {@link #lastRowHeads}. */
  private long head(byte[] row) {
    return RowPrefix.after(row, sharedLength);
  }

  /** {@link #find} for a row that starts with the shared prefix. */
  private int findSharing(byte[] row, byte[] column, int from) {
    long head = head(row);
    if (from < lastKeys.length && compareWithLastKey(row, head, column, from) <= 0) {
      return from;
    }
    int found = firstEndingAtOrAfter(row, head, column, from, lastKeys.length);
    return found == lastKeys.length ? -1 : found;
  }

  /**
   * {@link #find} for a row that starts with the shared prefix and has head {@code head}, by
   * galloping from chunk {@code from} on: chunks from, from + 1, from + 3, from + 7, ... until one
   * ends at or after the key, then a binary search below it. One comparison when the key lies in
   * chunk {@code from}, about 2 log2(d) when d chunks further (a binary search over the rest costs
   * log2 of all of them).
   */
  private int gallop(byte[] row, long head, byte[] column, int from) {
    int count = lastKeys.length;
    if (from >= count) {
      return -1;
    }
    if (compareWithLastKey(row, head, column, from) <= 0) {
      return from;
    }
    int lo = from + 1; // every chunk below lo ends before the key
    int step = 1;
    int hi = lo;
    while (hi < count && compareWithLastKey(row, head, column, hi) > 0) {
      lo = hi + 1;
      step <<= 1;
      hi = lo + step - 1;
    }
    // Chunk hi ends at or after the key, or hi is past the last chunk.
    int found = firstEndingAtOrAfter(row, head, column, lo, Math.min(hi, count));
    return found == count ? -1 : found;
  }

  /**
   * The first chunk in {@code [lo, hi)} whose last key is at or after the key (row, column), whose
   * row starts with the shared prefix and has head {@code head}; {@code hi} when none is.
   */
  private int firstEndingAtOrAfter(byte[] row, long head, byte[] column, int lo, int hi) {
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareWithLastKey(row, head, column, mid) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Compares (row, column), whose row starts with the shared prefix and has head {@code head}, with
   * chunk {@code i}'s last key.
   */
  private int compareWithLastKey(byte[] row, long head, byte[] column, int i) {
    int c = Long.compareUnsigned(head, lastRowHeads[i]);
    return c != 0 ? c : KeyCodec.compareCell(row, column, lastKeys[i], 0, lastKeys[i].length);
  }
}
