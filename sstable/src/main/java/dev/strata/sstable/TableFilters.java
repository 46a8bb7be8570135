package dev.strata.sstable;

import static dev.strata.sstable.StoredBlocks.loadFilter;

import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockLocation;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.filter.FilterChunkInfo;
import dev.strata.sstable.filter.FilterIndex;
import dev.strata.sstable.filter.FilterKeys;
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
 * One open table's admission checks: whether a Get, a batch's keys, a {@code mayContain}, a row
 * read or a prefix scan must look in the table at all, by its row range (in memory) and its
 * filters: the filter index (held by the reader), the one chunk that can hold a filter key, and
 * the row-tombstone filter (see {@link TableReader} on row tombstones under {@code ROWCOL}). Chunks
 * and the row-tombstone filter come through the block cache, a chunk's hit by the entry kept for
 * it ({@link KeptEntries}), a miss through the reader's counted fetch; a damaged one says maybe
 * and is counted in {@code filterChunksCorrupt}. Reads no index or data block.
 *
 * <p>Functions of the reader's state, as {@link TableBatch}'s are, not an object of their own: the
 * state stays in the reader, so a Get reaches the filter index and the kept chunk entries from the
 * reader it already holds. Measured at 20M keys with every block cached ({@code multigetmix}, 4
 * GiB cache): the same methods in an object the reader points to made Gets 7.8 % and batches 6 %
 * slower (four interleaved pairs; why was not established), where these functions run as fast as
 * the methods did inside the reader (ten pairs, within 1.5 %). The single Get's checks ({@link #admit}) are compiled into the
 * reader's {@code get}: keep their call depth and their methods small.
 *
 * <p>Stateless; thread-safe as the reader is (a batch's arrays are its thread's {@link
 * BatchScratch}).
 */
final class TableFilters {
  private static final byte[] EMPTY = new byte[0];

  /** {@link #admit}: the row lies outside the table. */
  static final int OUT_OF_RANGE = -1;
  /** {@link #admit}: the filter excludes both the cell and a row tombstone. */
  static final int SKIPPED = 0;
  /** {@link #admit} bit: the cell may be present. */
  static final int CELL_MAYBE = 1;
  /** {@link #admit} bit: a row tombstone of the row may be present. */
  static final int TOMBSTONE_MAYBE = 2;

  private TableFilters() {}

  /** The cache key of each of {@code filterIndex}'s chunks, for the reader's kept entries. */
  static KeptEntries keptChunks(BlockCache cache, long fileNumber, FilterIndex filterIndex) {
    BlockCacheKey[] keys = new BlockCacheKey[filterIndex.chunkCount()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new BlockCacheKey(fileNumber, filterIndex.handle(i).offset());
    }
    return new KeptEntries(cache, BlockKind.FILTER, keys);
  }

  /** Heap bytes held outside the block cache: the filter index and the chunks' kept entries. */
  static long heapBytes(TableReader r) {
    return r.filterIndex.sizeBytes() + r.chunks.heapBytes();
  }

  /**
   * Loads every filter chunk and the row-tombstone filter into the cache pinned ({@link
   * TableReader#open} with {@code pinMetadata}). A damaged one is left out, counted: it reads as
   * "maybe", as a Get would leave it.
   */
  static void pin(TableReader r) throws IOException {
    for (int i = 0; i < r.filterIndex.chunkCount(); i++) {
      pinFilter(r, r.filterIndex.handle(i), BlockType.FILTER_CHUNK);
    }
    if (r.rowTombstoneFilter != null) {
      pinFilter(r, r.rowTombstoneFilter, BlockType.ROW_TOMBSTONE_FILTER);
    }
  }

  private static void pinFilter(TableReader r, BlockHandle h, BlockType type) throws IOException {
    try {
      r.pinned(h, BlockKind.FILTER, () -> loadFilter(r.channel, r.path, h, type, r.properties().formatVersion()));
    } catch (CorruptTableException e) {
      r.counters.filterChunksCorrupt.increment();
    }
  }

  // ---- a single Get ----------------------------------------------------------------------------

  /**
   * The range and filter checks of a Get: {@link #OUT_OF_RANGE}, {@link #SKIPPED}, or the bits of
   * what must be looked up. The caller counts the outcome; a batch shares the work ({@link
   * #touchFilters}).
   */
  static int admit(TableReader r, FilterProbe probe) throws IOException {
    if (!rowInRange(r, probe.row())) {
      return OUT_OF_RANGE;
    }
    return admission(r, probe, cellMayBePresent(r, probe));
  }

  /** {@link #admit} for a probe in range whose filter said {@code cellMaybe}. */
  private static int admission(TableReader r, FilterProbe probe, boolean cellMaybe) throws IOException {
    boolean tombstoneMaybe = r.properties.rowTombstoneCount() > 0
        && (r.properties.filterType() == FilterType.ROWCOL ? rowTombstoneMayBePresent(r, probe) : cellMaybe);
    if (!cellMaybe && !tombstoneMaybe) {
      return SKIPPED;
    }
    return (cellMaybe ? CELL_MAYBE : 0) | (tombstoneMaybe ? TOMBSTONE_MAYBE : 0);
  }

  /** Whether admission {@code admitted} (of {@link #admit}) says the cell must be looked up. */
  static boolean cellMaybe(int admitted) {
    return admitted > 0 && (admitted & CELL_MAYBE) != 0; // OUT_OF_RANGE has every bit set
  }

  /** The hash a probe asks a filter of {@code type} (ROW or ROWCOL) for. */
  private static long filterHash(FilterType type, FilterProbe probe) {
    return type == FilterType.ROW ? probe.rowHash() : probe.cellHash();
  }

  /** {@link TableReader#mayContain}: false only when the row range or the filter excludes the cell. */
  static boolean mayContain(TableReader r, FilterProbe probe) throws IOException {
    return rowInRange(r, probe.row()) && cellMayBePresent(r, probe);
  }

  /** {@link TableReader#mightContainRow}: the row range, then the row-domain filter key. */
  static boolean mightContainRow(TableReader r, FilterProbe probe) throws IOException {
    if (!rowInRange(r, probe.row())) {
      return false;
    }
    return r.properties.filterType() == FilterType.NONE
        || chunkMayContain(r, probe.row(), EMPTY, probe.rowHash());
  }

  /** {@link TableReader#prefixFilterExcludes}, whose comment says why one chunk suffices. */
  static boolean prefixFilterExcludes(TableReader r, byte[] prefix) throws IOException {
    int n = r.properties.prefixLength();
    if (n == 0 || prefix.length < n || r.properties.filterType() == FilterType.NONE) {
      return false;
    }
    int i = r.filterIndex.find(prefix, EMPTY);
    if (i < 0) {
      return true; // every filter key sorts before the prefix: so does every row
    }
    return !mayContain(r, chunkOrNull(r, i), FilterKeys.prefixHash(prefix, n));
  }

  /** {@link TableReader#filterChunks}: from the filter index, in memory. */
  static List<FilterChunkInfo> chunkInfos(TableReader r) {
    List<FilterChunkInfo> out = new ArrayList<>(r.filterIndex.chunkCount());
    for (int i = 0; i < r.filterIndex.chunkCount(); i++) {
      byte[] key = r.filterIndex.lastKey(i);
      int rowEnd = SstableFormat.ROW_LENGTH_BYTES + Bytes.getU16(key, 0);
      BlockHandle h = r.filterIndex.handle(i);
      out.add(
          new FilterChunkInfo(
              new BlockLocation(h.offset(), h.length()),
              Arrays.copyOfRange(key, SstableFormat.ROW_LENGTH_BYTES, rowEnd),
              Arrays.copyOfRange(key, rowEnd, key.length)));
    }
    return out;
  }

  private static boolean rowInRange(TableReader r, byte[] row) {
    return UnsignedBytes.compare(row, r.properties.smallestRow()) >= 0
        && UnsignedBytes.compare(row, r.properties.largestRow()) <= 0;
  }

  private static boolean cellMayBePresent(TableReader r, FilterProbe probe) throws IOException {
    return switch (r.properties.filterType()) {
      case NONE -> true;
      case ROW -> chunkMayContain(r, probe.row(), EMPTY, probe.rowHash());
      case ROWCOL -> chunkMayContain(r, probe.row(), probe.column(), probe.cellHash());
    };
  }

  /**
   * Probes the row-tombstone filter, through the block cache as a filter block (bounded and
   * charged like the chunks, not held by the reader); a damaged one says maybe.
   */
  private static boolean rowTombstoneMayBePresent(TableReader r, FilterProbe probe) throws IOException {
    BlockHandle h = r.rowTombstoneFilter;
    if (h == null) {
      return true; // not ROWCOL: the caller asks only under ROWCOL, where the open required one
    }
    FilterChunk filter;
    try {
      filter = r.fetch(h, BlockKind.FILTER,
          () -> loadFilter(r.channel, r.path, h, BlockType.ROW_TOMBSTONE_FILTER, r.properties().formatVersion()));
    } catch (CorruptTableException e) {
      filter = null;
    }
    return mayContain(r, filter, probe.rowHash());
  }

  /** Probes the one chunk that can hold filter key (row, column); a damaged chunk says maybe. */
  private static boolean chunkMayContain(TableReader r, byte[] row, byte[] column, long hash) throws IOException {
    int i = r.filterIndex.find(row, column);
    return i >= 0 && mayContain(r, chunkOrNull(r, i), hash);
  }

  /** Whether {@code chunk} may hold {@code hash}; a damaged chunk (null) says maybe, counted. */
  private static boolean mayContain(TableReader r, FilterChunk chunk, long hash) {
    if (chunk == null) {
      r.counters.filterChunksCorrupt.increment();
      return true;
    }
    return chunk.mightContainHash(hash);
  }

  /** Chunk {@code i} through the cache, or null when it is damaged. */
  private static FilterChunk chunkOrNull(TableReader r, int i) throws IOException {
    BlockCacheKey key = r.chunks.key(i);
    FilterChunk hit = r.chunks.cached(i); // before the loader is made: a hit allocates nothing
    if (hit != null) {
      r.counters.countHit(BlockKind.FILTER);
      return hit;
    }
    BlockHandle h = r.filterIndex.handle(i);
    try {
      return r.fetch(key, h, BlockKind.FILTER,
          () -> loadFilter(r.channel, r.path, h, BlockType.FILTER_CHUNK, r.properties().formatVersion()));
    } catch (CorruptTableException e) {
      return null;
    }
  }

  // ---- a batch: TableReader#getAll's first stage, in three parts -------------------------------

  /**
   * The first part of {@link #admit} for this table's run {@code probes[from, to)}, ascending,
   * into {@code s.admitted} ({@link #OUT_OF_RANGE} or, for now, {@link #SKIPPED}) and {@code
   * s.chunks}: the row range is checked on the run's first and last probe (every probe between
   * lies inside when both do), and each probe's filter chunk found by binary search ({@link
   * FilterIndex#findAll}). The entries kept for those chunks are touched ({@link
   * KeptEntries#touch}), so that the misses of every table's chunks are in flight together before
   * {@link #touchFilters} takes them.
   */
  static void findChunks(TableReader r, FilterProbe[] probes, int from, int to, BatchScratch s) {
    int[] admitted = s.admitted;
    boolean allInRange = from == to
        || (rowInRange(r, probes[from].row()) && rowInRange(r, probes[to - 1].row()));
    FilterType type = r.properties.filterType();
    int[] found = s.chunks;
    if (type != FilterType.NONE) {
      r.filterIndex.findAll(probes, from, to, type == FilterType.ROW, found);
    }
    int touched = 0;
    int previous = -1;
    // A filter of few chunks stays in the processor's caches, as a small index does.
    boolean touch = type != FilterType.NONE && r.chunks.size() >= TableBatch.LOCK_STEP_PARTITIONS;
    for (int i = from; i < to; i++) {
      if (!allInRange && !rowInRange(r, probes[i].row())) {
        admitted[i] = OUT_OF_RANGE;
        continue;
      }
      admitted[i] = SKIPPED;
      if (touch && found[i] >= 0 && found[i] != previous) {
        touched += r.chunks.touch(found[i]);
        previous = found[i];
      }
    }
    s.touched += touched;
  }

  /**
   * The second part of {@link #admit} for the run {@link #findChunks} prepared: each chunk fetched
   * once for its run of probes (into {@code s.filters}), and the filter block each probe will read
   * touched ({@link dev.strata.bloom.BlockedBloomFilter#touch}) so that the misses of all of them
   * are in flight before {@link #probeFilters} reads any.
   */
  static void touchFilters(TableReader r, FilterProbe[] probes, int from, int to, BatchScratch s) throws IOException {
    FilterType type = r.properties.filterType();
    if (type == FilterType.NONE) {
      return;
    }
    int[] admitted = s.admitted;
    int[] found = s.chunks;
    FilterChunk[] filters = s.filters;
    long touched = 0;
    int fetchedIndex = -1;
    FilterChunk fetched = null;
    int hits = 0; // counted once for the run: see BlockCache#blockOfUncounted
    for (int i = from; i < to; i++) {
      if (admitted[i] == OUT_OF_RANGE || found[i] < 0) {
        continue;
      }
      if (found[i] != fetchedIndex) {
        fetched = r.chunks.keptUncounted(found[i]);
        if (fetched != null) {
          hits++;
        } else {
          fetched = chunkOrNull(r, found[i]);
        }
        fetchedIndex = found[i];
      }
      filters[i] = fetched;
      if (fetched != null) {
        touched += fetched.touch(filterHash(type, probes[i]));
      }
    }
    s.touched += (int) touched;
    s.countKeptHits(r.cache, r.counters, BlockKind.FILTER, hits);
  }

  /**
   * The last part of {@link #admit} for the run {@link #touchFilters} prepared: each probe in
   * range asks its chunk, and gets its admission in {@code s.admitted}. Counts the run's tables
   * consulted and skipped once, through the batch ({@link BatchScratch#countTables}): an atomic add
   * per probe would fence every probe's filter read.
   */
  static void probeFilters(TableReader r, FilterProbe[] probes, int from, int to, BatchScratch s) throws IOException {
    int[] admitted = s.admitted;
    int[] found = s.chunks;
    FilterChunk[] filters = s.filters;
    FilterType type = r.properties.filterType();
    int consulted = 0;
    int skipped = 0;
    for (int i = from; i < to; i++) {
      if (admitted[i] == OUT_OF_RANGE) {
        continue;
      }
      FilterProbe probe = probes[i];
      boolean cellMaybe;
      if (type == FilterType.NONE) {
        cellMaybe = true;
      } else if (found[i] < 0) {
        cellMaybe = false; // after the last chunk's last key: no filter key of the table is this one
      } else {
        cellMaybe = mayContain(r, filters[i], filterHash(type, probe));
        filters[i] = null;
      }
      admitted[i] = admission(r, probe, cellMaybe);
      consulted++;
      skipped += admitted[i] == SKIPPED ? 1 : 0;
    }
    s.countTables(r.counters, consulted - skipped, skipped);
  }
}
