package dev.strata.sstable;

import static dev.strata.sstable.format.SstableFormat.BLOCK_TRAILER_BYTES;
import static dev.strata.sstable.format.SstableFormat.FOOTER_BYTES;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.OffHeapCopy;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.io.BulkBuffers;
import dev.strata.sstable.io.BulkReadahead;
import dev.strata.sstable.io.TableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Brings one table's blocks to its readers: from the file, checked ({@link StoredBlocks}), or
 * through the block cache under the key (file number, offset), where concurrent misses of one block
 * load it once ({@link BlockCache#getOrLoad}); from a cache that copies what it keeps, a data block
 * or index partition missed is read by its reader and offered to the cache instead ({@link
 * MissReads}). Counts every fetch into
 * the table's {@link ReadCounters} as a cache hit or a block read, and a read done by the open as
 * the open's. Copies a data block the cache holds off the heap back into a {@link Block} ({@link
 * OffHeapCopy}). Holds the keys it pinned in the cache, which {@link #unpinAll} releases when the
 * table closes.
 *
 * <p>Thread-safe: the file reads positionally, the cache is thread-safe, and the pin list is
 * written at open, before the reader is published, and at close.
 */
final class BlockFetcher {
  private final Path path;
  private final long fileNumber;
  private final TableFile file;
  private final long fileSize;
  private final int bulkReadaheadBytes;
  private final BlockCache cache;
  private final ReadCounters counters;
  /** The misses read past the cache's single flight, for a cache that copies what it keeps. */
  private final MissReads misses;
  /** The cache keys this table pinned at open, unpinned at close; empty when it pins nothing. */
  private final List<BlockCacheKey> pinned = new ArrayList<>();
  /**
   * The file's bytes from {@link #tailStart} to its end while the open reads its footer and the
   * blocks it keeps ({@link #readTail}); null before and after. Written by the opening thread
   * before the reader is published.
   */
  private byte[] tail;
  private long tailStart;

  BlockFetcher(Path path, long fileNumber, TableFile file, long fileSize, int bulkReadaheadBytes,
      BlockCache cache, ReadCounters counters) {
    this.path = path;
    this.fileNumber = fileNumber;
    this.file = file;
    this.fileSize = fileSize;
    this.bulkReadaheadBytes = bulkReadaheadBytes;
    this.cache = cache;
    this.counters = counters;
    this.misses = new MissReads(file, path, fileNumber, cache, counters);
  }

  /** The cache key of this table's block at {@code offset}. */
  BlockCacheKey key(long offset) {
    return new BlockCacheKey(fileNumber, offset);
  }

  /** Whether this table's blocks share one cache with {@code other}'s. */
  boolean sharesCacheWith(BlockFetcher other) {
    return cache == other.cache;
  }

  // ---- from the file, checked, past the cache ---------------------------------------------------

  /**
   * Reads the file's last {@code guess} bytes (all of a smaller file) in one read, for the open:
   * until {@link #dropTail}, the footer and the blocks within them come from memory. A table's
   * footer, properties, filter index and index root lie together at its end (FORMAT.md), so one
   * read serves them all where reading each took a read, and a device round trip when cold.
   */
  void readTail(int guess) throws IOException {
    if (fileSize < FOOTER_BYTES) {
      throw new CorruptTableException(path, 0, "file of %d bytes is shorter than a footer", fileSize);
    }
    int n = (int) Math.min(fileSize, Math.max(guess, FOOTER_BYTES));
    tailStart = fileSize - n;
    tail = StoredBlocks.readFully(file, path, tailStart, n);
  }

  /**
   * Extends the tail back to {@code from} with one more read when it does not reach it: the
   * footer's handles say where the blocks the open reads begin, and a table whose filter index
   * or index root is larger than the guess needs the rest.
   */
  void coverTail(long from) throws IOException {
    if (tail == null || from >= tailStart || from < 0) {
      return;
    }
    byte[] front = StoredBlocks.readFully(file, path, from, (int) (tailStart - from));
    byte[] joined = new byte[front.length + tail.length];
    System.arraycopy(front, 0, joined, 0, front.length);
    System.arraycopy(tail, 0, joined, front.length, tail.length);
    tail = joined;
    tailStart = from;
  }

  /**
   * Fills {@code into} (from its position to its limit) with the file's bytes from {@code from} on:
   * the part the open's tail holds copied from it, the rest in one read straight into {@code into}
   * (direct memory: no heap array of the bytes). Its position and limit are left as they were.
   */
  void readInto(long from, ByteBuffer into) throws IOException {
    int length = into.remaining();
    byte[] t = tail;
    // The tail runs to the end of the file, so the bytes before it come from the file, the rest from it.
    int fromFile = t == null ? length : (int) Math.max(0, Math.min(length, tailStart - from));
    if (fromFile < length) {
      into.put(into.position() + fromFile, t, (int) (from + fromFile - tailStart), length - fromFile);
    }
    if (fromFile > 0) {
      file.readFully(from, into.slice(into.position(), fromFile));
    }
  }

  /** The table's file, for messages. */
  Path path() {
    return path;
  }

  /** Reads the file has served so far, the open's included; for tests. */
  long fileReads() {
    return file.reads();
  }

  /** Forgets the tail: reads go to the file again. */
  void dropTail() {
    tail = null;
  }

  /** {@code length} bytes at {@code offset}: from the tail when it holds them, else from the file. */
  private byte[] stored(long offset, int length) throws IOException {
    byte[] t = tail;
    int from = inTail(t, offset, length);
    if (from >= 0) {
      return Arrays.copyOfRange(t, from, from + length);
    }
    return StoredBlocks.readFully(file, path, offset, length);
  }

  /** Where the file's bytes [offset, offset + length) lie in {@code t}, the tail, or -1 when not all there. */
  private int inTail(byte[] t, long offset, int length) {
    return t != null && offset >= tailStart && offset + length <= tailStart + t.length
        ? (int) (offset - tailStart)
        : -1;
  }

  private byte[] stored(BlockHandle h) throws IOException {
    return stored(h.offset(), h.length() + BLOCK_TRAILER_BYTES);
  }

  /** The footer, checked; its handles lie before it. */
  Footer readFooter() throws IOException {
    if (fileSize < FOOTER_BYTES) {
      throw new CorruptTableException(path, 0, "file of %d bytes is shorter than a footer", fileSize);
    }
    long offset = fileSize - FOOTER_BYTES;
    return Footer.decode(stored(offset, FOOTER_BYTES), path, offset);
  }

  /** The properties block at {@code h}, checked and decoded. */
  TableProperties readProperties(BlockHandle h) throws IOException {
    byte[] raw = stored(h);
    byte[] payload = StoredBlocks.payload(raw, path, h, BlockType.PROPERTIES);
    return TableProperties.decode(payload, StoredBlocks.payloadLength(raw, payload, h), path, h.offset());
  }

  /** The entries block at {@code h}, read (from the tail while the open holds one) and checked. */
  Block readBlock(BlockHandle h, BlockType type) throws IOException {
    return StoredBlocks.parseBlock(stored(h), path, h, type);
  }

  /**
   * The filter block at {@code h} of a table of {@code formatVersion} (which says whether the
   * payload ends with its filter kind), read from the file and checked.
   */
  FilterChunk readFilter(BlockHandle h, BlockType type, int formatVersion) throws IOException {
    byte[] t = tail;
    int at = inTail(t, h.offset(), h.length() + BLOCK_TRAILER_BYTES);
    if (at >= 0) {
      return StoredBlocks.decodeFilter(t, at, path, h, type, formatVersion);
    }
    return StoredBlocks.decodeFilter(stored(h), path, h, type, formatVersion);
  }

  /**
   * The handle stored as the value at {@code valueOffset} of {@code block}; one outside the file is
   * corruption ({@code what} names the block it points to).
   */
  BlockHandle handleIn(Block block, int valueOffset, String what) throws CorruptTableException {
    BlockHandle h = BlockHandle.decodeOrNull(block.data, valueOffset, fileSize - FOOTER_BYTES);
    if (h == null) {
      throw new CorruptTableException(path, block.fileOffset, "%s handle lies outside the file", what);
    }
    return h;
  }

  // ---- through the cache --------------------------------------------------------------------------

  /** Takes {@code h}'s block from the cache under {@code key}, or loads it there; counts which. */
  <T extends CachedBlock> T fetch(BlockCacheKey key, BlockHandle h, BlockKind kind, BlockCache.Loader<T> loader)
      throws IOException {
    CountingLoader<T> counting = new CountingLoader<>(loader);
    T block = cache.getOrLoad(key, kind, counting);
    count(counting.ran(), false, kind, h);
    return block;
  }

  /** {@link #fetch}, done by the open: a read counts its bytes as the open's. */
  <T extends CachedBlock> T fetchAtOpen(BlockCacheKey key, BlockHandle h, BlockKind kind,
      BlockCache.Loader<T> loader) throws IOException {
    CountingLoader<T> counting = new CountingLoader<>(loader);
    T block = cache.getOrLoad(key, kind, counting);
    count(counting.ran(), true, kind, h);
    return block;
  }

  /**
   * Takes {@code h}'s block into the cache pinned ({@link BlockCache#getOrLoadPinned}), loading it
   * if needed, and remembers its key for {@link #unpinAll}. Only the open pins, so a read counts as
   * the open's.
   */
  <T extends CachedBlock> void pin(BlockCacheKey key, BlockHandle h, BlockKind kind, BlockCache.Loader<T> loader)
      throws IOException {
    CountingLoader<T> counting = new CountingLoader<>(loader);
    cache.getOrLoadPinned(key, kind, counting);
    synchronized (pinned) {
      pinned.add(key);
    }
    count(counting.ran(), true, kind, h);
  }

  /** Drops every pin {@link #pin} took. Idempotent. */
  void unpinAll() {
    synchronized (pinned) {
      for (BlockCacheKey key : pinned) {
        cache.unpin(key);
      }
      pinned.clear();
    }
  }

  /** How many blocks this table holds pinned. */
  int pinnedCount() {
    synchronized (pinned) {
      return pinned.size();
    }
  }

  /** Whether pinning can hold anything: a cache of capacity 0 holds nothing. */
  boolean canPin() {
    return cache.capacityBytes() > 0;
  }

  /**
   * The entries block whose handle is the value at {@code valueOffset} of {@code index}, through
   * the cache under {@code key} (looked up as two longs when null): a hit makes no key, handle or
   * loader. A data block the cache holds off the heap is copied back, into this thread's scratch
   * block when {@code scratch} (valid until the thread's next scratch copy), else into a new one. A
   * miss is read and offered to the cache ({@link MissReads}, with {@code scratch} into this thread's
   * buffers), or, from a cache that keeps what its loaders return, loaded through it.
   */
  Block blockAt(Block index, int valueOffset, BlockCacheKey key, BlockKind kind, BlockType type,
      String what, boolean scratch) throws IOException {
    long offset = key != null ? key.offset() : Bytes.getU64(index.data, valueOffset);
    Block b = cachedOnHeap(key, offset, kind, type, scratch);
    if (b != null) {
      return b;
    }
    if (cache.takesBorrowedBlocks()) {
      int length = BlockHandle.lengthAt(index.data, valueOffset);
      if (!BlockHandle.fits(offset, length, fileSize - FOOTER_BYTES)) {
        throw new CorruptTableException(path, index.fileOffset, "%s handle lies outside the file", what);
      }
      return misses.read(offset, length, kind, type, scratch);
    }
    return load(handleIn(index, valueOffset, what), key, kind, type, scratch);
  }

  /**
   * {@link #blockAt(Block, int, BlockCacheKey, BlockKind, BlockType, String, boolean)} for a handle
   * decoded from a compact index ({@code offset}, {@code length}): one outside the file is corruption.
   */
  Block blockAt(long offset, int length, BlockCacheKey key, BlockKind kind, BlockType type, String what,
      boolean scratch) throws IOException {
    Block b = cachedOnHeap(key, offset, kind, type, scratch);
    if (b != null) {
      return b;
    }
    if (cache.takesBorrowedBlocks()) {
      checkCompactHandle(offset, length, what);
      return misses.read(offset, length, kind, type, scratch);
    }
    return load(handleOf(offset, length, what), key, kind, type, scratch);
  }

  /** The handle (offset, length) decoded from a compact index; one outside the file is corruption. */
  BlockHandle handleOf(long offset, int length, String what) throws CorruptTableException {
    checkCompactHandle(offset, length, what);
    return new BlockHandle(offset, length);
  }

  private void checkCompactHandle(long offset, int length, String what) throws CorruptTableException {
    if (!BlockHandle.fits(offset, length, fileSize - FOOTER_BYTES)) {
      throw new CorruptTableException(path, offset, "%s handle (%d, %d) lies outside the file", what, offset, length);
    }
  }

  /**
   * The data block (offset, length), a batch's: from the cache, or a miss read in this thread's
   * buffers, offered to the cache and kept in {@code into}, the batch's reusable block ({@link
   * MissReads#readInto}). One the cache holds off the heap is copied into a block of its own (the
   * batch found it absent a moment before: rare).
   */
  Block dataBlockInto(long offset, int length, Block into) throws IOException {
    Block b = cachedOnHeap(null, offset, BlockKind.DATA, BlockType.DATA, false);
    if (b != null) {
      return b;
    }
    checkCompactHandle(offset, length, "data block");
    return cache.takesBorrowedBlocks()
        ? misses.readInto(offset, length, into)
        : load(new BlockHandle(offset, length), null, BlockKind.DATA, BlockType.DATA, false);
  }

  /** The block at {@code offset} when the cache holds it (a hit, counted; no key made when {@code key} is null), else null. */
  private Block cachedOnHeap(BlockCacheKey key, long offset, BlockKind kind, BlockType type, boolean scratch)
      throws CorruptTableException {
    CachedBlock hit = key != null
        ? cache.getIfPresent(key, kind)
        : cache.getIfPresent(fileNumber, offset, kind, OffHeapCopy.lookupView()); // no key, no view made
    Block b = hit == null ? null : onHeap(hit, scratch, offset, type);
    if (b != null) {
      counters.countHit(kind);
    }
    return b;
  }

  /** A miss of {@link #blockAt} from a cache keeping what its loaders return (and a cursor's partition). */
  Block load(BlockHandle h, BlockCacheKey key, BlockKind kind, BlockType type, boolean scratch)
      throws IOException {
    BlockCacheKey k = key != null ? key : key(h.offset());
    BlockCache.Loader<Block> loader = () -> readBlock(h, type);
    while (true) { // fetched again in the rare case that the cache released it before the copy
      CachedBlock cached = fetch(k, h, kind, loader);
      Block b = onHeap(cached, scratch, k.offset(), type);
      if (b != null) {
        return b;
      }
    }
  }

  /**
   * The data block whose handle is the value at {@code valueOffset} of {@code index}, through the
   * cache, in an array of its own that the caller (a cursor) may keep.
   */
  Block dataBlock(Block index, int valueOffset) throws IOException {
    return blockAt(index, valueOffset, null, BlockKind.DATA, BlockType.DATA, "data block", false);
  }

  /**
   * The data block whose handle is the value at {@code valueOffset} of {@code index}, read from the
   * file past the cache through {@code readahead} into {@code buffers}, counted into {@code bulk}:
   * the block lives only until the next one is read into the same buffers.
   */
  Block dataBlockUncached(Block index, int valueOffset, ReadCounters bulk, BulkBuffers buffers,
      BulkReadahead readahead) throws IOException {
    BlockHandle h = handleIn(index, valueOffset, "data block");
    int storedLength = h.length() + BLOCK_TRAILER_BYTES;
    byte[] raw = buffers.stored(storedLength);
    readahead.readFully(h.offset(), raw, storedLength);
    byte[] payload = StoredBlocks.payload(raw, path, h, BlockType.DATA, buffers);
    Block block = Block.parse(payload, StoredBlocks.payloadLength(raw, payload, h), BlockType.DATA, path, h.offset());
    bulk.countRead(BlockKind.DATA, h.storedLength());
    return block;
  }

  /**
   * {@code cached}, this table's off-heap block at {@code offset}, copied into {@code into} (a
   * batch's reusable block) without a reference, in the caller's section; null when the block went
   * meanwhile. See {@link OffHeapCopy#copyUnreferenced}.
   */
  Block copyUnreferenced(OffHeapBlock cached, Block into, long offset) {
    // An index partition where a data block was sought: a miss, whose load reports it (onHeap).
    return cached.metadata() ? null : OffHeapCopy.copyUnreferenced(cached, into, path, offset);
  }

  /**
   * {@link BlockCache#getAllIfPresent}: the data blocks at {@code offsets[0, n)} of files {@code
   * files[0, n)} (this table's and others sharing its cache) into {@code out}, null where absent,
   * those held off the heap as {@code views[k]}.
   */
  void dataBlocksIfPresent(long[] files, long[] offsets, int n, CachedBlock[] out, OffHeapBlock[] views) {
    cache.getAllIfPresent(files, offsets, n, BlockKind.DATA, out, views);
  }

  /** The file's length in bytes. */
  long fileSize() {
    return fileSize;
  }

  /** The file number the cache knows this table's blocks by. */
  long fileNumber() {
    return fileNumber;
  }

  /** A read-ahead window for one bulk pass over the file. */
  BulkReadahead bulkReadahead() {
    return new BulkReadahead(file, fileSize, bulkReadaheadBytes);
  }

  boolean readsDirect() {
    return file.readsDirect();
  }

  void closeFile() throws IOException {
    file.close();
  }

  /** {@code held}, index partition {@code offset} of {@code type}, copied into {@code into}; null when it went. */
  Block partitionInto(OffHeapBlock held, Block into, long offset, BlockType type) {
    return OffHeapCopy.partitionToHeap(held, into, type, path, offset);
  }

  /**
   * {@code cached}, the block at {@code offset}, as a block of {@code type} on the heap: itself, or
   * the copy of an off-heap block (with {@code scratch}, a partition's into this thread's reusable
   * partition); null when that was evicted and released before a reference was taken.
   */
  Block onHeap(CachedBlock cached, boolean scratch, long offset, BlockType type)
      throws CorruptTableException {
    if (cached instanceof OffHeapBlock o) {
      if (o.metadata() != (type == BlockType.INDEX_PARTITION || type == BlockType.COMPACT_INDEX_PARTITION)) {
        throw namesOtherBlock(offset, kindOf(cached), type);
      }
      return o.metadata()
          ? OffHeapCopy.partitionToHeap(o, scratch ? MissReads.partitionScratch(type) : null, type, path, offset)
          : OffHeapCopy.toHeap(o, scratch, path, offset);
    }
    return asEntries(cached, offset, type);
  }

  /**
   * {@code cached}, the block the cache holds at {@code offset}, as an entries block of {@code
   * type}. The cache keys blocks by offset alone, so a block of another type there means a damaged
   * handle named that block's offset: searching it under the wrong rules could read past its
   * entries, so it is corruption.
   */
  Block asEntries(CachedBlock cached, long offset, BlockType type) throws CorruptTableException {
    if (cached instanceof Block b && b.type() == type) {
      return b;
    }
    throw namesOtherBlock(offset, kindOf(cached), type);
  }

  /** What {@code cached} is, for a message: an entries block's type, an off-heap data block, a filter. */
  private static String kindOf(CachedBlock cached) {
    if (cached instanceof Block b) {
      return "a " + b.type() + " block";
    }
    return cached instanceof OffHeapBlock o ? (o.metadata() ? "an index partition" : "a data block") : "a filter block";
  }

  private CorruptTableException namesOtherBlock(long offset, String found, BlockType want) {
    return new CorruptTableException(path, offset, "a handle of a %s block names %s at offset %d", want, found, offset);
  }

  /** Counts a fetch of {@code h}: a read when its loader {@code ran} (the open's when {@code atOpen}), else a hit. */
  private void count(boolean ran, boolean atOpen, BlockKind kind, BlockHandle h) {
    if (ran && atOpen) {
      counters.countRead(kind, 0);
      counters.countReadAtOpen(h.storedLength());
    } else if (ran) {
      counters.countRead(kind, h.storedLength());
    } else {
      counters.countHit(kind);
    }
  }
}
