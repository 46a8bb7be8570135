package dev.strata.sstable.block;

import static dev.strata.sstable.format.SstableFormat.ROW_LENGTH_BYTES;

import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.HeapCost;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.RowPrefix;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A parsed, verified block of entries (a data, index or filter-index block): the payload bytes and
 * the offsets of its restart points. {@link #parse} checks every varint, length and restart point
 * before anything reads the block, so cursors over it only {@code assert}.
 *
 * <p>Immutable, but for each thread's scratch block ({@link OffHeapCopy}), which only its thread
 * sees and which it re-aims ({@link #reaim}) at every off-heap block it copies out for a Get, or
 * lays over one it reads in place ({@link #reaimInPlace}).
 */
public final class Block implements CachedBlock {
  // Not final only for the scratch block's reaim; every other block is never changed.

  /** The payload; entries occupy {@code [0, restartsOffset)}. */
  public byte[] data;

  /** Where the restart array starts: the end of the entries. */
  int restartsOffset;

  /** Restart points. */
  public int restartCount;

  /**
   * Entries in the block, as its parse counted them; -1 for a data block copied back from off the
   * heap ({@link OffHeapCopy}), whose entries nobody counted.
   */
  public int entryCount;

  /** The file the block came from, for messages. */
  Path file;

  /** The block's offset in the file, for messages. */
  public long fileOffset;

  /**
   * Index blocks only (null in every other block): the head of each restart key's row, its 8
   * bytes after {@link #sharedRow} as a {@link RowPrefix}, so that {@link
   * PointSearch#firstRestartAtOrAfter} compares longs in one array of a few cache lines and a key's
   * bytes only on a tie. Why: a binary search over the keys themselves, in an index partition the
   * processor's caches no longer hold, waits for two misses a step, the restart array's slot and
   * then the key it points to (docs/PERFORMANCE.md, "A table's index"). Built once, when the block
   * is parsed into the cache; the rows that share 8 bytes ("key00000...") tie on their first 8,
   * hence the heads after the shared prefix.
   */
  long[] rowHeads;

  /** The prefix all restart keys' rows share, when {@link #rowHeads} is kept. */
  byte[] sharedRow;

  /**
   * What the block was parsed as. The cache names blocks by file offset alone, so a damaged handle
   * can name a cached block of another type: its reader checks this before it searches it.
   */
  final BlockType type;

  /**
   * Set while this block (a thread's scratch block) lies over an off-heap block read in place
   * ({@link InPlaceBlock}): the bytes a search reads are there, and {@link #data} is only the array
   * kept for the thread's next copy. Null in every other block, and once re-aimed.
   */
  InPlaceBlock inPlace;

  /**
   * Set on a block that is re-aimed at block after block ({@link #reusable}: a thread's scratch
   * block, a batch's blocks): such a block is {@link #borrowed}, never the cache's to keep.
   */
  private boolean reusable;

  Block(BlockType type, byte[] data, int restartsOffset, int restartCount, int entryCount, Path file,
      long fileOffset) {
    this.type = type;
    this.data = data;
    this.restartsOffset = restartsOffset;
    this.restartCount = restartCount;
    this.entryCount = entryCount;
    this.file = file;
    this.fileOffset = fileOffset;
  }

  /**
   * Parses and verifies the payload {@code data[0, length)} of a block of {@code type} read from
   * {@code file} at {@code fileOffset}. Data and index keys must be internal keys, filter-index keys
   * cell keys; index and filter-index values must be block handles (compact ones in the index
   * blocks of version 5, {@link CompactIndex}); every entry of an index block but a compact partition
   * must be a restart point.
   */
  public static Block parse(byte[] data, int length, BlockType type, Path file, long fileOffset)
      throws CorruptTableException {
    int entries = verify(data, length, type, file, fileOffset);
    int n = Bytes.getU32(data, length - 4);
    Block block = new Block(type, data, length - 4 - 4 * n, n, entries, file, fileOffset);
    if (type.isIndex() && n > 0) {
      block.keepRowHeads();
    }
    return block;
  }

  /**
   * {@link #parse} of a data block into {@code into}, a block from {@link #reusable} (a thread's
   * scratch block), which then lies over {@code data}: a Get's cache miss parses its block in
   * place of making one ({@link #borrowed}).
   */
  public static Block parseDataInto(Block into, byte[] data, int length, Path file, long fileOffset)
      throws CorruptTableException {
    assert into.type == BlockType.DATA : into.type;
    return parseInto(into, data, length, file, fileOffset);
  }

  /**
   * {@link #parse} into {@code into}, a block from {@link #reusable(BlockType)}, as a block of its
   * type: a Get's index partition miss. Builds no row heads ({@link #rowHeads}): the one search of
   * the miss compares keys, and the cache's copy ({@link #owned}) builds them.
   */
  public static Block parseInto(Block into, byte[] data, int length, Path file, long fileOffset)
      throws CorruptTableException {
    assert into.reusable && into.rowHeads == null : "parsed into a block the cache may keep";
    int entries = verify(data, length, into.type, file, fileOffset);
    into.reaim(data, length, file, fileOffset);
    into.entryCount = entries;
    return into;
  }

  /**
   * Each thread's array for {@link #verify} to rebuild keys in, grown to the longest key it met: a
   * Get's miss parses a block into its scratch block ({@link #parseDataInto}) and then makes
   * nothing of the block's size, so an array per parse would be most of what it allocates.
   */
  private static final ThreadLocal<byte[]> KEY_SCRATCH = ThreadLocal.withInitial(() -> new byte[64]);

  /** Longer keys are rebuilt in an array of the parse's own, so no thread keeps a large one. */
  private static final int MAX_KEPT_KEY_BYTES = 16 << 10;

  /** Checks what {@link #parse} promises of {@code data[0, length)}; returns the entries counted. */
  private static int verify(byte[] data, int length, BlockType type, Path file, long fileOffset)
      throws CorruptTableException {
    assert type == BlockType.DATA || type.isIndex() || type == BlockType.FILTER_INDEX;
    if (length < 4) {
      throw corrupt(file, fileOffset, type, "payload of %d bytes has no restart count", length);
    }
    int n = Bytes.getU32(data, length - 4);
    if (n < 0 || n > (length - 4) / 4) {
      throw corrupt(file, fileOffset, type, "restart count %d does not fit in %d bytes", n, length);
    }
    int restartsOffset = length - 4 - 4 * n;
    if (n == 0 && restartsOffset != 0) {
      throw corrupt(file, fileOffset, type, "%d bytes of entries without a restart point", restartsOffset);
    }
    boolean internalKeys = type != BlockType.FILTER_INDEX;
    boolean compact = type.isCompactIndex();
    int fixedValueLength = type == BlockType.DATA || compact ? -1 : SstableFormat.HANDLE_BYTES;
    long previousEnd = -1; // a compact index: where the previous entry's block ends
    byte[] key = KEY_SCRATCH.get();
    int keyLength = 0;
    int pos = 0;
    int restart = 0;
    int entries = 0;
    while (pos < restartsOffset) {
      boolean isRestart = restart < n && Bytes.getU32(data, restartsOffset + 4 * restart) == pos;
      if (isRestart) {
        restart++;
      } else if (entries == 0 || (restart < n && Bytes.getU32(data, restartsOffset + 4 * restart) < pos)) {
        throw corrupt(file, fileOffset, type, "restart point %d is not at an entry",
            restart < n ? Bytes.getU32(data, restartsOffset + 4 * restart) : 0);
      }
      long v = Bytes.getVarint31(data, pos, restartsOffset);
      int shared = (int) v;
      int p = (int) (v >>> 32);
      long u = v < 0 ? -1 : Bytes.getVarint31(data, p, restartsOffset);
      int unshared = (int) u;
      p = (int) (u >>> 32);
      long w = u < 0 ? -1 : Bytes.getVarint31(data, p, restartsOffset);
      int valueLength = (int) w;
      p = (int) (w >>> 32);
      if (w < 0) {
        throw corrupt(file, fileOffset, type, "bad entry header at block offset %d", pos);
      }
      if (shared > keyLength || (isRestart && shared != 0)) {
        throw corrupt(file, fileOffset, type, "entry at block offset %d shares %d key bytes of %d",
            pos, shared, isRestart ? 0 : keyLength);
      }
      if ((long) p + unshared + valueLength > restartsOffset) {
        throw corrupt(file, fileOffset, type, "entry at block offset %d overruns the block", pos);
      }
      int newKeyLength = shared + unshared;
      if (key.length < newKeyLength) {
        key = Arrays.copyOf(key, Math.max(newKeyLength, key.length * 2));
        if (key.length <= MAX_KEPT_KEY_BYTES) {
          KEY_SCRATCH.set(key);
        }
      }
      System.arraycopy(data, p, key, shared, unshared);
      keyLength = newKeyLength;
      boolean cellKey = !internalKeys;
      if (compact) {
        int valueOffset = p + unshared;
        previousEnd = CompactIndex.checkValue(data, valueOffset, valueLength, isRestart, previousEnd);
        if (previousEnd < 0) {
          throw corrupt(file, fileOffset, type, "malformed handle at block offset %d", pos);
        }
        cellKey = CompactIndex.isCellForm(data, valueOffset);
      }
      boolean validKey = cellKey
          ? KeyCodec.isValidCellKey(key, 0, keyLength)
          : KeyCodec.isValidInternalKey(key, 0, keyLength);
      if (!validKey) {
        throw corrupt(file, fileOffset, type, "malformed key at block offset %d", pos);
      }
      if (fixedValueLength >= 0 && valueLength != fixedValueLength) {
        throw corrupt(file, fileOffset, type, "value of %d bytes at block offset %d, want %d",
            valueLength, pos, fixedValueLength);
      }
      pos = p + unshared + valueLength;
      entries++;
    }
    if (restart != n) {
      throw corrupt(file, fileOffset, type, "restart point %d of %d is not at an entry", restart, n);
    }
    boolean index = type.isIndex();
    if (index && type != BlockType.COMPACT_INDEX_PARTITION && entries != n) {
      // Searched in place by binary search over whole keys: every entry must be a restart point.
      throw corrupt(file, fileOffset, type, "%d entries but %d restart points", entries, n);
    }
    return entries;
  }

  /**
   * Builds {@link #rowHeads} and {@link #sharedRow} of an index block whose every entry is a
   * restart point (so stores its whole key). The keys ascend, and so do their rows: the prefix the
   * first and last rows share is the one all share.
   */
  private void keepRowHeads() {
    int firstRow = (int) (PointSearch.restartKey(this, 0) >>> 32) + ROW_LENGTH_BYTES;
    int shared = sharedRowLength();
    long[] heads = new long[restartCount];
    for (int i = 0; i < heads.length; i++) {
      int key = (int) (PointSearch.restartKey(this, i) >>> 32);
      heads[i] = RowPrefix.of(data, key + ROW_LENGTH_BYTES + shared,
          Math.max(0, Bytes.getU16(data, key) - shared));
    }
    this.sharedRow = Arrays.copyOfRange(data, firstRow, firstRow + shared);
    this.rowHeads = heads;
  }

  /** The length of the row prefix all restart keys share: the first and last rows' ({@link #keepRowHeads}). */
  private int sharedRowLength() {
    int first = (int) (PointSearch.restartKey(this, 0) >>> 32);
    int last = (int) (PointSearch.restartKey(this, restartCount - 1) >>> 32);
    int firstRow = first + ROW_LENGTH_BYTES;
    int lastRow = last + ROW_LENGTH_BYTES;
    int firstLength = Bytes.getU16(data, first);
    int m = Arrays.mismatch(data, firstRow, firstRow + firstLength,
        data, lastRow, lastRow + Bytes.getU16(data, last));
    return m < 0 ? firstLength : m;
  }

  /** Whether {@link #owned} builds row heads: an index block with restart points. */
  private boolean keepsRowHeads() {
    return type.isIndex() && restartCount > 0;
  }

  /** Where the entries end (the restart array starts): a position there stands past the last entry. */
  public int entriesEnd() {
    return restartsOffset;
  }

  /** The type the block was parsed as; a data block copied back from off the heap is {@link BlockType#DATA}. */
  public BlockType type() {
    return type;
  }

  /** Whether this is an index block of version 5 ({@link CompactIndex}): a search ends in {@link PointSearch#seekCompact}. */
  public boolean isCompactIndex() {
    return type.isCompactIndex();
  }

  /** Bytes between the bytes {@link #touch} reads: a cache line on the processors Java runs on. */
  static final int CACHE_LINE = 64;

  /**
   * Reads a byte of every cache line of {@code data[from, to)} and returns them summed (the caller
   * keeps the sum, so the compiler keeps the reads). Why: a search in a block is a chain of
   * dependent reads (each entry's position follows from the previous one's lengths, each restart
   * key's from the restart array), so one search waits for one cache miss at a time. A batch of
   * searches touches, before searching, the bytes each will read: the touches depend on nothing,
   * so the processor has many misses in flight at once, and the searches then find their bytes in
   * its caches.
   */
  public int touch(int from, int to) {
    int sum = 0;
    for (int i = from; i < to; i += CACHE_LINE) {
      sum += data[i];
    }
    return to > from ? sum + data[to - 1] : sum;
  }

  /** {@link #touch} of the restart array and of the first bytes of each restart point's entry. */
  public int touchRestarts() {
    int sum = touch(restartsOffset, restartsOffset + 4 * restartCount);
    for (int i = 0; i < restartCount; i++) {
      sum += data[restartPoint(i)];
    }
    return sum;
  }

  /**
   * {@link #touch} of the entry at restart point {@code i}: its offset in the restart array, then
   * its first bytes (the header and the start of the key a search compares).
   */
  public int touchRestartKey(int i) {
    return data[restartPoint(i)];
  }

  /** What {@link #touchRestartKey} is to a search by row heads: the head of restart point {@code i}. */
  public int touchRowHead(int i) {
    return (int) rowHeads[i];
  }

  /** The block offset of restart point {@code i}. */
  int restartPoint(int i) {
    assert i >= 0 && i < restartCount : "i=" + i + " n=" + restartCount;
    return Bytes.getU32(data, restartsOffset + 4 * i);
  }

  /**
   * This object (three ints, five references, a long, a boolean), its payload array, an index block's row
   * heads and shared row, and nothing for the path, which the table reader shares among all its
   * blocks.
   */
  @Override
  public int sizeBytes() {
    long bytes = sizeOf(data.length);
    if (rowHeads != null) {
      bytes += HeapCost.longArray(rowHeads.length) + HeapCost.byteArray(sharedRow.length);
    }
    return (int) bytes;
  }

  /** A block's own objects over an array of {@code arrayLength} bytes, its row index not built. */
  private static long sizeOf(int arrayLength) {
    return HeapCost.object(3 * 4 + 5 * HeapCost.REFERENCE + 8 + 1) + HeapCost.byteArray(arrayLength);
  }

  @Override
  public int ownedSizeBytes() {
    if (!reusable) {
      return sizeBytes();
    }
    long bytes = sizeOf(payloadLength());
    if (keepsRowHeads()) { // what owned() builds, weighed before it is built
      bytes += HeapCost.longArray(restartCount) + HeapCost.byteArray(sharedRowLength());
    }
    return (int) bytes;
  }

  /** The payload's length: the entries, the restart array and its count. */
  int payloadLength() {
    return restartsOffset + 4 * restartCount + 4;
  }

  /** A data block may be held off the heap: its payload. */
  @Override
  public int offHeapLength() {
    return payloadLength();
  }

  @Override
  public byte[] offHeapBytes() {
    return data;
  }

  /**
   * The block whose verified payload is {@code data[0, length)}, from {@code file} at {@code
   * fileOffset}: its restart array read back from the payload's end, its entries not counted.
   */
  static Block ofVerified(byte[] data, int length, Path file, long fileOffset) {
    return ofVerified(data, length, BlockType.DATA, file, fileOffset);
  }

  /** {@link #ofVerified(byte[], int, Path, long)} for a block of {@code type}: an index partition held off the heap. */
  static Block ofVerified(byte[] data, int length, BlockType type, Path file, long fileOffset) {
    Block b = new Block(type, null, 0, 0, -1, null, 0);
    b.reaim(data, length, file, fileOffset);
    return b;
  }

  /**
   * This verified block's payload copied into {@code into}, a {@link #reusable} block of its type
   * whose array is reused (a larger one made when it is too small): a batch keeps a block it read
   * in its thread's buffers, which the thread's next read reuses, in a block of the batch's own.
   */
  public Block copyInto(Block into) {
    assert into.reusable && into.type == type : "copied into a block the cache may keep";
    int length = payloadLength();
    byte[] bytes = into.data.length >= length ? into.data : new byte[Math.max(length, 2 * into.data.length)];
    System.arraycopy(data, 0, bytes, 0, length);
    into.reaim(bytes, length, file, fileOffset);
    into.entryCount = entryCount;
    return into;
  }

  /** An empty block to re-aim ({@link #reaim}, {@link #parseDataInto}): {@link #borrowed}. */
  static Block reusable() {
    return reusable(BlockType.DATA);
  }

  /** An empty block of {@code type} to re-aim ({@link #parseInto}): {@link #borrowed}. */
  public static Block reusable(BlockType type) {
    Block b = new Block(type, null, 0, 0, -1, null, 0);
    b.reaim(new byte[4], 4, null, 0);
    b.reusable = true;
    return b;
  }

  /** Whether this is a {@link #reusable} block, whose array its thread reuses. */
  @Override
  public boolean borrowed() {
    return reusable;
  }

  /** This block, or for a {@link #reusable} one a copy with an array of its own of just the payload. */
  @Override
  public Block owned() {
    if (!reusable) {
      return this;
    }
    int length = payloadLength();
    Block copy = new Block(type, Arrays.copyOf(data, length), restartsOffset, restartCount, entryCount, file, fileOffset);
    if (keepsRowHeads()) {
      copy.keepRowHeads();
    }
    return copy;
  }

  /** Makes this (a thread's scratch block) the block {@link #ofVerified} would make. */
  void reaim(byte[] data, int length, Path file, long fileOffset) {
    int n = Bytes.getU32(data, length - 4);
    this.inPlace = null;
    this.data = data;
    this.restartsOffset = length - 4 - 4 * n;
    this.restartCount = n;
    this.entryCount = -1;
    this.file = file;
    this.fileOffset = fileOffset;
  }

  /**
   * Makes this (a thread's scratch block) lie over {@code source}'s bytes, {@code length} of them
   * ending in {@code restarts} restart points ({@code 4 * restarts <= length - 4}); its array is
   * kept for the next copy.
   */
  void reaimInPlace(InPlaceBlock source, int length, int restarts, Path file, long fileOffset) {
    assert reusable : "a block the cache may keep, over bytes it may reuse";
    this.inPlace = source;
    this.restartsOffset = length - 4 - 4 * restarts;
    this.restartCount = restarts;
    this.entryCount = -1;
    this.file = file;
    this.fileOffset = fileOffset;
  }

  private static CorruptTableException corrupt(
      Path file, long fileOffset, BlockType type, String fmt, Object... args) {
    return new CorruptTableException(file, fileOffset, type + " block: " + fmt, args);
  }
}
