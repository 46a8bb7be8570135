package dev.strata.sstable;

import static dev.strata.sstable.format.SstableFormat.BLOCK_TRAILER_BYTES;
import static dev.strata.sstable.TableFilters.CELL_MAYBE;
import static dev.strata.sstable.TableFilters.OUT_OF_RANGE;
import static dev.strata.sstable.TableFilters.SKIPPED;
import static dev.strata.sstable.TableFilters.TOMBSTONE_MAYBE;
import static dev.strata.sstable.StoredBlocks.payload;
import static dev.strata.sstable.StoredBlocks.payloadLength;
import static dev.strata.sstable.StoredBlocks.readBlock;
import static dev.strata.sstable.StoredBlocks.readFully;
import static dev.strata.sstable.StoredBlocks.readStored;
import static dev.strata.sstable.format.SstableFormat.FOOTER_BYTES;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockCursor;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockLocation;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.OffHeapCopy;
import dev.strata.sstable.block.PointSearch;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.filter.FilterChunkInfo;
import dev.strata.sstable.filter.FilterIndex;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.FormatVersionException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.index.IndexCursor;
import dev.strata.sstable.io.BulkBuffers;
import dev.strata.sstable.io.BulkReadahead;
import dev.strata.sstable.io.TableFile;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.UnsignedBytes;
import dev.strata.sstable.key.ValueKind;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Reads one table: point lookups through its partitioned filter, and iterators.
 *
 * <p>{@link #open} reads the footer, the properties and the filter index (pinned). A version-3 table's index has
 * two levels: the open reader pins the top level, and a Get reads the one index partition (about a
 * block) that can hold its key through the block cache, as index metadata. Older tables have one
 * index block, which open loads through the cache. Open reads no data block and no filter chunk. A
 * {@link #get} then takes the one filter chunk that can hold the key, the index partition (or
 * block) and one data block, each through the cache and verified against its checksum before it is
 * cached.
 *
 * <p>Row tombstones under {@code ROWCOL}: the filter holds (row, column) pairs, so a table holding a
 * row tombstone for row r has no filter entry for (r, c) and the chunk says "absent" for (r, c); the
 * Get must still see the tombstone. The table keeps a row-tombstone count in its properties and a
 * filter over the rows of its row tombstones. When the chunk says absent and the count is not zero,
 * the Get probes that filter with the row hash it already has, and reads only the row tombstone when
 * it says maybe. The filter goes through the block cache as a filter block, bounded and charged as
 * the chunks are (it was held by the open reader, unbounded, outside the cache); it is one block per
 * table, not partitioned. This costs nothing for the (usual) tables without row tombstones and never a second
 * chunk load, where HBase's row-marker probe (a reserved (row, marker) key probed on every Get) can
 * land in another chunk.
 *
 * <p>Corruption: a data, index or properties block, or the footer, that fails its checksum or does
 * not parse throws {@link CorruptTableException} naming the file and offset; a filter chunk or the
 * row-tombstone filter that fails reads as "maybe present" and is counted in {@code
 * filterChunksCorrupt}.
 *
 * <p>Thread-safe: share one reader between threads; each iterator belongs to one thread. The caller
 * must not close a reader while lookups or iterators on it are running (the engine reference-counts
 * readers).
 */
public final class TableReader implements Closeable {
  private static final byte[] EMPTY = new byte[0];

  /** Each thread's {@link Lookup}. */
  private static final ThreadLocal<Lookup> LOOKUPS = ThreadLocal.withInitial(Lookup::new);

  final Path path;
  final long fileNumber;
  final TableFile channel;
  private final TableReadOptions readOptions;
  private final long fileSize;
  private final Footer footer;
  final TableProperties properties;
  final BlockCache cache;
  final ReadCounters counters;
  /** Each filter chunk's handle and last filter key ({@link TableFilters} probes them). */
  final FilterIndex filterIndex;
  private final BlockCacheKey indexKey;
  /**
   * The cache key of each filter chunk, made once (a filter probe that hits allocates nothing), and
   * the cache entry last found for it (a hit skips the cache's lookup).
   */
  final KeptEntries chunks;
  /** The pinned top level of a two-level index (version 3); null for the one-level index of older tables. */
  final Block topIndex;
  /**
   * The cache key of the partition each top-level entry names, made once, and its entry, like
   * {@link #chunks}: a Get's partition lookup allocates nothing. Empty without a top level (or with
   * one whose entries are not all restart points, which no writer makes).
   */
  final KeptEntries partitions;
  /** The row-tombstone filter's handle ({@code ROWCOL} with row tombstones); null without one. */
  final BlockHandle rowTombstoneFilter;
  private volatile boolean closed;
  /** True while {@link #open} runs: its block loads count as open reads, not as Get reads. */
  private boolean opening = true;
  /** The cache keys this reader pinned at open, unpinned at close; empty when it pins nothing. */
  private final List<BlockCacheKey> pinned = new ArrayList<>();

  private TableReader(Path path, long fileNumber, TableFile channel, TableReadOptions readOptions,
      long fileSize, Footer footer, TableProperties properties, BlockCache cache, ReadCounters counters,
      FilterIndex filterIndex, boolean hasRowTombstoneFilter, Block topIndex) {
    this.path = path;
    this.fileNumber = fileNumber;
    this.channel = channel;
    this.readOptions = readOptions;
    this.fileSize = fileSize;
    this.footer = footer;
    this.properties = properties;
    this.cache = cache;
    this.counters = counters;
    this.filterIndex = filterIndex;
    this.rowTombstoneFilter = hasRowTombstoneFilter ? footer.rowTombstoneFilter() : null;
    this.indexKey = new BlockCacheKey(fileNumber, footer.index().offset());
    this.chunks = TableFilters.keptChunks(cache, fileNumber, filterIndex);
    this.topIndex = topIndex;
    boolean keyed = topIndex != null && PointSearch.allRestarts(topIndex);
    BlockCacheKey[] partitionKeys = new BlockCacheKey[keyed ? topIndex.restartCount : 0];
    for (int i = 0; i < partitionKeys.length; i++) {
      long offset = Bytes.getU64(topIndex.data, PointSearch.restartValueOffset(topIndex, i));
      partitionKeys[i] = new BlockCacheKey(fileNumber, offset);
    }
    this.partitions = new KeptEntries(cache, BlockKind.INDEX, partitionKeys);
  }

  /** Opens table {@code file} with counters of its own. */
  public static TableReader open(Path file, long fileNumber, BlockCache cache) throws IOException {
    return open(file, fileNumber, cache, new ReadCounters());
  }

  /** {@link #open(Path, long, BlockCache, ReadCounters, boolean)} pinning nothing. */
  public static TableReader open(Path file, long fileNumber, BlockCache cache, ReadCounters counters)
      throws IOException {
    return open(file, fileNumber, cache, counters, false);
  }

  /**
   * Opens table {@code file}, whose blocks are cached in {@code cache} under {@code fileNumber} (which
   * must be unique among the tables sharing the cache), counting into {@code counters}.
   *
   * <p>With {@code pinMetadata} (RocksDB's {@code pin_l0_filter_and_index_blocks_in_cache}, which
   * the engine asks for level-0 tables) the open also loads every filter chunk and index partition
   * (the one index block of an older table) into the cache pinned, as RocksDB's partitioned readers
   * do when they pin: a Get then never reads them from disk while the table is open, whatever the
   * cache's pressure. {@link #close} unpins them. Their reads count as the open's. Nothing is
   * loaded for a cache of capacity 0, which cannot hold them.
   *
   * @throws CorruptTableException when the footer, properties, filter index or index is damaged
   * @throws FormatVersionException when the table's format version is not supported
   */
  public static TableReader open(Path file, long fileNumber, BlockCache cache, ReadCounters counters,
      boolean pinMetadata) throws IOException {
    return open(file, fileNumber, cache, counters, pinMetadata, TableReadOptions.defaults());
  }

  /**
   * {@link #open(Path, long, BlockCache, ReadCounters, boolean)}, reading the file as {@code
   * readOptions} say (direct reads or through the page cache).
   */
  public static TableReader open(Path file, long fileNumber, BlockCache cache, ReadCounters counters,
      boolean pinMetadata, TableReadOptions readOptions) throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(cache, "cache");
    Objects.requireNonNull(counters, "counters");
    Objects.requireNonNull(readOptions, "readOptions");
    TableFile ch = TableFile.open(file, readOptions.directReads());
    boolean ok = false;
    try {
      long size = ch.size();
      if (size < FOOTER_BYTES) {
        throw new CorruptTableException(file, 0, "file of %d bytes is shorter than a footer", size);
      }
      long footerOffset = size - FOOTER_BYTES;
      Footer footer = Footer.decode(readFully(ch, file, footerOffset, FOOTER_BYTES), file, footerOffset);
      byte[] raw = readStored(ch, file, footer.properties());
      byte[] props = payload(raw, file, footer.properties(), BlockType.PROPERTIES);
      TableProperties properties =
          TableProperties.decode(props, payloadLength(raw, props, footer.properties()), file,
              footer.properties().offset());
      if (properties.formatVersion() != footer.version()) {
        throw new CorruptTableException(file, footer.properties().offset(),
            "properties say format version %d, footer %d", properties.formatVersion(), footer.version());
      }
      FilterIndex filterIndex =
          FilterIndex.from(readBlock(ch, file, footer.filterIndex(), BlockType.FILTER_INDEX), footerOffset, file);
      if (filterIndex.chunkCount() != properties.filterChunkCount()
          || (properties.filterType() == FilterType.NONE && filterIndex.chunkCount() != 0)) {
        throw new CorruptTableException(file, footer.filterIndex().offset(),
            "filter index of %d chunks, properties say %d of type %s",
            filterIndex.chunkCount(), properties.filterChunkCount(), properties.filterType());
      }
      boolean wantTombstoneFilter =
          properties.filterType() == FilterType.ROWCOL && properties.rowTombstoneCount() > 0;
      if (wantTombstoneFilter == footer.rowTombstoneFilter().equals(BlockHandle.NONE)) {
        throw new CorruptTableException(file, footerOffset, "row-tombstone filter handle %s with %d row"
            + " tombstones under %s", footer.rowTombstoneFilter(), properties.rowTombstoneCount(),
            properties.filterType());
      }
      boolean twoLevel = footer.version() >= SstableFormat.VERSION_PARTITIONED_INDEX;
      Block topIndex = twoLevel ? readBlock(ch, file, footer.index(), BlockType.INDEX) : null;
      TableReader reader = new TableReader(file, fileNumber, ch, readOptions, size, footer, properties, cache,
          counters, filterIndex, wantTombstoneFilter, topIndex);
      if (pinMetadata && cache.capacityBytes() > 0) {
        reader.pinMetadata();
      } else if (!twoLevel) {
        reader.indexBlock();
      }
      reader.opening = false; // the reader is published to other threads only after this
      counters.bytesReadAtOpen.add(FOOTER_BYTES + footer.properties().storedLength()
          + footer.filterIndex().storedLength()
          + (twoLevel ? footer.index().storedLength() : 0));
      ok = true;
      return reader;
    } finally {
      if (!ok) {
        ch.close();
      }
    }
  }

  /**
   * Loads and pins every filter chunk and index partition (or the one index block), remembering
   * their keys for {@link #close}. A damaged filter chunk is left out (it reads as "maybe"), as a
   * Get would leave it; a damaged index partition fails the open, as any damaged index does. When
   * the open fails after some pins, they are released before the failure leaves.
   */
  private void pinMetadata() throws IOException {
    boolean ok = false;
    try {
      TableFilters.pin(this);
      if (topIndex == null) {
        pinned(footer.index(), BlockKind.INDEX, () -> readBlock(channel, path, footer.index(), BlockType.INDEX));
      } else {
        BlockCursor top = new BlockCursor();
        top.reset(topIndex);
        for (top.seekToFirst(); top.isValid(); top.next()) {
          BlockHandle h = handleIn(top.block(), top.valueOffset(), "index partition");
          pinned(h, BlockKind.INDEX, () -> readBlock(channel, path, h, BlockType.INDEX_PARTITION));
        }
      }
      ok = true;
    } finally {
      if (!ok) {
        unpinAll();
      }
    }
  }

  /** Takes block {@code h} from the cache pinned, loading it if needed; counts as {@link #fetch}. */
  <T extends CachedBlock> void pinned(BlockHandle h, BlockKind kind, BlockCache.Loader<T> loader)
      throws IOException {
    BlockCacheKey key = h == footer.index() ? indexKey : new BlockCacheKey(fileNumber, h.offset());
    CountingLoader<T> counting = new CountingLoader<>(loader);
    cache.getOrLoadPinned(key, kind, counting);
    pinned.add(key);
    count(counting.ran, kind, h);
  }

  private void unpinAll() {
    for (BlockCacheKey key : pinned) {
      cache.unpin(key);
    }
    pinned.clear();
  }

  /** Blocks (filter chunks and index partitions) this reader holds pinned in the cache. */
  public int pinnedBlocks() {
    return pinned.size();
  }

  public Path path() {
    return path;
  }

  public long fileNumber() {
    return fileNumber;
  }

  /** The file's length in bytes. */
  public long fileSize() {
    return fileSize;
  }

  public TableProperties properties() {
    return properties;
  }

  /**
   * Heap bytes this open reader pins for its index: the top level of a two-level index (its
   * partitions are charged to the block cache, like the one index block of an older table, for
   * which this is 0).
   */
  public long pinnedIndexBytes() {
    return topIndex == null ? 0 : topIndex.sizeBytes();
  }

  /**
   * Payload bytes of the index block an open reads whole: the top level of a two-level index, or the
   * one index block of an older table. The writer keeps it within its block limit.
   */
  public long indexRootBytes() {
    return footer.index().length();
  }

  /**
   * Heap bytes this open reader holds outside the block cache, for as long as it is open: the top
   * level of a two-level index and the filter index. Index partitions, filter chunks, the
   * row-tombstone filter and data blocks are charged to the block cache instead.
   */
  public long pinnedBytes() {
    return pinnedIndexBytes() + TableFilters.heapBytes(this) + partitions.heapBytes();
  }

  /** The counters this reader counts into. */
  public ReadCounters counters() {
    return counters;
  }

  /**
   * What this table holds for cell (probe.row, probe.column) at {@code snapshot}: the newest entry of
   * the cell with sequence {@code <= snapshot} and the newest row tombstone of the row with sequence
   * {@code <= snapshot}. Checks the row range, then the filter (one chunk), then the index and one
   * data block (a second one only when the entries of a cell straddle blocks), searching them in
   * place ({@link PointSearch}). The result's cell key holds the probe's row and column arrays.
   *
   * @param snapshot the largest visible sequence; {@link InternalKey#MAX_SEQUENCE} sees everything
   */
  public GetResult get(FilterProbe probe, long snapshot) throws IOException {
    CellLookup out = new CellLookup();
    get(probe, snapshot, out);
    return out.toResult(probe.row(), probe.column());
  }

  /**
   * {@link #get(FilterProbe, long)} into {@code out}, which it clears first: a caller that reuses
   * one holder for its lookups (the engine's Get path, one per thread) allocates no result and no
   * cell key, only the value's copy when the cell is found.
   */
  public void get(FilterProbe probe, long snapshot, CellLookup out) throws IOException {
    Objects.requireNonNull(probe, "probe");
    Objects.requireNonNull(out, "out");
    checkSnapshot(snapshot);
    checkOpen();
    out.clear();
    int admitted = TableFilters.admit(this, probe);
    if (admitted == SKIPPED) {
      counters.tablesSkippedByFilter.increment(); // consulted too: one count, see ReadCounters
    } else if (admitted != OUT_OF_RANGE) {
      counters.tablesAdmitted.increment();
      pointLookup(probe, admitted, snapshot, LOOKUPS.get(), out);
    }
  }

  /**
   * The index and data block part of one Get, searched in place ({@link PointSearch}) into {@code
   * out} (clear on entry): no cursor and no decoded key. Falls back to
   * {@link #lookup} for an index block with entries between its restart points (none is written).
   */
  private void pointLookup(FilterProbe probe, int admitted, long snapshot, Lookup lookup,
      CellLookup out) throws IOException {
    int cell = NOT_SEARCHED;
    if ((admitted & CELL_MAYBE) != 0) {
      lookup.search.target(probe.row(), probe.column(), snapshot);
      cell = find(lookup.search, false, lookup.at.reset(), true);
    }
    finishLookup(probe, admitted, snapshot, lookup, cell, out);
  }

  /**
   * The rest of a point lookup whose cell search ended in {@code cell} ({@link #find}'s answer, the
   * entry found in {@code lookup.search}; {@link #NOT_SEARCHED} when the filter excluded the cell):
   * the row tombstone's search and the false positive count, into {@code out} (clear on entry).
   * Shared by the Get and the batch, which searches its cells together first ({@link #getAll}).
   */
  void finishLookup(FilterProbe probe, int admitted, long snapshot, Lookup lookup, int cell,
      CellLookup out) throws IOException {
    if (cell == IN_PLACE_UNSUPPORTED) {
      lookup(new TableCursor(this), probe, admitted, snapshot, out);
      return;
    }
    PointSearch search = lookup.search;
    if (cell == PointSearch.FOUND) {
      out.cell(search.sequence(), search.kind(), search.value());
    }
    if ((admitted & TOMBSTONE_MAYBE) != 0) {
      // From the start: (row, empty column) may sort before the cell of an earlier probe.
      int found = find(search.target(probe.row(), EMPTY, snapshot), true, lookup.at.reset(), true);
      if (found == IN_PLACE_UNSUPPORTED) {
        lookup(new TableCursor(this), probe, admitted, snapshot, out);
        return;
      }
      if (found == PointSearch.FOUND) {
        out.rowTombstone(search.sequence());
      }
    }
    if (out.isAbsent() && properties.filterType() != FilterType.NONE) {
      counters.filterFalsePositives.increment();
    }
  }

  /** {@link #find}: an index block has entries between its restart points; use a cursor. */
  static final int IN_PLACE_UNSUPPORTED = -1;
  /** {@link #finishLookup}: the filter excluded the cell; only a row tombstone was sought. */
  static final int NOT_SEARCHED = -2;
  /** {@link #locate}: the position names the data block where the search starts. */
  static final int LOCATED = -3;

  /**
   * Runs {@code search} through the index (the top level, then one partition; or the one index
   * block) from {@code at} on, and the data block it names, and on through the following data
   * blocks while the cell's entries run past a block's end: {@link PointSearch#FOUND}, {@link
   * PointSearch#ABSENT} or {@link #IN_PLACE_UNSUPPORTED}. Blocks come through the cache as on every
   * Get; an off-heap data block is copied into this thread's scratch array when {@code scratch}.
   */
  private int find(PointSearch search, boolean rowTombstone, Position at, boolean scratch)
      throws IOException {
    int located = locate(search, at);
    return located == LOCATED ? scanFrom(search, rowTombstone, at, null, 0, scratch) : located;
  }

  /**
   * The index part of {@link #find}: moves {@code at} to the index entry naming the data block
   * where the target's entries start ({@link #LOCATED}; it may stand just past its index block's
   * last entry, which {@link #skipEndedPartitions} resolves), or answers {@link PointSearch#ABSENT}
   * or {@link #IN_PLACE_UNSUPPORTED}. The searches start from {@code at}, which must be reset or
   * where the search of a smaller target ended (a batch's keys in order): every entry before it
   * sorts below the target.
   */
  int locate(PointSearch search, Position at) throws IOException {
    Block previous = at.index;
    int r = locateIndexBlock(search, at);
    if (r == LOCATED) {
      at.entry = search.firstRestartAtOrAfter(at.index, at.index == previous ? at.entry : 0);
    }
    return r;
  }

  /**
   * The first part of {@link #locate}: moves {@code at.top} and {@code at.index} to the index
   * block (the partition, or the one index block) holding the first index entry at or after the
   * target ({@link #LOCATED}), leaving {@code at.entry} as it was; or answers {@link
   * PointSearch#ABSENT} or {@link #IN_PLACE_UNSUPPORTED}.
   */
  private int locateIndexBlock(PointSearch search, Position at) throws IOException {
    int top = 0;
    Block index;
    if (topIndex == null) {
      index = indexBlock();
    } else {
      if (!PointSearch.allRestarts(topIndex)) {
        return IN_PLACE_UNSUPPORTED;
      }
      top = partitionOf(search, at.top);
      if (top == PAST_LAST_PARTITION) {
        return PointSearch.ABSENT;
      }
      index = at.index != null && at.top == top ? at.index : partitionAt(top);
    }
    if (!PointSearch.allRestarts(index)) {
      return IN_PLACE_UNSUPPORTED;
    }
    at.top = top;
    at.index = index;
    return LOCATED;
  }

  /**
   * The index partition holding the first index entry at or after {@code search}'s target, sought
   * from top-level entry {@code from} on (where a smaller target's search ended, or 0); {@link
   * #PAST_LAST_PARTITION} when every key of the table sorts below the target. A partition's
   * top-level key is its last key, so the first at or after the target names the partition.
   */
  int partitionOf(PointSearch search, int from) {
    int top = search.firstRestartAtOrAfter(topIndex, from);
    return top == topIndex.restartCount ? PAST_LAST_PARTITION : top;
  }

  /** {@link #partitionOf}: the target sorts after every key of the table. */
  static final int PAST_LAST_PARTITION = -1;

  /**
   * Moves {@code at}, if it stands past its index block's last entry, to the first entry of the
   * next partition: {@link #LOCATED}, or {@link PointSearch#ABSENT} past the table's last, or
   * {@link #IN_PLACE_UNSUPPORTED}.
   */
  int skipEndedPartitions(Position at) throws IOException {
    while (at.entry == at.index.restartCount) {
      if (topIndex == null || ++at.top == topIndex.restartCount) {
        return PointSearch.ABSENT;
      }
      at.index = partitionAt(at.top);
      if (!PointSearch.allRestarts(at.index)) {
        return IN_PLACE_UNSUPPORTED;
      }
      at.entry = 0;
    }
    return LOCATED;
  }

  /**
   * The data part of {@link #find}: scans the data block {@code at} names, and the blocks after it
   * while the cell runs on. A batch passes the first block ({@code data}, which {@code at} names)
   * and its {@code interval} ({@link PointSearch#interval}) found beforehand; a Get passes null.
   * One call site of each block fetch: the single Get's path is compiled into its caller, whose
   * inlining budget a second copy of the fetch (and of its cache-miss path) would exceed.
   */
  int scanFrom(PointSearch search, boolean rowTombstone, Position at, Block data,
      long interval, boolean scratch) throws IOException {
    boolean continued = false;
    while (true) {
      if (data == null) {
        int next = skipEndedPartitions(at);
        if (next != LOCATED) {
          return next;
        }
        data = dataBlock(at, scratch);
        interval = continued ? 0 : search.interval(data); // a next block's keys all lie above
      }
      int found = search.scan(data, interval, rowTombstone);
      if (found != PointSearch.NEXT_BLOCK) {
        return found;
      }
      at.entry++;
      data = null;
      continued = true;
    }
  }

  /**
   * The data block index entry {@code at} names, through the cache. A single Get copies an
   * off-heap block into scratch ({@code scratch}): it copies out its value before the next block.
   * A batch holds its blocks across probes, so it takes its own copies.
   */
  Block dataBlock(Position at, boolean scratch) throws IOException {
    return blockAt(at.index, PointSearch.restartValueOffset(at.index, at.entry), null,
        BlockKind.DATA, BlockType.DATA, "data block", scratch);
  }

  /**
   * Where an in-place search stands in the index: top-level entry {@code top}, entry {@code entry}
   * of index block {@code index}. After a search, every entry before it sorts below that search's
   * target, so the search of a larger target (a batch's next key) may start there.
   */
  static final class Position {
    int top;
    /** The index block (partition) the search chose; null before the first. */
    Block index;
    int entry;

    Position reset() {
      top = 0;
      index = null;
      entry = 0;
      return this;
    }
  }

  /**
   * One thread's state for its point lookups, re-aimed by each: a lookup runs on one thread and
   * starts no other, so one per thread serves them all and a Get allocates none. A batch keeps
   * its per-probe arrays here too ({@link BatchScratch}), grown to the largest batch seen.
   */
  static final class Lookup {
    final PointSearch search = new PointSearch();
    final Position at = new Position();
    BatchScratch batch = new BatchScratch(0);
    /** A one-table batch's reader and run end ({@link #getAll(FilterProbe[], int, long, CellLookup[])}). */
    final TableReader[] oneTable = new TableReader[1];
    final int[] oneEnd = new int[1];

    BatchScratch batch(int n) {
      if (batch.probe.length < n) {
        batch = new BatchScratch(Math.max(n, 2 * batch.probe.length));
      }
      return batch;
    }
  }

  /** The index partition named by top-level entry {@code i}, through the cache as index metadata. */
  Block partitionAt(int i) throws IOException {
    Block kept = partitions.cached(i);
    if (kept != null) {
      counters.countHit(BlockKind.INDEX);
      return kept;
    }
    return blockAt(topIndex, PointSearch.restartValueOffset(topIndex, i), partitions.key(i),
        BlockKind.INDEX, BlockType.INDEX_PARTITION, "index partition", false);
  }

  /**
   * The block whose handle is the value at {@code valueOffset} of {@code index}, through the cache
   * under {@code key} (looked up as two longs when null, a key made only on a miss); a hit makes no
   * key, handle or loader. A data block the
   * cache holds off the heap is copied back ({@link #onHeap}), into this thread's scratch array when
   * {@code scratch}.
   */
  private Block blockAt(Block index, int valueOffset, BlockCacheKey key, BlockKind kind,
      BlockType type, String what, boolean scratch) throws IOException {
    long offset = key != null ? key.offset() : Bytes.getU64(index.data, valueOffset);
    CachedBlock hit = key != null
        ? cache.getIfPresent(key, kind)
        : cache.getIfPresent(fileNumber, offset, kind); // no key made
    Block b = hit == null ? null : onHeap(hit, scratch, offset);
    if (b != null) {
      counters.countHit(kind);
      return b;
    }
    BlockHandle h = handleIn(index, valueOffset, what);
    BlockCacheKey k = key != null ? key : new BlockCacheKey(fileNumber, h.offset());
    return onHeap(k, h, kind, () -> readBlock(channel, path, h, type), scratch);
  }

  /**
   * {@link #fetch} for a block of entries, copied back to the heap if the cache holds it off the
   * heap; fetched again in the rare case that the cache evicted and released it meanwhile.
   */
  private Block onHeap(BlockCacheKey key, BlockHandle h, BlockKind kind, BlockCache.Loader<Block> loader,
      boolean scratch) throws IOException {
    while (true) {
      Block b = onHeap(this.<CachedBlock>fetch(key, h, kind, loader::load), scratch, key.offset());
      if (b != null) {
        return b;
      }
    }
  }

  /**
   * {@code cached}, the block at {@code offset}, as a block on the heap: itself, or the copy of an
   * off-heap data block (into this thread's scratch when {@code scratch}); null when that was
   * evicted and released before this reader took a reference.
   */
  private Block onHeap(CachedBlock cached, boolean scratch, long offset) {
    return cached instanceof OffHeapBlock o ? OffHeapCopy.toHeap(o, scratch, path, offset) : (Block) cached;
  }

  /**
   * {@link #get} for a batch: {@code probes[0, count)} in (row, column) order, what the table holds
   * for each into the holder at its index in {@code out} (cleared first), as {@link
   * #get(FilterProbe, long, CellLookup)}. The arrays and holders are the caller's, so a batch
   * asking several tables reuses them. The batch walks the table forward once, in key order, in
   * stages, each done for every probe before the next begins:
   *
   * <ol>
   *   <li>every probe's filter is asked before any index or data block is read ({@link
   *       TableFilters#touchFilters}, {@link TableFilters#probeFilters}): the row range is checked
   *       once for the batch, each filter chunk's run of probes is found by binary search and the
   *       chunk fetched once;
   *   <li>the admitted probes' cells are located in the index ({@link
   *       TableBatch#locateIndexBlocks}): each probe's index block, then the entries of all of them
   *       searched in lock step;
   *   <li>their data blocks are fetched, once for probes in one block;
   *   <li>each block's restart points are touched ({@link Block#touch}), then searched ({@link
   *       PointSearch#interval}); each probe's restart interval is touched, then scanned ({@link
   *       #scanFrom}). A search in a block is a chain of dependent reads that waits for one cache
   *       miss at a time; touching every probe's bytes first puts the misses of the whole batch in
   *       flight together.
   * </ol>
   *
   * The searches are the single Get's ({@link #find} is these stages for one probe).
   *
   * <p>Counts the same Gets, tables consulted and filter decisions as the probes one by one; the
   * block reads and cache hits it saves are the point, so those are fewer.
   */
  public void getAll(FilterProbe[] probes, int count, long snapshot, CellLookup[] out)
      throws IOException {
    Lookup lookup = LOOKUPS.get();
    lookup.oneTable[0] = this;
    lookup.oneEnd[0] = count;
    try {
      TableBatch.getAll(lookup.oneTable, lookup.oneEnd, 1, probes, count, snapshot, out);
    } finally {
      lookup.oneTable[0] = null;
    }
  }

  /**
   * {@link #getAll(FilterProbe[], int, long, CellLookup[])} for several tables at once, one run of
   * the probes each: {@code readers[t]} answers {@code probes[ends[t - 1], ends[t])} (from 0 for
   * the first; the last ends at {@code count}), each run in (row, column) order, into the holders
   * at the same indices of {@code out}.
   * Meant for the tables of a level below level 0, which are disjoint, so each key has one table to
   * ask. The readers must share one block cache.
   *
   * <p>Each stage ({@link TableBatch}) runs for every table's run before the next stage begins, so
   * the cache misses of the whole batch are in flight together, not only those of one table's
   * run: a batch of 64 random keys among 20 million hands each of the last level's 28 tables two
   * or three keys, and a table's stages alone would wait for two or three misses at a time.
   */
  public static void getAll(TableReader[] readers, int[] ends, int tables, FilterProbe[] probes,
      int count, long snapshot, CellLookup[] out) throws IOException {
    TableBatch.getAll(readers, ends, tables, probes, count, snapshot, out);
  }

  /** This thread's lookup state. */
  static Lookup lookup() {
    return LOOKUPS.get();
  }

  /**
   * False only when the table certainly holds no entry of cell (probe.row, probe.column): its row
   * range or its filter excludes it. Reads at most one filter chunk (through the cache), never an
   * index or data block, and counts no Get.
   */
  public boolean mayContain(FilterProbe probe) throws IOException {
    Objects.requireNonNull(probe, "probe");
    checkOpen();
    return TableFilters.mayContain(this, probe);
  }

  /**
   * The index and data block part of a Get whose filter admitted {@code admitted}, through a cursor,
   * into {@code out}: for an index with entries between its restart points, which {@link
   * PointSearch} does not search.
   */
  private void lookup(TableCursor cursor, FilterProbe probe, int admitted, long snapshot,
      CellLookup out) throws IOException {
    out.clear(); // the in-place search may have filled part of it before it fell back
    byte[] row = probe.row();
    boolean cellMaybe = (admitted & CELL_MAYBE) != 0;
    boolean tombstoneMaybe = (admitted & TOMBSTONE_MAYBE) != 0;
    if (cellMaybe) {
      InternalKey target = new InternalKey(row, probe.column(), snapshot, ValueKind.PUT);
      cursor.seek(target);
      if (cursor.isValid() && cursor.inCell(row, probe.column())) {
        out.cell(cursor.sequence(), cursor.kind(), cursor.value());
      }
    }
    if (tombstoneMaybe) {
      if (!cellMaybe || probe.column().length != 0) {
        // A plain seek: (row, empty column) may sort before the cell sought just now.
        cursor.seek(new InternalKey(row, EMPTY, snapshot, ValueKind.PUT));
      } // else the cursor already stands on the newest visible entry of (row, empty column)
      while (cursor.isValid() && cursor.inCell(row, EMPTY)) {
        if (cursor.kind() == ValueKind.DELETE_ROW) {
          out.rowTombstone(cursor.sequence());
          break;
        }
        cursor.next();
      }
    }
    if (out.isAbsent() && properties.filterType() != FilterType.NONE) {
      counters.filterFalsePositives.increment();
    }
  }

  static boolean inOrder(FilterProbe a, FilterProbe b) {
    int c = UnsignedBytes.compare(a.row(), b.row());
    return c < 0 || c == 0 && UnsignedBytes.compare(a.column(), b.column()) <= 0;
  }

  /**
   * False when the filter proves the table holds no entry of the row (for row reads); true when it
   * may. Checks the row range and, under {@code ROW} or {@code ROWCOL}, the row-domain filter key in
   * the one chunk that can hold it. Counts chunk loads, not tables.
   */
  public boolean mightContainRow(FilterProbe probe) throws IOException {
    Objects.requireNonNull(probe, "probe");
    checkOpen();
    return TableFilters.mightContainRow(this, probe);
  }

  /**
   * False when no row of the table can start with {@code prefix}, by its row range alone (held in
   * memory). The rows starting with a prefix are the rows from the prefix itself up to, excluding,
   * the first row after every row that starts with it.
   */
  public boolean rowRangeMeetsPrefix(byte[] prefix) {
    Objects.requireNonNull(prefix, "prefix");
    checkOpen();
    return rowRangeMeetsPrefix(properties.smallestRow(), properties.largestRow(), prefix);
  }

  /** Whether rows in [smallestRow, largestRow] can start with {@code prefix}. */
  public static boolean rowRangeMeetsPrefix(byte[] smallestRow, byte[] largestRow, byte[] prefix) {
    Objects.requireNonNull(prefix, "prefix");
    byte[] smallest = smallestRow;
    boolean smallestStartsWithPrefix = smallest.length >= prefix.length
        && Arrays.equals(smallest, 0, prefix.length, prefix, 0, prefix.length);
    return Arrays.compareUnsigned(largestRow, prefix) >= 0
        && (Arrays.compareUnsigned(smallest, prefix) <= 0 || smallestStartsWithPrefix);
  }

  /**
   * True when the prefix filter proves that no row of the table starts with {@code prefix}: the
   * table records a prefix length n (format version 2 with a filter), {@code prefix} is at least n
   * bytes, and the one chunk that can hold rows at or after {@code prefix} has no row whose first n
   * bytes are the prefix's. That chunk suffices: rows starting with the prefix sort together right
   * after it, the chunk ends at or after the prefix, and it holds the prefix of the row of its last
   * cell (see FilterWriter), so if such a row exists outside the chunk, the chunk's last row (between
   * the prefix and that row) starts with the prefix too. Reads at most one filter chunk, never a data block; a damaged
   * chunk says maybe.
   */
  public boolean prefixFilterExcludes(byte[] prefix) throws IOException {
    Objects.requireNonNull(prefix, "prefix");
    checkOpen();
    return TableFilters.prefixFilterExcludes(this, prefix);
  }

  /** Each filter chunk's location and last filter key, in key order (from memory); for tools. */
  public List<FilterChunkInfo> filterChunks() {
    checkOpen();
    return TableFilters.chunkInfos(this);
  }

  /** Each data block's location, in key order (reads the index through the cache); for tools. */
  public List<BlockLocation> dataBlocks() throws IOException {
    checkOpen();
    List<BlockLocation> out = new ArrayList<>();
    IndexCursor c = indexCursor();
    for (c.seekToFirst(); c.isValid(); c.next()) {
      BlockHandle h = dataHandle(c.block(), c.valueOffset());
      out.add(new BlockLocation(h.offset(), h.length()));
    }
    return out;
  }

  /** Whether this table is read past the OS page cache ({@link TableReadOptions#directReads()} took). */
  public boolean readsDirect() {
    return channel.readsDirect();
  }

  /** A read-ahead window of {@link TableReadOptions#compactionReadaheadBytes()} for one bulk pass. */
  BulkReadahead bulkReadahead() {
    return new BulkReadahead(channel, fileSize, readOptions.compactionReadaheadBytes());
  }

  /** A new iterator over every entry, unpositioned: call a seek first. */
  public TableIterator iterator() {
    checkOpen();
    return new TableIterator(new TableCursor(this));
  }

  /**
   * A new iterator for a bulk pass over the table (compaction), unpositioned. Its data blocks are
   * read from disk and neither looked up in nor added to the block cache: a pass reads each block
   * once, and caching it would evict the blocks readers asked for. Those reads count into {@code
   * counters}, not the reader's own; the index block comes through the cache as usual. The data
   * blocks are read through a read-ahead window of {@link TableReadOptions#compactionReadaheadBytes()}.
   */
  public TableIterator bulkIterator(ReadCounters counters) {
    Objects.requireNonNull(counters, "counters");
    checkOpen();
    return new TableIterator(new TableCursor(this, counters));
  }

  /**
   * Reads every block of the table from disk (bypassing the cache) and checks its checksum and
   * structure: footer, properties, filter index and every chunk, row-tombstone filter, index and every
   * data block, entry order, and the counts and keys the properties state. For tools and tests.
   *
   * @throws CorruptTableException at the first damaged block, including a filter chunk
   */
  public void verifyChecksums() throws IOException {
    checkOpen();
    new TableVerifier(this, channel, footer, filterIndex, topIndex).verify();
  }

  /** Unpins what the open pinned and closes the file. Idempotent. */
  @Override
  public void close() throws IOException {
    synchronized (pinned) {
      if (!closed) {
        unpinAll();
      }
      closed = true;
    }
    channel.close();
  }

  @Override
  public String toString() {
    return "TableReader[" + path + " #" + fileNumber + "]";
  }

  // ---- the read path -------------------------------------------------------------------------

  /** The one index block of a version 1 or 2 table, through the cache. */
  Block indexBlock() throws IOException {
    assert topIndex == null;
    return fetch(footer.index(), BlockKind.INDEX, () -> readBlock(channel, path, footer.index(), BlockType.INDEX));
  }

  /** A new cursor over this table's index, whatever its shape; partitions come through the cache. */
  IndexCursor indexCursor() throws IOException {
    return topIndex == null
        ? IndexCursor.oneLevel(indexBlock())
        : IndexCursor.twoLevel(topIndex, this::indexPartition);
  }

  /** The index partition {@code top} names, through the cache as index metadata. */
  private Block indexPartition(BlockCursor top) throws IOException {
    BlockHandle h = handleIn(top.block(), top.valueOffset(), "index partition");
    return fetch(h, BlockKind.INDEX, () -> readBlock(channel, path, h, BlockType.INDEX_PARTITION));
  }

  /**
   * The data block whose handle is the value at {@code valueOffset} of the index block; a block the
   * cache holds off the heap is copied into a new array, which the caller (a cursor) may keep.
   */
  Block dataBlock(Block index, int valueOffset) throws IOException {
    BlockHandle h = dataHandle(index, valueOffset);
    return onHeap(new BlockCacheKey(fileNumber, h.offset()), h, BlockKind.DATA,
        () -> readBlock(channel, path, h, BlockType.DATA), false);
  }

  /**
   * Like {@link #dataBlock}, but read from disk past the cache into {@code buffers}, counted into
   * {@code bulk}: the block lives only until the next one is read into the same buffers. The
   * stored bytes come through the pass's read-ahead window.
   */
  Block dataBlockUncached(Block index, int valueOffset, ReadCounters bulk, BulkBuffers buffers,
      BulkReadahead readahead) throws IOException {
    BlockHandle h = dataHandle(index, valueOffset);
    int storedLength = h.length() + BLOCK_TRAILER_BYTES;
    byte[] raw = buffers.stored(storedLength);
    readahead.readFully(h.offset(), raw, storedLength);
    byte[] payload = payload(raw, path, h, BlockType.DATA, buffers);
    Block block = Block.parse(payload, payloadLength(raw, payload, h), BlockType.DATA, path, h.offset());
    bulk.countRead(BlockKind.DATA, h.storedLength());
    return block;
  }

  BlockHandle dataHandle(Block index, int valueOffset) throws CorruptTableException {
    return handleIn(index, valueOffset, "data block");
  }

  /** The handle at {@code valueOffset} of {@code block}; one outside the file is corruption. */
  BlockHandle handleIn(Block block, int valueOffset, String what) throws CorruptTableException {
    BlockHandle h = BlockHandle.decodeOrNull(block.data, valueOffset, fileSize - FOOTER_BYTES);
    if (h == null) {
      throw new CorruptTableException(path, block.fileOffset, "%s handle lies outside the file", what);
    }
    return h;
  }

  /** Takes a block from the cache or loads it through {@code loader}, counting which. */
  <T extends CachedBlock> T fetch(BlockHandle h, BlockKind kind, BlockCache.Loader<T> loader)
      throws IOException {
    return fetch(h == footer.index() ? indexKey : new BlockCacheKey(fileNumber, h.offset()), h, kind, loader);
  }

  <T extends CachedBlock> T fetch(
      BlockCacheKey key, BlockHandle h, BlockKind kind, BlockCache.Loader<T> loader) throws IOException {
    CountingLoader<T> counting = new CountingLoader<>(loader);
    T block = cache.getOrLoad(key, kind, counting);
    count(counting.ran, kind, h);
    return block;
  }

  /** Counts a fetch of {@code h}: a read when its loader {@code ran}, else a hit. */
  private void count(boolean ran, BlockKind kind, BlockHandle h) {
    if (ran && opening) {
      counters.countRead(kind, 0);
      counters.bytesReadAtOpen.add(h.storedLength());
    } else if (ran) {
      counters.countRead(kind, h.storedLength());
    } else {
      counters.countHit(kind);
    }
  }

  static void checkSnapshot(long snapshot) {
    if (snapshot < 0 || snapshot > InternalKey.MAX_SEQUENCE) {
      throw new IllegalArgumentException("snapshot must be in [0, MAX_SEQUENCE]: " + snapshot);
    }
  }

  void checkOpen() {
    if (closed) {
      throw new IllegalStateException("closed: " + this);
    }
  }
}
