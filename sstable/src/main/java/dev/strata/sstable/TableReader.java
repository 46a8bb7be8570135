package dev.strata.sstable;

import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.FormatVersionException;
import dev.strata.sstable.key.InternalKey;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Reads one table: point lookups through its partitioned filter, batches of them, and iterators.
 * A facade over parts that each own what they use: {@link TableOpener} (the open's checks and what
 * it pins), {@link BlockFetcher} (blocks from the file or through the cache, counted), {@link
 * FilterReader} (row range, filter index, chunks, row-tombstone filter), {@link IndexReader} (top
 * level, partitions, locate), {@link PointLookup} (a Get's index and data part), {@link
 * BatchLookup} (a batch in stages), {@link TableLayout} (the blocks, for tools) and {@link
 * TableVerifier}.
 *
 * <p>A Get reads, each through the block cache and verified before it is cached: the one filter
 * chunk that can hold its key, the one index partition (of about a block) that can hold it, and one
 * data block. The open reads the footer, the properties, the filter index and the index's top level
 * (an older table's one index block, through the cache), and no data block or filter chunk. Row
 * tombstones under {@code ROWCOL}, which the filter cannot see, are found as {@link FilterReader}
 * says.
 *
 * <p>Corruption: a data, index or properties block, or the footer, that fails its checksum or does
 * not parse throws {@link CorruptTableException} naming the file and offset; a filter chunk or the
 * row-tombstone filter that fails reads as "maybe present" and is counted in {@code
 * filterChunksCorrupt}.
 *
 * <p>Thread-safe: share one reader between threads; each iterator belongs to one thread. Close a
 * reader only when no lookup or iterator uses it (the engine reference-counts readers).
 */
public final class TableReader implements Closeable {
  private final Path path;
  private final long fileNumber;
  private final TableProperties properties;
  private final ReadCounters counters;
  private final BlockFetcher fetcher;
  private final FilterReader filters;
  private final IndexReader index;
  private final PointLookup lookup;
  private volatile boolean closed;

  TableReader(Path path, long fileNumber, TableProperties properties, BlockFetcher fetcher,
      FilterReader filters, IndexReader index, ReadCounters counters) {
    this.path = path;
    this.fileNumber = fileNumber;
    this.properties = properties;
    this.counters = counters;
    this.fetcher = fetcher;
    this.filters = filters;
    this.index = index;
    this.lookup = new PointLookup(index, counters, filters.hasFilter());
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
   * <p>With {@code pinMetadata} (RocksDB's {@code pin_l0_filter_and_index_blocks_in_cache}) the
   * open also loads every filter chunk and index partition into the cache pinned ({@link
   * TableOpener}), which {@link #close} unpins. Nothing is pinned in a cache of capacity 0.
   *
   * @throws CorruptTableException when the footer, properties, filter index or index is damaged
   * @throws FormatVersionException when the table's format version is not supported
   */
  public static TableReader open(Path file, long fileNumber, BlockCache cache, ReadCounters counters,
      boolean pinMetadata) throws IOException {
    return open(file, fileNumber, cache, counters, pinMetadata, TableReadOptions.defaults());
  }

  /** {@link #open(Path, long, BlockCache, ReadCounters, boolean)}, reading the file as {@code readOptions} say. */
  public static TableReader open(Path file, long fileNumber, BlockCache cache, ReadCounters counters,
      boolean pinMetadata, TableReadOptions readOptions) throws IOException {
    return open(file, fileNumber, cache, counters, MetadataPins.of(pinMetadata), readOptions);
  }

  /**
   * {@link #open(Path, long, BlockCache, ReadCounters, boolean, TableReadOptions)} pinning what
   * {@code pins} names: {@link MetadataPins#FILTERS} pins the filter chunks alone, for a database
   * whose filters are sized to stay in the cache while its index partitions age with the data.
   */
  public static TableReader open(Path file, long fileNumber, BlockCache cache, ReadCounters counters,
      MetadataPins pins, TableReadOptions readOptions) throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(cache, "cache");
    Objects.requireNonNull(counters, "counters");
    Objects.requireNonNull(pins, "pins");
    Objects.requireNonNull(readOptions, "readOptions");
    return TableOpener.open(file, fileNumber, cache, counters, pins, readOptions);
  }

  /**
   * What this table holds for cell (probe.row, probe.column) at {@code snapshot}: the newest entry of
   * the cell with sequence {@code <= snapshot} and the newest row tombstone of the row with sequence
   * {@code <= snapshot}. The result's cell key holds the probe's row and column arrays.
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
    PointLookup.checkSnapshot(snapshot);
    checkOpen();
    out.clear();
    Admission admission = filters.admit(probe);
    if (admission == Admission.SKIPPED) {
      counters.countSkipped(); // consulted too: one count, see ReadCounters
    } else if (admission != Admission.OUT_OF_RANGE) {
      counters.countAdmitted();
      out.searchedBlocks();
      lookup.get(probe, admission, snapshot, out);
    }
  }

  /**
   * {@link #get(FilterProbe, long, CellLookup)} for {@code probes[0, count)}, in (row, column) order,
   * into the holders at the same indices of {@code out}, in stages ({@link BatchLookup}). Counts the
   * same tables consulted and filter decisions as the probes one by one, and fewer block fetches.
   */
  public void getAll(FilterProbe[] probes, int count, long snapshot, CellLookup[] out) throws IOException {
    BatchLookup.getAll(this, probes, count, snapshot, out);
  }

  /**
   * {@link #getAll(FilterProbe[], int, long, CellLookup[])} over several tables sharing one cache
   * (the disjoint tables of a level), each stage for every table before the next: {@code readers[t]}
   * answers {@code probes[ends[t - 1], ends[t])} (from 0 for the first; the last ends at {@code count}).
   */
  public static void getAll(TableReader[] readers, int[] ends, int tables, FilterProbe[] probes,
      int count, long snapshot, CellLookup[] out) throws IOException {
    BatchLookup.getAll(readers, ends, tables, probes, count, snapshot, out);
  }

  /**
   * False only when the table certainly holds no entry of cell (probe.row, probe.column): its row
   * range or its filter excludes it. Reads at most one filter chunk, never an index or data block,
   * and counts no Get.
   */
  public boolean mayContain(FilterProbe probe) throws IOException {
    Objects.requireNonNull(probe, "probe");
    checkOpen();
    return filters.mayContain(probe);
  }

  /**
   * False when the filter proves the table holds no entry of the row (for row reads); true when it
   * may. Checks the row range and, under {@code ROW} or {@code ROWCOL}, the row-domain filter key in
   * the one chunk that can hold it. Counts chunk loads, not tables.
   */
  public boolean mightContainRow(FilterProbe probe) throws IOException {
    Objects.requireNonNull(probe, "probe");
    checkOpen();
    return filters.mightContainRow(probe);
  }

  /** False when no row of the table can start with {@code prefix}, by its row range alone. */
  public boolean rowRangeMeetsPrefix(byte[] prefix) {
    Objects.requireNonNull(prefix, "prefix");
    checkOpen();
    return rowRangeMeetsPrefix(properties.smallestRow(), properties.largestRow(), prefix);
  }

  /** Whether rows in [smallestRow, largestRow] can start with {@code prefix}; see {@link FilterReader#rowRangeMeetsPrefix}. */
  public static boolean rowRangeMeetsPrefix(byte[] smallestRow, byte[] largestRow, byte[] prefix) {
    return FilterReader.rowRangeMeetsPrefix(smallestRow, largestRow, Objects.requireNonNull(prefix, "prefix"));
  }

  /**
   * True when the table's prefix filter proves that no row of it starts with {@code prefix}
   * ({@link FilterReader#prefixExcludes} says why one chunk suffices). Reads at most one filter
   * chunk; a damaged chunk says maybe.
   */
  public boolean prefixFilterExcludes(byte[] prefix) throws IOException {
    Objects.requireNonNull(prefix, "prefix");
    checkOpen();
    return filters.prefixExcludes(prefix);
  }

  /** A new iterator over every entry, unpositioned: call a seek first. */
  public TableIterator iterator() {
    checkOpen();
    return new TableIterator(new TableCursor(index, fetcher, null));
  }

  /**
   * A new iterator for a bulk pass (compaction), unpositioned. Its data blocks are read through a
   * read-ahead window past the block cache (a pass reads each block once, and caching it would evict
   * the blocks readers asked for) and counted into {@code counters}; the index comes through the cache.
   */
  public TableIterator bulkIterator(ReadCounters counters) {
    Objects.requireNonNull(counters, "counters");
    checkOpen();
    return new TableIterator(new TableCursor(index, fetcher, counters));
  }

  /** The table's blocks, where they lie and what the open holds, for tools and tests. */
  public TableLayout layout() {
    checkOpen();
    return new TableLayout(filters, index, fetcher);
  }

  /**
   * Reads every block of the table from disk past the cache and checks it ({@link TableVerifier}).
   *
   * @throws CorruptTableException at the first damaged block, including a filter chunk
   */
  public void verifyChecksums() throws IOException {
    checkOpen();
    new TableVerifier(fetcher, path, properties).verify();
  }

  public Path path() {
    return path;
  }

  public long fileNumber() {
    return fileNumber;
  }

  public TableProperties properties() {
    return properties;
  }

  /** The counters this reader counts into. */
  public ReadCounters counters() {
    return counters;
  }

  /** Whether the file is read past the OS page cache ({@link TableReadOptions#directReads()} took). */
  public boolean readsDirect() {
    return fetcher.readsDirect();
  }

  /** Blocks (filter chunks and index partitions) this reader holds pinned in the cache. */
  public int pinnedBlocks() {
    return fetcher.pinnedCount();
  }

  /**
   * Heap bytes this open reader holds outside the block cache, for as long as it is open: the top
   * level of a two-level index, the filter index, and the cache entries it keeps. Index partitions,
   * filter chunks, the row-tombstone filter and data blocks are charged to the block cache instead.
   */
  public long pinnedBytes() {
    return index.heapBytes() + filters.heapBytes();
  }

  /** Unpins what the open pinned and closes the file. Idempotent. */
  @Override
  public void close() throws IOException {
    closed = true;
    fetcher.unpinAll();
    fetcher.closeFile();
  }

  @Override
  public String toString() {
    return "TableReader[" + path + " #" + fileNumber + "]";
  }

  // ---- the parts, for a batch over several tables -------------------------------------------------

  FilterReader filters() {
    return filters;
  }

  IndexReader index() {
    return index;
  }

  PointLookup lookup() {
    return lookup;
  }

  BlockFetcher fetcher() {
    return fetcher;
  }

  /** Reads this table's file has served, its open's included; for tests of what an open reads. */
  long fileReads() {
    return fetcher.fileReads();
  }

  void checkOpen() {
    if (closed) {
      throw new IllegalStateException("closed: " + this);
    }
  }
}
