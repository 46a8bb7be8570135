package dev.strata.sstable;

import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockLocation;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.filter.FilterChunkInfo;
import dev.strata.sstable.filter.FilterIndex;
import dev.strata.sstable.filter.FilterKeys;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.UnsignedBytes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One table's admission checks: whether a Get, a batch's keys, a {@code mayContain}, a row read or a
 * prefix scan must look in the table at all, by its row range (held here) and its filters: the
 * filter index (held here, from the open), the one chunk that can hold a filter key, and the
 * row-tombstone filter. Chunks and the row-tombstone filter come through the block cache, a chunk's
 * hit by the cache entry kept for it ({@link KeptEntries}); a damaged one says maybe and is
 * counted. Reads no index or data block.
 *
 * <p>Row tombstones under {@code ROWCOL}: the filter holds (row, column) pairs, so a table holding a
 * row tombstone for row r has no filter entry for (r, c) and the chunk says "absent" for (r, c); the
 * Get must still see the tombstone. The table records its row-tombstone count and a filter over the
 * rows of its row tombstones (one block, through the cache as a filter block). When the chunk says
 * absent and the count is not zero, the Get probes that filter with the row hash it already has,
 * and looks only for the row tombstone when it says maybe ({@link Admission#ROW_TOMBSTONE}). This
 * costs nothing for the usual tables without row tombstones and never a second chunk, where HBase's
 * row-marker probe (a reserved (row, marker) key probed on every Get) can land in another chunk.
 *
 * <p>The single Get's check is {@link #admit}; a batch's is the same decision in three stages
 * ({@link #findChunks}, {@link #touchFilters}, {@link #probeFilters}), each run for every table of
 * the batch before the next, so that the cache misses of all of them are in flight together.
 *
 * <p>Thread-safe: the filter index is immutable, the kept entries are safe to race on, and a
 * batch's arrays are its caller's.
 */
final class FilterReader {
  private static final byte[] EMPTY = new byte[0];

  private final FilterType type;
  /** The table's format version: whether its filter payloads end with their kind. */
  private final int formatVersion;
  private final byte[] smallestRow;
  private final byte[] largestRow;
  /** The prefix length the filter holds row prefixes of; 0 for none. */
  private final int prefixLength;
  /** Whether the table holds a row tombstone: only then can one hide a cell the filter excludes. */
  private final boolean hasRowTombstones;
  private final FilterIndex filterIndex;
  /** The cache key of each chunk, made once, and the cache entry last found for it. */
  private final KeptEntries chunks;
  /** The row-tombstone filter's handle ({@code ROWCOL} with row tombstones); null without one. */
  private final BlockHandle rowTombstoneFilter;
  private final BlockCacheKey rowTombstoneKey;
  private final BlockFetcher fetcher;
  private final BlockCache cache;
  private final ReadCounters counters;

  /**
   * The most an open that pins the filter reads in one go: a table's filter is about 1.25 bytes a
   * key at 10 bits (under a MiB for a 64 MiB table of 100-byte values); a larger one loads chunk by
   * chunk rather than hold all of it twice at once (a stretch of Ribbon chunks is read, then laid
   * out chunk by chunk into memory of their own).
   */
  static final long MAX_STRETCH_READ_BYTES = 16L << 20;

  /**
   * The checks of a table with {@code properties}, whose filter index the open read, and whose
   * row-tombstone filter lies at {@code rowTombstoneFilter} (null when it has none).
   */
  FilterReader(TableProperties properties, FilterIndex filterIndex, BlockHandle rowTombstoneFilter,
      BlockFetcher fetcher, BlockCache cache, ReadCounters counters) {
    this.type = properties.filterType();
    this.formatVersion = properties.formatVersion();
    this.smallestRow = properties.smallestRow();
    this.largestRow = properties.largestRow();
    this.prefixLength = properties.prefixLength();
    this.hasRowTombstones = properties.rowTombstoneCount() > 0;
    this.filterIndex = filterIndex;
    this.rowTombstoneFilter = rowTombstoneFilter;
    this.rowTombstoneKey = rowTombstoneFilter == null ? null : fetcher.key(rowTombstoneFilter.offset());
    this.fetcher = fetcher;
    this.cache = cache;
    this.counters = counters;
    BlockCacheKey[] keys = new BlockCacheKey[filterIndex.chunkCount()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = fetcher.key(filterIndex.handle(i).offset());
    }
    this.chunks = new KeptEntries(cache, BlockKind.FILTER, keys);
  }

  /** Whether the table has a filter, so that a lookup it admits and that finds nothing is a false positive. */
  boolean hasFilter() {
    return type != FilterType.NONE;
  }

  /** Heap bytes held outside the block cache: the filter index and the chunks' kept entries. */
  long heapBytes() {
    return filterIndex.sizeBytes() + chunks.heapBytes();
  }

  /**
   * Loads every filter chunk and the row-tombstone filter into the cache pinned (an open that pins
   * its metadata), off the heap ({@link PinnedFilterReads}). A damaged one is left out, counted: it
   * reads as "maybe", as a Get would leave it.
   */
  void pinAll() throws IOException {
    try (PinnedFilterReads reads = new PinnedFilterReads(fetcher, formatVersion)) {
      long start = chunkStretchStart();
      if (start >= 0 && chunkStretchEnd() - start <= MAX_STRETCH_READ_BYTES) {
        reads.readStretch(start, chunkStretchEnd()); // one read, not one per chunk
      }
      for (int i = 0; i < filterIndex.chunkCount(); i++) {
        pin(chunks.key(i), filterIndex.handle(i), BlockType.FILTER_CHUNK, reads);
      }
      if (rowTombstoneFilter != null) {
        pin(rowTombstoneKey, rowTombstoneFilter, BlockType.ROW_TOMBSTONE_FILTER, reads);
      }
    }
  }

  /**
   * Where the filter chunks start when they lie together, in index order, with at most alignment
   * padding between them (format 6 writes them so, after the data blocks); -1 when they do not
   * (an older table, whose chunks lie between its data blocks).
   */
  private long chunkStretchStart() {
    int n = filterIndex.chunkCount();
    if (n == 0) {
      return -1;
    }
    long start = filterIndex.handle(0).offset();
    long end = start;
    for (int i = 0; i < n; i++) {
      BlockHandle h = filterIndex.handle(i);
      if (h.offset() < end || h.offset() - end >= SstableFormat.FILTER_ALIGNMENT) {
        return -1;
      }
      end = h.offset() + h.storedLength();
    }
    return start;
  }

  /** Where the last chunk ends, trailer included (the end of the stretch that {@link #chunkStretchStart} starts). */
  private long chunkStretchEnd() {
    BlockHandle last = filterIndex.handle(filterIndex.chunkCount() - 1);
    return last.offset() + last.storedLength();
  }

  private void pin(BlockCacheKey key, BlockHandle h, BlockType blockType, PinnedFilterReads reads)
      throws IOException {
    try {
      fetcher.pin(key, h, BlockKind.FILTER, () -> reads.load(h, blockType));
    } catch (CorruptTableException e) {
      counters.countCorruptFilter();
    }
  }

  /** Each chunk's location and last filter key, in key order, from the filter index. */
  List<FilterChunkInfo> chunkInfos() {
    List<FilterChunkInfo> out = new ArrayList<>(filterIndex.chunkCount());
    for (int i = 0; i < filterIndex.chunkCount(); i++) {
      byte[] key = filterIndex.lastKey(i);
      int rowEnd = SstableFormat.ROW_LENGTH_BYTES + Bytes.getU16(key, 0);
      BlockHandle h = filterIndex.handle(i);
      out.add(new FilterChunkInfo(new BlockLocation(h.offset(), h.length()),
          Arrays.copyOfRange(key, SstableFormat.ROW_LENGTH_BYTES, rowEnd),
          Arrays.copyOfRange(key, rowEnd, key.length)));
    }
    return out;
  }

  /**
   * The kind of chunk {@code i}'s filter, read from the file (not through the cache: a tool's
   * question must not change what the cache holds).
   *
   * @throws CorruptTableException when the chunk is damaged
   */
  FilterKind chunkKind(int i) throws IOException {
    return fetcher.readFilter(filterIndex.handle(i), BlockType.FILTER_CHUNK, formatVersion).kind();
  }

  // ---- one key ------------------------------------------------------------------------------------

  /**
   * What a Get of {@code probe} must look for in the table. Reads at most the one chunk that can
   * hold the key and, when the chunk excludes the cell of a {@code ROWCOL} table that holds row
   * tombstones, the row-tombstone filter. Counts no table: the caller counts the outcome.
   */
  Admission admit(FilterProbe probe) throws IOException {
    if (!rowInRange(probe.row())) {
      return Admission.OUT_OF_RANGE;
    }
    return admission(probe, cellMayBePresent(probe));
  }

  /** {@link #admit} of a probe in range whose filter said {@code cellMaybe}. */
  private Admission admission(FilterProbe probe, boolean cellMaybe) throws IOException {
    boolean rowTombstoneMaybe = hasRowTombstones
        && (type == FilterType.ROWCOL ? rowTombstoneMayBePresent(probe) : cellMaybe);
    return Admission.of(cellMaybe, rowTombstoneMaybe);
  }

  /** False only when the row range or the filter excludes cell (probe.row, probe.column). */
  boolean mayContain(FilterProbe probe) throws IOException {
    return rowInRange(probe.row()) && cellMayBePresent(probe);
  }

  /** False when the row range or the row-domain filter key excludes every cell of the row. */
  boolean mightContainRow(FilterProbe probe) throws IOException {
    return rowInRange(probe.row())
        && (type == FilterType.NONE || chunkMayContain(probe.row(), EMPTY, probe.rowHash()));
  }

  /**
   * True when the prefix filter proves that no row of the table starts with {@code prefix}: the
   * table records a prefix length n (format version 2 with a filter), {@code prefix} is at least n
   * bytes, and the one chunk that can hold rows at or after {@code prefix} has no row whose first n
   * bytes are the prefix's. That chunk suffices: rows starting with the prefix sort together right
   * after it, the chunk ends at or after the prefix, and it holds the prefix of the row of its last
   * cell (see FilterWriter), so if such a row exists outside the chunk, the chunk's last row
   * (between the prefix and that row) starts with the prefix too.
   */
  boolean prefixExcludes(byte[] prefix) throws IOException {
    if (prefixLength == 0 || prefix.length < prefixLength || type == FilterType.NONE) {
      return false;
    }
    int i = filterIndex.find(prefix, EMPTY);
    if (i < 0) {
      return true; // every filter key sorts before the prefix: so does every row
    }
    return !mayContain(chunkOrNull(i), FilterKeys.prefixHash(prefix, prefixLength));
  }

  /**
   * Whether rows in [smallestRow, largestRow] can start with {@code prefix}: the rows starting with
   * it run from the prefix itself up to, excluding, the first row after every row that starts with it.
   */
  static boolean rowRangeMeetsPrefix(byte[] smallestRow, byte[] largestRow, byte[] prefix) {
    boolean smallestStartsWithPrefix = smallestRow.length >= prefix.length
        && Arrays.equals(smallestRow, 0, prefix.length, prefix, 0, prefix.length);
    return Arrays.compareUnsigned(largestRow, prefix) >= 0
        && (Arrays.compareUnsigned(smallestRow, prefix) <= 0 || smallestStartsWithPrefix);
  }

  private boolean rowInRange(byte[] row) {
    return UnsignedBytes.compare(row, smallestRow) >= 0 && UnsignedBytes.compare(row, largestRow) <= 0;
  }

  private boolean cellMayBePresent(FilterProbe probe) throws IOException {
    return switch (type) {
      case NONE -> true;
      case ROW -> chunkMayContain(probe.row(), EMPTY, probe.rowHash());
      case ROWCOL -> chunkMayContain(probe.row(), probe.column(), probe.cellHash());
    };
  }

  /** The hash a probe asks a filter of this table's type (ROW or ROWCOL) for. */
  private long filterHash(FilterProbe probe) {
    return type == FilterType.ROW ? probe.rowHash() : probe.cellHash();
  }

  /** Probes the row-tombstone filter, through the block cache as a filter block; a damaged one says maybe. */
  private boolean rowTombstoneMayBePresent(FilterProbe probe) throws IOException {
    BlockHandle h = rowTombstoneFilter;
    if (h == null) {
      return true; // not ROWCOL: the caller asks only under ROWCOL, where the open required one
    }
    FilterChunk filter;
    try {
      filter = asFilter(fetcher.fetch(rowTombstoneKey, h, BlockKind.FILTER,
          () -> fetcher.readFilter(h, BlockType.ROW_TOMBSTONE_FILTER, formatVersion)));
    } catch (CorruptTableException e) {
      filter = null;
    }
    return mayContain(filter, probe.rowHash());
  }

  /** Probes the one chunk that can hold filter key (row, column); a damaged chunk says maybe. */
  private boolean chunkMayContain(byte[] row, byte[] column, long hash) throws IOException {
    int i = filterIndex.find(row, column);
    return i >= 0 && mayContain(chunkOrNull(i), hash);
  }

  /** Whether {@code chunk} may hold {@code hash}; a damaged chunk (null) says maybe, counted. */
  private boolean mayContain(FilterChunk chunk, long hash) {
    if (chunk == null) {
      counters.countCorruptFilter();
      return true;
    }
    return chunk.mightContainHash(hash);
  }

  /**
   * {@code cached} when it is a filter, else null (damage: the answer is "maybe"). The cache keys
   * blocks by offset alone, so an entries block there means a damaged handle named its offset.
   */
  private static FilterChunk asFilter(CachedBlock cached) {
    return cached instanceof FilterChunk f ? f : null;
  }

  /** Chunk {@code i} through the cache, or null when it is damaged. */
  private FilterChunk chunkOrNull(int i) throws IOException {
    FilterChunk hit = asFilter(chunks.cached(i)); // before the loader is made: a hit allocates nothing
    if (hit != null) {
      counters.countHit(BlockKind.FILTER);
      return hit;
    }
    BlockHandle h = filterIndex.handle(i);
    try {
      return asFilter(fetcher.fetch(chunks.key(i), h, BlockKind.FILTER,
          () -> fetcher.readFilter(h, BlockType.FILTER_CHUNK, formatVersion)));
    } catch (CorruptTableException e) {
      return null;
    }
  }

  // ---- a batch: the same decision in three stages -------------------------------------------------

  /**
   * The first stage of {@link #admit} for this table's run {@code probes[from, to)}, ascending:
   * {@code admitted[i]} becomes {@link Admission#OUT_OF_RANGE} or, for now, {@link
   * Admission#SKIPPED}, and {@code chunk[i]} the chunk that can hold the probe's filter key (-1
   * after the last chunk). The row range is checked on the run's first and last probe (every probe
   * between lies inside when both do), the chunks found by galloping ({@link FilterIndex#findAll}).
   * In a filter of many chunks the entries kept for them are touched ({@link KeptEntries#touch}),
   * so that the misses of every table's chunks are in flight together before {@link #touchFilters}
   * takes them. Returns a value computed from the bytes touched, which the caller keeps.
   */
  int findChunks(FilterProbe[] probes, int from, int to, Admission[] admitted, int[] chunk) {
    boolean allInRange = from == to || (rowInRange(probes[from].row()) && rowInRange(probes[to - 1].row()));
    if (type != FilterType.NONE) {
      filterIndex.findAll(probes, from, to, type == FilterType.ROW, chunk);
    }
    int touched = 0;
    int previous = -1;
    boolean touch = type != FilterType.NONE && chunks.many();
    for (int i = from; i < to; i++) {
      if (!allInRange && !rowInRange(probes[i].row())) {
        admitted[i] = Admission.OUT_OF_RANGE;
        continue;
      }
      admitted[i] = Admission.SKIPPED;
      if (touch && chunk[i] >= 0 && chunk[i] != previous) {
        touched += chunks.touch(chunk[i]);
        previous = chunk[i];
      }
    }
    return touched;
  }

  /**
   * The second stage, for the run {@link #findChunks} prepared: each chunk fetched once for its run
   * of probes (into {@code filters}; null for a damaged one), and the filter block each probe will
   * read touched ({@link FilterChunk#touch}) so that the misses of all of
   * them are in flight before {@link #probeFilters} reads any. The kept entries' hits are counted
   * once for the run, into the cache now and the table's counters through {@code counts}. Returns a
   * value computed from the bytes touched.
   */
  int touchFilters(FilterProbe[] probes, int from, int to, Admission[] admitted, int[] chunk,
      FilterChunk[] filters, BatchCounts counts) throws IOException {
    if (type == FilterType.NONE) {
      return 0;
    }
    long touched = 0;
    int fetchedIndex = -1;
    FilterChunk fetched = null;
    int hits = 0; // counted once for the run: see BlockCache#blockOfUncounted
    for (int i = from; i < to; i++) {
      if (admitted[i] == Admission.OUT_OF_RANGE || chunk[i] < 0) {
        continue;
      }
      if (chunk[i] != fetchedIndex) {
        fetched = asFilter(chunks.keptUncounted(chunk[i]));
        if (fetched != null) {
          hits++;
        } else {
          fetched = chunkOrNull(chunk[i]);
        }
        fetchedIndex = chunk[i];
      }
      filters[i] = fetched;
      if (fetched != null) {
        touched += fetched.touch(filterHash(probes[i]));
      }
    }
    if (hits > 0) {
      cache.countHits(BlockKind.FILTER, hits);
      counts.hits(counters, BlockKind.FILTER, hits);
    }
    return (int) touched;
  }

  /**
   * The last stage, for the run {@link #touchFilters} prepared: each probe in range asks its chunk
   * and gets its admission in {@code admitted}; {@code filters} is cleared behind it. Counts the
   * run's tables consulted and skipped through {@code counts}, once: an atomic add per probe would
   * fence every probe's filter read.
   */
  void probeFilters(FilterProbe[] probes, int from, int to, Admission[] admitted, int[] chunk,
      FilterChunk[] filters, BatchCounts counts) throws IOException {
    int consulted = 0;
    int skipped = 0;
    for (int i = from; i < to; i++) {
      if (admitted[i] == Admission.OUT_OF_RANGE) {
        continue;
      }
      FilterProbe probe = probes[i];
      boolean cellMaybe;
      if (type == FilterType.NONE) {
        cellMaybe = true;
      } else if (chunk[i] < 0) {
        cellMaybe = false; // after the last chunk's last key: no filter key of the table is this one
      } else {
        cellMaybe = mayContain(filters[i], filterHash(probe));
        filters[i] = null;
      }
      admitted[i] = admission(probe, cellMaybe);
      consulted++;
      skipped += admitted[i] == Admission.SKIPPED ? 1 : 0;
    }
    counts.tables(counters, consulted - skipped, skipped);
  }
}
