package dev.strata.sstable.block;

import static dev.strata.sstable.format.SstableFormat.KEY_TRAILER_BYTES;
import static dev.strata.sstable.format.SstableFormat.ROW_LENGTH_BYTES;

import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.RowPrefix;
import dev.strata.sstable.key.ValueKind;
import java.util.Arrays;

/**
 * The block searches of a point lookup ({@link dev.strata.sstable.TableReader#get}), done on the blocks' bytes in place:
 * no cursor, no key buffer, no decoded key, so a Get allocates little besides the value it returns.
 *
 * <p><b>Index blocks.</b> Every index entry of versions 1 to 4 is a restart point ({@link
 * SstableFormat#INDEX_RESTART_INTERVAL} is 1), so it stores its whole key: {@link
 * #firstRestartAtOrAfter} binary-searches them, comparing the target with the stored bytes ({@link
 * KeyCodec#compare}); {@link Block#parse} refuses such an index block with entries between them. A
 * compact partition of version 5 ({@link CompactIndex}) is binary-searched the same way over its
 * restart points (a cell key compared as the last key of its cell), then {@link #seekCompact} scans
 * the interval before the restart point found.
 *
 * <p><b>Data blocks.</b> The same binary search finds the last restart point whose key sorts below
 * the target (row, column, snapshot, PUT); the target's first entry at or after it is then in that
 * restart interval, or is the next restart point's entry, or lies in the next block. {@link
 * #search} scans forward from there, deciding for each entry only whether it belongs to the sought
 * cell, without rebuilding its prefix-compressed key. An entry shares its first {@code shared} bytes
 * with its predecessor, so:
 *
 * <ul>
 *   <li>how many leading bytes it has in common with the encoded cell key ({@code rowLength:u16 row
 *       column}) follows from its predecessor's count: beyond {@code shared} it is the predecessor's
 *       count (the predecessor already differed there), else {@code shared} plus a comparison of its
 *       own stored bytes;
 *   <li>its bytes at the positions where an entry of the cell holds its trailer (sequence and kind)
 *       are the predecessor's below {@code shared} and its own stored bytes above: an 8-byte window
 *       carried from entry to entry.
 * </ul>
 *
 * It is in the cell when its key is exactly the cell key plus a trailer and all of the cell key is
 * in common. The entries of a cell are contiguous and newest first, and one with sequence at most
 * the snapshot sorts at or after the target: the first such entry answers. An entry outside the cell
 * ends the search when an entry of the cell was seen before it or when it lies at or past the next
 * restart point (both put it after the cell). A block that ends in the middle of the cell (its last
 * entry belongs to the cell, none visible) hands over to the next block, all of whose keys lie above
 * the target (they follow the index key the search chose, which is at or above the target): there
 * the first entry outside the cell ends the search. A block that ends with no entry of the cell
 * seen holds the answer alone: the absent one. The index key S of a block ending at L and followed
 * by a block starting at N has {@code L <= S < N}, and is either L or a key of a smaller cell than
 * N's ({@link dev.strata.sstable.index.IndexSeparators}); a target at or below S whose cell the block lacks is therefore
 * either below L (so some larger key of the block ended the cell) or in (L, S], a cell N cannot
 * hold. Reading the next block there would cost a block for nothing: for an absent key let through
 * by a filter false positive, in about one block in three.
 *
 * <p>Not thread-safe: one search belongs to one lookup on one thread; {@link #target} re-aims it.
 */
public final class PointSearch {
  /** {@link #search}: the wanted entry was found; {@link #block} and the fields after it say where. */
  public static final int FOUND = 0;
  /** {@link #search}: the table holds no wanted entry. */
  public static final int ABSENT = 1;
  /** {@link #search}: the block ended undecided; search the next block with {@code continued}. */
  public static final int NEXT_BLOCK = 2;
  /**
   * {@link #scan}: the block, read in place off the heap ({@link InPlaceBlock}), was evicted during
   * the search, whose answer is void: fetch the same block again (it is copied this time).
   */
  public static final int STALE = 3;

  /** {@link #placeRow}: the block keeps no row heads; compare the target with its keys' bytes. */
  public static final int BY_KEYS = -1;

  /**
   * {@link #placeRow}: the target's row begins with the block's shared row prefix; compare its
   * head ({@link #rowHead}) with the keys' heads ({@link #compareRestartHead}).
   */
  public static final int BY_HEADS = -2;

  private byte[] row;
  private byte[] column;
  /** The key a {@link #seekCompact} rebuilds, entry by entry. */
  private byte[] keyScratch = new byte[64];
  private long snapshot;
  /** Bytes of the encoded cell key {@code rowLength:u16 row column}. */
  private int cellLength;

  /** The block of the entry found. */
  Block block;
  /** The found entry's trailer: sequence in the high 56 bits, kind id in the low 8. */
  long trailer;
  /** Where the found entry's value starts in {@code block.data}. */
  int valueOffset;
  int valueLength;
  /** The found value, copied out before the validation of an in-place search; null after a heap block's. */
  private byte[] inPlaceValue;

  /** Reads a heap block's bytes; re-aimed at each one searched. */
  private final BlockBytes.Heap heapBytes = new BlockBytes.Heap();

  /** Aims the search at the newest entries of cell (row, column) with sequence {@code <= snapshot}. */
  public PointSearch target(byte[] row, byte[] column, long snapshot) {
    this.row = row;
    this.column = column;
    this.snapshot = snapshot;
    this.cellLength = ROW_LENGTH_BYTES + row.length + column.length;
    return this;
  }

  public long sequence() {
    return trailer >>> 8;
  }

  public ValueKind kind() {
    return ValueKind.fromIdOrNull((int) (trailer & 0xff));
  }

  /** The found entry's value, copied. */
  public byte[] value() {
    return inPlaceValue != null ? inPlaceValue : Arrays.copyOfRange(block.data, valueOffset, valueOffset + valueLength);
  }

  /** The bytes a data block's search reads: in place off the heap, or its array. */
  private BlockBytes bytesOf(Block b) {
    InPlaceBlock p = b.inPlace;
    return p != null ? p.bytes() : heapBytes.over(b.data);
  }

  /**
   * The index of the first restart point of {@code b} whose key is at or after the target (row,
   * column, snapshot, PUT); {@code b.restartCount} when every one sorts below it.
   */
  int firstRestartAtOrAfter(Block b) {
    return firstRestartAtOrAfter(b, 0);
  }

  /**
   * {@link #firstRestartAtOrAfter(Block)} searching from restart point {@code from} on: correct
   * when every restart point before {@code from} sorts below the target, as when {@code from} is
   * where the search for an earlier target ended (a batch's keys in order). In an index block that
   * keeps row heads ({@link Block#rowHeads}) it compares longs, and the keys' bytes only on a tie.
   */
  public int firstRestartAtOrAfter(Block b, int from) {
    int placed = placeRow(b, from);
    if (placed >= 0) {
      return placed;
    }
    boolean byHeads = placed == BY_HEADS;
    long head = byHeads ? rowHead(b) : 0;
    int lo = from;
    int hi = b.restartCount;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if ((byHeads ? compareRestartHead(b, mid, head) : compareRestartKey(b, mid)) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * The first step of {@link #firstRestartAtOrAfter(Block, int)} in index block {@code b}: its
   * answer when the block's shared row prefix ({@link Block#sharedRow}) alone decides it ({@code
   * from} for a target row below that prefix or a proper prefix of it, {@code b.restartCount} for
   * one above), else how to compare: {@link #BY_HEADS} or, in a block without row heads, {@link
   * #BY_KEYS}.
   */
  public int placeRow(Block b, int from) {
    if (b.rowHeads == null) {
      return BY_KEYS;
    }
    int side = RowPrefix.sideOfShared(row, b.sharedRow);
    return side < 0 ? from : side > 0 ? b.restartCount : BY_HEADS;
  }

  /** The target row's head in {@code b}: its 8 bytes after the shared prefix ({@link #placeRow} said {@link #BY_HEADS}). */
  public long rowHead(Block b) {
    return RowPrefix.after(row, b.sharedRow.length);
  }

  /**
   * {@link #compareRestartKey} by row heads: {@code head} ({@link #rowHead}) against the head of
   * restart key {@code i}, one long in an array of a few cache lines; the keys' bytes only on a tie.
   */
  public int compareRestartHead(Block b, int i, long head) {
    int c = Long.compareUnsigned(head, b.rowHeads[i]);
    return c != 0 ? c : compareRestartKey(b, i);
  }

  /** Where the value of the entry at restart point {@code i} of {@code b} starts. */
  public static int restartValueOffset(Block b, int i) {
    long key = restartKey(b, i);
    return (int) (key >>> 32) + (int) key;
  }

  /**
   * The whole key stored at restart point {@code i} of {@code b}: its offset in {@code b.data} in the
   * high 32 bits, its length in the low 32 (its value follows it).
   */
  static long restartKey(Block b, int i) {
    byte[] d = b.data;
    int limit = b.restartsOffset;
    long v = Bytes.getVarint31(d, b.restartPoint(i), limit);
    long u = Bytes.getVarint31(d, (int) (v >>> 32), limit);
    long w = Bytes.getVarint31(d, (int) (u >>> 32), limit);
    assert (int) v == 0 && u >= 0 && w >= 0 : "restart entry shares bytes";
    return (w >>> 32) << 32 | (u & 0xffffffffL);
  }

  /**
   * Searches data block {@code b} for the first entry of the cell with sequence {@code <= snapshot}
   * (of kind {@code DELETE_ROW} only, when {@code rowTombstone}; earlier visible entries of other
   * kinds are passed over): {@link #FOUND}, {@link #ABSENT} or {@link #NEXT_BLOCK}. {@code continued}:
   * the search began in an earlier block, so every key of {@code b} lies above the target.
   */
  public int search(Block b, boolean rowTombstone, boolean continued) {
    return scan(b, continued ? 0 : interval(b), rowTombstone);
  }

  /**
   * Where in data block {@code b} the target's entries can start, by binary search over its restart
   * points: the last restart point whose key sorts below the target (the scan's start, high 32
   * bits) and the next one (low 32 bits; from there on every entry sorts at or after the target).
   * {@link #scan} takes it; a batch finds every key's interval before scanning any, so it can
   * {@link Block#touch} them all first.
   */
  public long interval(Block b) {
    if (b.restartCount == 0) {
      return 0;
    }
    BlockBytes d = bytesOf(b);
    int lo = 0;
    int hi = b.restartCount;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareDataRestartKey(b, d, mid) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    int pos = lo == 0 ? 0 : restartPoint(b, d, lo - 1);
    int afterTarget = lo == 0 ? 0 : lo < b.restartCount ? restartPoint(b, d, lo) : b.restartsOffset;
    return (long) pos << 32 | afterTarget;
  }

  /** The block offset of restart point {@code i} of data block {@code b}, read from {@code d}. */
  private static int restartPoint(Block b, BlockBytes d, int i) {
    return d.u32(b.restartsOffset + 4 * i);
  }

  /**
   * {@link #compareRestartKey} in data block {@code b} read through {@code d}: {@link
   * KeyCodec#compare} of the target (row, column, snapshot, PUT) with the key stored whole at
   * restart point {@code i}.
   */
  private int compareDataRestartKey(Block b, BlockBytes d, int i) {
    int limit = b.restartsOffset;
    long v = d.varint31(restartPoint(b, d, i), limit);
    long u = d.varint31((int) (v >>> 32), limit);
    long w = d.varint31((int) (u >>> 32), limit);
    int off = (int) (w >>> 32);
    int len = (int) u;
    int rowLength = (d.get(off) & 0xff) | (d.get(off + 1) & 0xff) << 8;
    int rowStart = off + ROW_LENGTH_BYTES;
    int c = compareBytes(row, d, rowStart, rowLength);
    if (c != 0) {
      return c;
    }
    int columnStart = rowStart + rowLength;
    c = compareBytes(column, d, columnStart, off + len - KEY_TRAILER_BYTES - columnStart);
    if (c != 0) {
      return c;
    }
    long trailer = d.u64(off + len - KEY_TRAILER_BYTES);
    c = Long.compare(trailer >>> 8, snapshot); // sequence descending
    return c != 0 ? c : Integer.compare(ValueKind.PUT.id(), (int) (trailer & 0xff));
  }

  /** {@code a} against the {@code len} bytes at {@code off} of {@code d}, unsigned, a proper prefix first. */
  private static int compareBytes(byte[] a, BlockBytes d, int off, int len) {
    int n = Math.min(a.length, Math.max(len, 0));
    int m = d.mismatch(off, a, 0, n);
    if (m >= 0 && m < n) {
      return Integer.compare(a[m] & 0xff, d.get(off + m) & 0xff);
    }
    return Integer.compare(a.length, len);
  }

  /**
   * {@link Block#touch} of the bytes {@link #scan} reads from {@code interval}: the restart interval
   * and the start of the entry after it (which ends the scan or is the one sought).
   */
  public static int touch(Block b, long interval) {
    int from = (int) (interval >>> 32);
    int to = Math.min(Math.max((int) interval, from) + Block.CACHE_LINE, b.restartsOffset);
    return b.touch(from, to);
  }

  /**
   * {@link #search} from {@code interval} ({@link #interval} of {@code b}; 0 for a block the search
   * continues into, every key of which lies above the target).
   */
  public int scan(Block b, long interval, boolean rowTombstone) {
    InPlaceBlock p = b.inPlace;
    if (p == null) {
      inPlaceValue = null;
      return scan(b, heapBytes.over(b.data), interval, rowTombstone);
    }
    int found = scan(b, p.bytes(), interval, rowTombstone);
    inPlaceValue = found == FOUND ? p.bytes().copy(valueOffset, valueLength) : null;
    return p.end() ? found : STALE; // after the last read of the block: see InPlaceBlock
  }

  /** {@link #scan} reading the block's bytes from {@code d}. */
  private int scan(Block b, BlockBytes d, long interval, boolean rowTombstone) {
    if (b.restartCount == 0) {
      return NEXT_BLOCK; // only damage makes an empty block
    }
    int pos = (int) (interval >>> 32);
    int afterTarget = (int) interval; // entries from here on sort at or after the target
    int limit = b.restartsOffset;
    int common = 0; // leading bytes the current key has in common with the cell key
    long window = 0; // the current key's bytes at [cellLength, cellLength + 8), byte j at bits 8j
    boolean seenCell = false;
    while (pos < limit) { // each entry's position above the last one's: a torn read ends too
      long v = d.varint31(pos, limit);
      int shared = (int) v;
      long u = d.varint31((int) (v >>> 32), limit);
      int unshared = (int) u;
      long w = d.varint31((int) (u >>> 32), limit);
      if ((v | u | w) < 0) { // only a torn in-place read, which its validation then voids
        assert b.inPlace != null : "unverified block at " + b.fileOffset;
        return ABSENT;
      }
      int p = (int) (w >>> 32);
      int keyLength = shared + unshared;
      if (shared <= common) {
        common = shared + commonWithCellKey(d, p, unshared, shared);
      } // else it differs from the cell key where its predecessor did
      window = window(window, d, p, shared, keyLength);
      if (keyLength == cellLength + KEY_TRAILER_BYTES && common >= cellLength) {
        if (window >>> 8 <= snapshot
            && (!rowTombstone || (window & 0xff) == ValueKind.DELETE_ROW.id())) {
          block = b;
          trailer = window;
          valueOffset = p + unshared;
          valueLength = (int) w;
          return FOUND;
        }
        seenCell = true;
      } else if (seenCell || pos >= afterTarget) {
        return ABSENT;
      }
      pos = p + unshared + (int) w;
    }
    return seenCell ? NEXT_BLOCK : ABSENT;
  }

  /**
   * How many of the {@code n} key bytes stored at {@code d[p]} (key positions {@code from} on) match
   * the encoded cell key {@code rowLength:u16 row column} from position {@code from}; at most to
   * its end.
   */
  private int commonWithCellKey(BlockBytes d, int p, int n, int from) {
    int end = Math.min(cellLength, from + n);
    int j = from;
    for (; j < end && j < ROW_LENGTH_BYTES; j++) { // rowLength, little-endian
      int want = j == 0 ? row.length & 0xff : row.length >>> 8;
      if ((d.get(p + j - from) & 0xff) != want) {
        return j - from;
      }
    }
    int rowEnd = ROW_LENGTH_BYTES + row.length;
    if (j < end && j < rowEnd) {
      int to = Math.min(end, rowEnd);
      int m = d.mismatch(p + j - from, row, j - ROW_LENGTH_BYTES, to - j);
      if (m >= 0) {
        return j - from + m;
      }
      j = to;
    }
    if (j < end) {
      int m = d.mismatch(p + j - from, column, j - rowEnd, end - j);
      if (m >= 0) {
        return j - from + m;
      }
      j = end;
    }
    return j - from;
  }

  /**
   * The key's bytes at positions {@code [cellLength, cellLength + 8)} (those it has): the
   * predecessor's ({@code previous}) below {@code shared}, its own stored bytes at {@code d[p]} from
   * {@code shared} on.
   */
  private long window(long previous, BlockBytes d, int p, int shared, int keyLength) {
    int keep = Math.max(0, Math.min(KEY_TRAILER_BYTES, shared - cellLength));
    long w = keep == KEY_TRAILER_BYTES ? previous : previous & ((1L << (8 * keep)) - 1);
    int end = Math.min(KEY_TRAILER_BYTES, keyLength - cellLength);
    for (int j = keep; j < end; j++) {
      w |= (long) (d.get(p + cellLength + j - shared) & 0xff) << (8 * j);
    }
    return w;
  }

  /** Rebuilds the key of {@code at} in {@link #keyScratch} over its predecessor's; returns its length. */
  private int rebuildKey(byte[] d, IndexEntry at) {
    keyScratch = at.rebuildKey(d, keyScratch, 0);
    return at.shared + at.unshared;
  }

  /** The target (row, column, snapshot, PUT) against the whole key stored at restart point {@code i}. */
  public int compareRestartKey(Block b, int i) {
    long key = restartKey(b, i);
    int off = (int) (key >>> 32);
    int len = (int) key;
    if (b.isCompactIndex()) {
      return CompactIndex.compare(row, column, snapshot, b.data, off, len, CompactIndex.isCellForm(b.data, off + len));
    }
    return KeyCodec.compare(row, column, snapshot, ValueKind.PUT, b.data, off, len);
  }

  /**
   * Moves {@code at} to the first entry of compact index block {@code b} ({@link CompactIndex}) whose
   * key is at or after the target, given {@code r}, the first restart point at or after it ({@link
   * #firstRestartAtOrAfter}): that entry follows restart point {@code r - 1} and is at most restart
   * point {@code r}'s, so a scan from {@code r - 1} rebuilds the keys in between (into a buffer of
   * this search, grown to the longest key seen, so a Get allocates nothing) and compares each. Past
   * the last entry when every key sorts below the target.
   */
  public void seekCompact(Block b, int r, IndexEntry at) {
    assert b.isCompactIndex();
    if (r == 0) {
      at.first(b);
      return;
    }
    int stop = r < b.restartCount ? b.restartPoint(r) : b.restartsOffset;
    at.restart(b, r - 1); // below the target: the base of the next keys only
    rebuildKey(b.data, at);
    while (true) {
      at.next(b);
      if (at.pos >= stop) {
        return;
      }
      int length = rebuildKey(b.data, at);
      if (CompactIndex.compare(row, column, snapshot, keyScratch, 0, length, at.cellForm) <= 0) {
        return;
      }
    }
  }
}
