package dev.strata.sstable;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.EntryCursor;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.CompactIndex;
import dev.strata.sstable.block.IndexEntry;
import dev.strata.sstable.block.PointSearch;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.index.IndexCursor;
import java.io.IOException;

/**
 * One table's index: which data block can hold a key. A table's index of version 3 or later has two levels:
 * the top level, held here from the open, names index partitions of about a block each, which come
 * through the block cache as index metadata (a hit by the cache entry kept for each, {@link
 * KeptEntries}). Older tables have one index block, through the cache. In versions 1 to 4 every
 * index entry is a restart point (the block parser refuses an index block with entries between
 * them), so a search binary-searches the entries' keys in place ({@link PointSearch}), without a
 * cursor. A version-5 partition ({@link CompactIndex}) restarts every few entries: the same binary
 * search over its restart points, then {@link PointSearch#seekCompact} rebuilds the few keys after
 * one in a buffer of the search, and the position keeps the decoded handle ({@link IndexEntry}).
 *
 * <p>A point lookup {@link #locate}s its key ({@link Position}), then reads the data block there
 * ({@link #dataBlock}) and on through the next ones ({@link #skipEndedPartitions}). A batch finds
 * its keys' partitions together first ({@link #findPartitions}). Iterators use a {@link #cursor}.
 *
 * <p>Thread-safe: the top level is immutable, the kept entries safe to race on; a {@link Position}
 * belongs to its caller.
 */
final class IndexReader {
  /** The handle and cache key of the index block: the top level, or the one index block. */
  private final BlockHandle root;
  private final BlockCacheKey rootKey;
  /** The top level of a two-level index; null for the one-level index of older tables. */
  private final Block topIndex;
  /** How many partitions the top level names; 0 for a one-level index. */
  private final int partitionCount;
  /** Whether the index is of version 5: compact blocks ({@link CompactIndex}) at both levels. */
  private final boolean compact;
  /** The block type of the partitions. */
  private final BlockType partitionType;
  /** The cache key of each partition, made once, and the cache entry last found for it. */
  private final KeptEntries partitions;
  private final BlockFetcher fetcher;
  private final BlockCache cache;
  private final ReadCounters counters;

  /** The index whose block lies at {@code root}: {@code topIndex} when it has two levels, else null. */
  IndexReader(BlockHandle root, Block topIndex, BlockFetcher fetcher, BlockCache cache, ReadCounters counters) {
    this.root = root;
    this.rootKey = fetcher.key(root.offset());
    this.topIndex = topIndex;
    this.partitionCount = topIndex == null ? 0 : topIndex.restartCount;
    this.compact = topIndex != null && topIndex.isCompactIndex();
    this.partitionType = compact ? BlockType.COMPACT_INDEX_PARTITION : BlockType.INDEX_PARTITION;
    this.fetcher = fetcher;
    this.cache = cache;
    this.counters = counters;
    BlockCacheKey[] keys = new BlockCacheKey[partitionCount];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = fetcher.key(partitionOffset(i));
    }
    this.partitions = new KeptEntries(cache, BlockKind.INDEX, keys);
  }

  /** Payload bytes of the index block an open reads whole: the top level, or the one index block. */
  long rootBytes() {
    return root.length();
  }

  /** Heap bytes of the top level held here (0 for a one-level index, which the cache holds). */
  long topLevelBytes() {
    return topIndex == null ? 0 : topIndex.sizeBytes();
  }

  /** Heap bytes held outside the block cache: the top level and the partitions' kept entries. */
  long heapBytes() {
    return topLevelBytes() + partitions.heapBytes();
  }

  /** The open of a one-level index: loads its block into the cache, counted as the open's read. */
  void loadAtOpen() throws IOException {
    if (topIndex == null) {
      fetcher.fetchAtOpen(rootKey, root, BlockKind.INDEX, () -> fetcher.readBlock(root, BlockType.INDEX));
    }
  }

  /** Loads every partition (or the one index block) into the cache pinned. */
  void pinAll() throws IOException {
    if (topIndex == null) {
      fetcher.pin(rootKey, root, BlockKind.INDEX, () -> fetcher.readBlock(root, BlockType.INDEX));
      return;
    }
    for (int i = 0; i < partitionCount; i++) {
      int value = PointSearch.restartValueOffset(topIndex, i);
      BlockHandle h = compact
          ? fetcher.handleOf(partitionOffset(i), CompactIndex.length(topIndex.data, value, topIndex.entriesEnd()),
              "index partition")
          : fetcher.handleIn(topIndex, value, "index partition");
      fetcher.pin(partitions.key(i), h, BlockKind.INDEX, () -> fetcher.readBlock(h, partitionType));
    }
  }

  /** The file offset of partition {@code i} (top-level entry {@code i}), unchecked: a cache key's. */
  private long partitionOffset(int i) {
    int value = PointSearch.restartValueOffset(topIndex, i);
    return compact
        ? CompactIndex.storedOffset(topIndex.data, value, topIndex.entriesEnd())
        : Bytes.getU64(topIndex.data, value);
  }

  /** A new cursor over the index entries, whatever the index's shape; blocks come through the cache. */
  IndexCursor cursor() throws IOException {
    return topIndex == null
        ? IndexCursor.oneLevel(oneLevelBlock())
        : IndexCursor.twoLevel(topIndex, this::partitionNamedBy);
  }

  /** The one index block of a version 1 or 2 table, through the cache. */
  private Block oneLevelBlock() throws IOException {
    CachedBlock b = fetcher.fetch(rootKey, root, BlockKind.INDEX, () -> fetcher.readBlock(root, BlockType.INDEX));
    return fetcher.asEntries(b, root.offset(), BlockType.INDEX);
  }

  /** The partition the top-level entry {@code top} stands on names, through the cache. */
  private Block partitionNamedBy(EntryCursor top) throws IOException {
    BlockHandle h = fetcher.handleIn(top.block(), top.valueOffset(), "index partition");
    return fetcher.load(h, fetcher.key(h.offset()), BlockKind.INDEX, partitionType, false); // one it may keep
  }

  /**
   * Partition {@code i} (top-level entry {@code i}), through the cache as index metadata. With
   * {@code copies} null, a miss, or a hit the cache holds off the heap, lies in this thread's
   * reusable partition, valid until the thread's next partition: for a lookup that is done with it
   * before it reads another (a Get). Else, for one that holds it (a batch), a hit off the heap is
   * copied into one of {@code copies} and a miss read into a block of its own.
   */
  Block partition(int i, PartitionCopies copies) throws IOException {
    boolean scratch = copies == null;
    CachedBlock cached = partitions.cached(i);
    if (cached instanceof Block kept && kept.type() == partitionType) { // else a damaged handle, found below
      counters.countHit(BlockKind.INDEX);
      return kept;
    }
    if (cached instanceof OffHeapBlock held && held.metadata()) { // else a damaged handle, found below
      long offset = partitions.key(i).offset();
      Block b = scratch
          ? fetcher.onHeap(held, true, offset, partitionType)
          : fetcher.partitionInto(held, copies.next(partitionType), offset, partitionType);
      if (b != null) {
        counters.countHit(BlockKind.INDEX);
        return b;
      }
    }
    int value = PointSearch.restartValueOffset(topIndex, i);
    return compact
        ? fetcher.blockAt(partitions.key(i).offset(), CompactIndex.length(topIndex.data, value, topIndex.entriesEnd()),
            partitions.key(i), BlockKind.INDEX, partitionType, "index partition", scratch)
        : fetcher.blockAt(topIndex, value, partitions.key(i), BlockKind.INDEX, partitionType, "index partition", scratch);
  }

  // ---- a point lookup -----------------------------------------------------------------------------

  /**
   * Moves {@code at} to the index entry naming the data block where the target of {@code search}
   * starts (it may stand just past its index block's last entry, which {@link #skipEndedPartitions}
   * resolves); false when every key of the table sorts below the target. Searches from {@code at},
   * which must be reset or where the search of a smaller target ended (a batch's keys in order).
   * A partition is read as {@link #partition} reads it with {@code copies}: a Get's (null) lies in
   * its thread's reusable partition, which a reset {@code at} never takes for the one it held.
   */
  boolean locate(PointSearch search, Position at, PartitionCopies copies) throws IOException {
    Block previous = at.index;
    int top = 0;
    Block index;
    if (topIndex == null) {
      index = oneLevelBlock();
    } else {
      top = partitionOf(search, at.top);
      if (top == partitionCount) {
        return false;
      }
      index = at.index != null && at.top == top ? at.index : partition(top, copies);
    }
    at.top = top;
    at.index = index;
    int r = search.firstRestartAtOrAfter(index, index == previous ? at.from : 0);
    if (index.isCompactIndex()) {
      search.seekCompact(index, r, at.compact);
      at.entry = at.compact.pos();
      at.from = Math.max(r - 1, 0); // every restart point before it sorts below this target
    } else {
      at.entry = r;
      at.from = r;
    }
    return true;
  }

  /**
   * The partition holding the first index entry at or after {@code search}'s target, sought from
   * top-level entry {@code from} on (where a smaller target's search ended, or 0); {@link
   * #partitionCount} when every key of the table sorts below the target. A partition's top-level
   * key is its last key, so the first at or after the target names the partition.
   */
  private int partitionOf(PointSearch search, int from) {
    return search.firstRestartAtOrAfter(topIndex, from);
  }

  /**
   * Moves {@code at}, if it stands past its index block's last entry, to the first entry of the
   * next partition (read as {@link #partition} reads it with {@code copies}); false past the table's
   * last entry.
   */
  boolean skipEndedPartitions(Position at, PartitionCopies copies) throws IOException {
    while (at.pastEnd()) {
      if (topIndex == null || ++at.top == partitionCount) {
        return false;
      }
      at.moveTo(at.top, partition(at.top, copies), 0, -1);
    }
    return true;
  }

  /**
   * The data block {@code at} names, through the cache; one the cache holds off the heap is copied
   * into this thread's scratch block when {@code scratch} (a Get, which copies its value out before
   * it reads another block), else into a block of its own (a batch, which holds its blocks).
   */
  Block dataBlock(Position at, boolean scratch) throws IOException {
    return at.index.isCompactIndex()
        ? fetcher.blockAt(at.compact.dataOffset(), at.compact.dataLength(), null, BlockKind.DATA, BlockType.DATA,
            "data block", scratch)
        : fetcher.blockAt(at.index, PointSearch.restartValueOffset(at.index, at.entry), null,
            BlockKind.DATA, BlockType.DATA, "data block", scratch);
  }

  /**
   * {@link #dataBlock} for a batch: a miss is kept in {@code into}, a reusable block of the batch's
   * ({@link BlockFetcher#dataBlockInto}).
   */
  Block dataBlockInto(Position at, Block into) throws IOException {
    if (at.index.isCompactIndex()) {
      return fetcher.dataBlockInto(at.compact.dataOffset(), at.compact.dataLength(), into);
    }
    int value = PointSearch.restartValueOffset(at.index, at.entry);
    return fetcher.dataBlockInto(Bytes.getU64(at.index.data, value), BlockHandle.lengthAt(at.index.data, value), into);
  }


  // ---- a batch ------------------------------------------------------------------------------------

  /**
   * Whether a batch searches this index in lock step with the other tables' ({@link #findPartitions},
   * then {@link BatchLookup}'s entry search): when its top level names many partitions. A smaller
   * index stays in the processor's caches, where the lock step's extra passes cost more than its
   * overlapped misses save.
   */
  boolean searchesInLockStep() {
    return partitions.many();
  }

  /**
   * The first part of a batch's index stage for this table's run {@code probes[from, to)}, in an
   * index searched in lock step: {@code partition[i]} becomes the partition to search for each
   * probe the filter admitted for its cell, -1 for every other probe and for one past the table's
   * last key. The entries kept for those partitions are touched ({@link KeptEntries#touch}), so
   * that the misses of every table's partitions are in flight together before the batch takes them
   * ({@link #keptPartitionUncounted}). Returns a value computed from the bytes touched.
   */
  int findPartitions(FilterProbe[] probes, int from, int to, long snapshot, Admission[] admitted,
      int[] partition, PointSearch search) {
    int top = 0;
    for (int i = from; i < to; i++) {
      partition[i] = -1;
      if (!admitted[i].cellMaybe()) {
        continue;
      }
      // The search of the next probe, a larger target, starts from this one's partition.
      int p = partitionOf(search.target(probes[i].row(), probes[i].column(), snapshot), top);
      if (p < partitionCount) {
        top = p;
        partition[i] = p;
      }
    }
    // A loop of its own, a few instructions an entry, so that the processor runs ahead into the
    // next entries' loads while the first ones miss (after a search it would not reach them).
    int touched = 0;
    for (int i = from, last = -1; i < to; i++) {
      int p = partition[i];
      if (p >= 0 && p != last) {
        touched += partitions.touch(p);
        last = p;
      }
    }
    return touched;
  }

  /**
   * Partition {@code i} when the entry kept for it still holds it, its hit not counted (the batch
   * counts its hits at once, {@link #countKeptHits}); else null, and the caller takes {@link #partition}.
   */
  Block keptPartitionUncounted(int i) {
    return partitions.keptUncounted(i) instanceof Block kept ? kept : null;
  }

  /** Counts {@code n} hits taken through {@link #keptPartitionUncounted}, in the cache now and through {@code counts}. */
  void countKeptHits(int n, BatchCounts counts) {
    if (n > 0) {
      cache.countHits(BlockKind.INDEX, n);
      counts.hits(counters, BlockKind.INDEX, n);
    }
  }

  /**
   * Where a search stands in the index: top-level entry {@code top}, entry {@code entry} of index
   * block {@code index}. After a search, every entry before it sorts below that search's target, so
   * the search of a larger target (a batch's next key) may start there.
   *
   * <p>Not thread-safe: belongs to one lookup.
   */
  static final class Position {
    private int top;
    /** The index block (partition) the search chose; null before the first. */
    private Block index;
    /** The entry: its restart point in an index of versions 1 to 4, its offset in a compact block. */
    private int entry;
    /** The entry and its decoded handle in a compact block ({@link CompactIndex}). */
    private final IndexEntry compact = new IndexEntry();
    /** The restart point the search of a larger target in the same block may start from. */
    private int from;

    Position reset() {
      top = 0;
      index = null;
      entry = 0;
      from = 0;
      return this;
    }

    /**
     * Stands on entry {@code entry} of {@code index}, which top-level entry {@code top} names; in a
     * compact block an entry offset whose data block lies at {@code dataOffset} (as {@link
     * #dataOffset} said there; any at a restart point, such as the first entry).
     */
    Position moveTo(int top, Block index, int entry, long dataOffset) {
      this.top = top;
      this.index = index;
      this.entry = entry;
      if (index.isCompactIndex()) {
        compact.moveTo(index, entry, dataOffset);
        from = 0;
      } else {
        from = entry;
      }
      return this;
    }

    /** Steps to the next entry (which may lie past the block's last; see {@link #skipEndedPartitions}). */
    void next() {
      if (index.isCompactIndex()) {
        compact.next(index);
        entry = compact.pos();
      } else {
        entry++;
      }
    }

    /** Whether this stands past its index block's last entry. */
    boolean pastEnd() {
      return index.isCompactIndex() ? compact.pastEnd(index) : entry == index.restartCount;
    }

    /** The file offset of the data block the entry names (unchecked: a cache lookup's key); -1 past the end. */
    long dataOffset() {
      if (pastEnd()) {
        return -1;
      }
      return index.isCompactIndex()
          ? compact.dataOffset()
          : Bytes.getU64(index.data, PointSearch.restartValueOffset(index, entry));
    }

    int top() {
      return top;
    }

    Block index() {
      return index;
    }

    int entry() {
      return entry;
    }
  }
}
