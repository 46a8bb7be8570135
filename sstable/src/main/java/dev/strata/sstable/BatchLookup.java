package dev.strata.sstable;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.IndexEntry;
import dev.strata.sstable.block.OffHeapCopy;
import dev.strata.sstable.block.PointSearch;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.key.UnsignedBytes;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A batch of point lookups over one table or over the tables of a level ({@link
 * TableReader#getAll}), in stages, each run for every table's keys before the next begins:
 *
 * <ol>
 *   <li>the filters ({@link FilterReader}: chunks found, fetched and touched, then probed);
 *   <li>the index: each admitted key's index block, then the entries of all of them searched in
 *       lock step ({@link #searchEntriesTogether}) in tables with many index partitions, key after
 *       key from where the previous search ended in smaller ones ({@link IndexReader#locate});
 *   <li>the data blocks, looked up in the cache together, once for keys in one block, and those
 *       the cache holds off the heap copied ({@link #fetchDataBlocks});
 *   <li>each block's restart points touched, each key's restart interval found and touched ({@link
 *       #touchBlocks}); then each key scanned and finished as a Get finishes ({@link PointLookup}).
 * </ol>
 *
 * A search is a chain of dependent reads that waits for one cache miss at a time; the loads of one
 * stage depend on nothing else of the same stage, so the whole batch's misses are in flight
 * together rather than one key's after another's. A deeper level's tables are disjoint, each key
 * has one of them to ask, and a table's run may be two or three keys: running each stage over
 * every table's run keeps the whole batch's misses together. Nothing atomic runs inside a stage
 * (each atomic add or compare-and-swap makes every read after it wait for those before it): counts
 * wait in {@link BatchCounts}, off-heap blocks are retained in a loop of their own and released
 * after the last copy.
 *
 * <p>Stateless: a batch's arrays are its thread's ({@link BatchScratch}), reused.
 */
final class BatchLookup {
  private static final ThreadLocal<BatchScratch> SCRATCH = ThreadLocal.withInitial(() -> new BatchScratch(0));

  private BatchLookup() {}

  /** See {@link TableReader#getAll(FilterProbe[], int, long, CellLookup[])}. */
  static void getAll(TableReader reader, FilterProbe[] probes, int count, long snapshot, CellLookup[] out)
      throws IOException {
    BatchScratch s = SCRATCH.get();
    s.oneTable[0] = reader;
    s.oneEnd[0] = count;
    try {
      getAll(s.oneTable, s.oneEnd, 1, probes, count, snapshot, out);
    } finally {
      s.oneTable[0] = null;
    }
  }

  /** See {@link TableReader#getAll(TableReader[], int[], int, FilterProbe[], int, long, CellLookup[])}. */
  static void getAll(TableReader[] readers, int[] ends, int tables, FilterProbe[] probes, int count,
      long snapshot, CellLookup[] out) throws IOException {
    Objects.requireNonNull(readers, "readers");
    Objects.requireNonNull(ends, "ends");
    Objects.requireNonNull(probes, "probes");
    Objects.requireNonNull(out, "out");
    Objects.checkFromIndexSize(0, tables, Math.min(readers.length, ends.length));
    Objects.checkFromIndexSize(0, count, Math.min(probes.length, out.length));
    PointLookup.checkSnapshot(snapshot);
    checkRuns(readers, ends, tables, probes, count);
    BatchScratch s = SCRATCH.get().grownTo(count);
    int located = 0;
    try {
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        s.touched += readers[t].filters().findChunks(probes, from, ends[t], s.admitted, s.chunk);
      }
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        s.touched += readers[t].filters().touchFilters(probes, from, ends[t], s.admitted, s.chunk, s.filters, s.counts);
      }
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        readers[t].filters().probeFilters(probes, from, ends[t], s.admitted, s.chunk, s.filters, s.counts);
      }
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        IndexReader index = readers[t].index();
        if (index.searchesInLockStep()) {
          s.touched += index.findPartitions(probes, from, ends[t], snapshot, s.admitted, s.partition, s.search);
        }
      }
      int searched = 0;
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        searched = locateIndexBlocks(readers[t].index(), t, probes, from, ends[t], snapshot, s, searched);
      }
      searchEntriesTogether(probes, snapshot, s, searched);
      for (int k = 0; k < searched; k++) { // slot located <= k: each slot is read before rewritten
        if (readers[s.table[k]].index().skipEndedPartitions(s.moveTo(k), s.partitions)) {
          s.keep(located++, s.table[k], s.probe[k], s.at);
        }
      }
      fetchDataBlocks(readers, s, located);
      touchBlocks(probes, snapshot, s, located);
      for (int t = 0, from = 0, k = 0; t < tables; from = ends[t++]) {
        k = scanAll(readers[t].lookup(), probes, from, ends[t], snapshot, s, out, k, located);
      }
    } finally {
      s.counts.flush(); // the batch's counts, also when a table failed
      s.release(located);
    }
  }

  private static void checkRuns(TableReader[] readers, int[] ends, int tables, FilterProbe[] probes, int count) {
    int from = 0;
    for (int t = 0; t < tables; t++) {
      readers[t].checkOpen();
      if (!readers[t].fetcher().sharesCacheWith(readers[0].fetcher())) {
        throw new IllegalArgumentException("the tables of a batch must share one cache");
      }
      if (ends[t] < from || ends[t] > count) {
        throw new IllegalArgumentException("run " + t + " ends at " + ends[t] + ", outside [" + from + ", " + count + "]");
      }
      for (int i = from + 1; i < ends[t]; i++) {
        assert inOrder(probes[i - 1], probes[i]) : "probes out of order at " + i;
      }
      from = ends[t];
    }
    if (from != count) {
      throw new IllegalArgumentException("the runs end at " + from + ", not at " + count);
    }
  }

  private static boolean inOrder(FilterProbe a, FilterProbe b) {
    int c = UnsignedBytes.compare(a.row(), b.row());
    return c < 0 || c == 0 && UnsignedBytes.compare(a.column(), b.column()) <= 0;
  }

  /**
   * The second part of the index stage for table {@code table}'s run {@code probes[from, to)}: puts
   * each probe the filter admitted for its cell in a slot ({@code searched} on) with its index
   * block, and returns the next free slot. In an index searched in lock step its partition (found by
   * {@link IndexReader#findPartitions}), its entry left for {@link #searchEntriesTogether};
   * otherwise the index searched whole, each probe's search starting where the previous one's ended.
   * A probe past the table's last key gets no slot.
   */
  private static int locateIndexBlocks(IndexReader index, int table, FilterProbe[] probes, int from, int to,
      long snapshot, BatchScratch s, int searched) throws IOException {
    IndexReader.Position at = s.at.reset();
    boolean lockStep = index.searchesInLockStep();
    int hits = 0; // counted once for the run: see BlockCache#blockOfUncounted
    for (int i = from; i < to; i++) {
      if (lockStep && s.partition[i] >= 0) {
        int top = s.partition[i];
        Block block;
        if (at.index() != null && at.top() == top) {
          block = at.index();
        } else {
          block = index.keptPartitionUncounted(top);
          if (block != null) {
            hits++;
          } else {
            block = index.partition(top, s.partitions);
          }
        }
        s.unsearched[searched] = true;
        s.keep(searched++, table, i, at.moveTo(top, block, 0, -1));
      } else if (!lockStep && s.admitted[i].cellMaybe()
          && index.locate(s.search.target(probes[i].row(), probes[i].column(), snapshot), at, s.partitions)) {
        s.unsearched[searched] = false;
        s.keep(searched++, table, i, at);
      }
    }
    index.countKeptHits(hits, s.counts);
    return searched;
  }

  /**
   * Finds the entry of each slot {@code k < count} left unsearched ({@code s.entry[k] =
   * firstRestartAtOrAfter(s.index[k])} for its probe's target) by binary searches in lock step:
   * every search's next entry is touched before any is compared (its row head, {@link
   * Block#touchRowHead}, in an index block that keeps them, else its key, {@link
   * Block#touchRestartKey}), so the misses of all the batch's searches, in all its tables, are in
   * flight together. A search by row heads reads no entry's bytes, so a last step touches every
   * chosen entry, whose handle {@link #fetchDataBlocks} reads.
   */
  private static void searchEntriesTogether(FilterProbe[] probes, long snapshot, BatchScratch s, int count) {
    int[] lo = s.entry;
    int[] hi = s.hi;
    PointSearch search = s.search;
    for (int k = 0; k < count; k++) {
      if (!s.unsearched[k]) {
        hi[k] = lo[k]; // located already
        continue;
      }
      Block index = s.index[k];
      FilterProbe p = probes[s.probe[k]];
      int placed = search.target(p.row(), p.column(), snapshot).placeRow(index, 0);
      if (placed >= 0) {
        lo[k] = placed; // the shared row prefix decided
        hi[k] = placed;
        continue;
      }
      lo[k] = 0;
      hi[k] = index.restartCount;
      s.byHeads[k] = placed == PointSearch.BY_HEADS;
      if (s.byHeads[k]) {
        s.head[k] = search.rowHead(index);
      }
    }
    int touched = 0;
    for (boolean more = count > 0; more; ) {
      for (int k = 0; k < count; k++) {
        if (lo[k] < hi[k]) {
          int mid = (lo[k] + hi[k]) >>> 1;
          touched += s.byHeads[k] ? s.index[k].touchRowHead(mid) : s.index[k].touchRestartKey(mid);
        }
      }
      more = false;
      for (int k = 0; k < count; k++) {
        if (lo[k] < hi[k]) {
          int mid = (lo[k] + hi[k]) >>> 1;
          FilterProbe p = probes[s.probe[k]];
          search.target(p.row(), p.column(), snapshot);
          int c = s.byHeads[k]
              ? search.compareRestartHead(s.index[k], mid, s.head[k])
              : search.compareRestartKey(s.index[k], mid);
          if (c > 0) {
            lo[k] = mid + 1;
          } else {
            hi[k] = mid;
          }
          more |= lo[k] < hi[k];
        }
      }
    }
    for (int k = 0; k < count; k++) {
      Block index = s.index[k];
      if (index.isCompactIndex()) {
        if (s.unsearched[k]) { // from the restart point found to the entry, in place
          FilterProbe p = probes[s.probe[k]];
          search.target(p.row(), p.column(), snapshot).seekCompact(index, lo[k], s.entryScratch);
          lo[k] = s.entryScratch.pos();
          s.dataOffset[k] = s.entryScratch.dataOffset();
        }
      } else if (lo[k] < index.restartCount) {
        touched += index.touchRestartKey(lo[k]);
      }
    }
    s.touched += touched;
  }

  /**
   * The data blocks of the located slots {@code [0, located)} into {@code s.data}, each fetched once
   * for the slots in it: the cache looks them all up together, whichever tables they lie in ({@link
   * dev.strata.sstable.cache.BlockCache#getAllIfPresent}, so their misses in the processor's caches
   * overlap); the blocks held off the heap have their first bytes read before any is copied (each
   * is a random few KiB of gigabytes of memory, whose first read misses the processor's caches and
   * its TLB: reading them first puts those misses in flight together), then are copied without a
   * reference ({@link OffHeapCopy#copyUnreferenced}); then the blocks the cache lacks, or that went
   * while they were copied, are loaded one by one.
   */
  private static void fetchDataBlocks(TableReader[] readers, BatchScratch s, int located) throws IOException {
    int blocks = 0;
    for (int k = 0; k < located; k++) {
      if (!sameBlockAsPrevious(s, k)) {
        s.files[blocks] = readers[s.table[k]].fetcher().fileNumber();
        s.offsets[blocks++] = s.dataOffset[k];
      }
    }
    if (blocks == 0) {
      return;
    }
    readers[0].fetcher().dataBlocksIfPresent(s.files, s.offsets, blocks, s.cached, s.views);
    try {
      copyOffHeap(readers, s, located, blocks);
      for (int k = 0, b = -1; k < located; k++) {
        if (sameBlockAsPrevious(s, k)) {
          s.data[k] = s.data[k - 1]; // keys in one data block fetch it once
          continue;
        }
        b++;
        TableReader reader = readers[s.table[k]];
        Block block = s.cached[b] instanceof Block onHeap && onHeap.type() == BlockType.DATA
            ? onHeap : null; // another kind at the offset: damage, which the load reports
        if (block != null) {
          s.counts.hits(reader.counters(), BlockKind.DATA, 1);
        } else { // absent, or gone off the heap since: read into the batch's block b
          block = reader.index().dataBlockInto(s.moveTo(k), s.copy(b));
        }
        s.data[k] = block;
      }
    } finally {
      Arrays.fill(s.cached, 0, blocks, null);
    }
  }

  /**
   * Replaces each off-heap block in {@code s.cached[0, blocks)} by its copy on the heap, or by null
   * (a miss) when it went while it was copied: each block's section of unreferenced reads opened
   * first ({@link OffHeapBlock#beginUnreferencedRead}: a locked instruction, which would wait for a
   * read before it), then the first byte of each read, then each copied. No reference is taken:
   * every core reading a hot block would write its count.
   */
  private static void copyOffHeap(TableReader[] readers, BatchScratch s, int located, int blocks) {
    int opened = 0;
    try {
      for (; opened < blocks; opened++) {
        if (s.cached[opened] instanceof OffHeapBlock o) {
          o.beginUnreferencedRead();
        }
      }
      int touched = 0;
      for (int b = 0; b < blocks; b++) {
        if (s.cached[b] instanceof OffHeapBlock o) {
          touched += o.peek(0);
        }
      }
      s.touched += touched;
      for (int k = 0, b = -1; k < located; k++) {
        if (!sameBlockAsPrevious(s, k) && s.cached[++b] instanceof OffHeapBlock o) {
          Block copy = readers[s.table[k]].fetcher().copyUnreferenced(o, s.copy(b), s.offsets[b]);
          o.endUnreferencedRead();
          s.cached[b] = copy; // the section ends with the view's last use
        }
      }
    } finally {
      for (int b = 0; b < opened; b++) { // after a throw: the sections still open
        if (s.cached[b] instanceof OffHeapBlock o) {
          o.endUnreferencedRead();
        }
      }
    }
  }

  /** Whether slot {@code k} lies in the data block of slot {@code k - 1} (an index block belongs to one table). */
  private static boolean sameBlockAsPrevious(BatchScratch s, int k) {
    return k > 0 && s.index[k] == s.index[k - 1] && s.entry[k] == s.entry[k - 1];
  }

  /**
   * Touches the located slots' data blocks' restart points, then finds each slot's restart interval
   * ({@link PointSearch#interval}, into {@code s.interval}) and touches it.
   */
  private static void touchBlocks(FilterProbe[] probes, long snapshot, BatchScratch s, int located) {
    int touched = 0;
    for (int k = 0; k < located; k++) {
      if (k == 0 || s.data[k] != s.data[k - 1]) {
        touched += s.data[k].touchRestarts();
      }
    }
    for (int k = 0; k < located; k++) {
      int i = s.probe[k];
      s.interval[k] = s.search.target(probes[i].row(), probes[i].column(), snapshot).interval(s.data[k]);
      touched += PointSearch.touch(s.data[k], s.interval[k]);
    }
    s.touched += touched;
  }

  /**
   * The last stage for one table's run {@code probes[from, to)}: each located probe's cell scanned
   * from its interval, then every admitted probe's lookup finished ({@link PointLookup#finish}) into
   * {@code out}. {@code k} is the slot of the run's first located probe; returns the next run's.
   */
  private static int scanAll(PointLookup lookup, FilterProbe[] probes, int from, int to, long snapshot,
      BatchScratch s, CellLookup[] out, int k, int located) throws IOException {
    for (int i = from; i < to; i++) {
      CellLookup found = out[i];
      found.clear();
      Admission admission = s.admitted[i];
      if (!admission.cellMaybe() && !admission.rowTombstoneMaybe()) {
        continue; // out of range, or skipped
      }
      found.searchedBlocks();
      boolean cell = false;
      if (k < located && s.probe[k] == i) {
        s.search.target(probes[i].row(), probes[i].column(), snapshot);
        cell = lookup.scanFrom(s.search, false, s.moveTo(k), s.data[k], s.interval[k]);
        k++;
      }
      lookup.finish(probes[i], admission, snapshot, s.search, cell, s.at, found);
    }
    return k;
  }

  /**
   * A batch's arrays, one set per thread, reused by every batch and table, grown to the largest
   * batch seen. Per-probe arrays are indexed as the batch's probes are; slots {@code [0, located)}
   * are the probes located in the index, in the batch's order, each with its table, index block,
   * entry, data block and restart interval at the same index.
   */
  private static final class BatchScratch {
    final PointSearch search = new PointSearch();
    final IndexReader.Position at = new IndexReader.Position();
    final BatchCounts counts = new BatchCounts();
    /** A one-table batch's reader and run end. */
    final TableReader[] oneTable = new TableReader[1];
    final int[] oneEnd = new int[1];
    final Admission[] admitted;
    /** Each probe's filter chunk, and the chunk itself between the filter stages. */
    final int[] chunk;
    final FilterChunk[] filters;
    /** Each probe's index partition in a table searched in lock step (-1: none to search). */
    final int[] partition;
    final int[] probe;
    /** Each slot's table: its reader's index in the batch's readers. */
    final int[] table;
    final int[] top;
    final Block[] index;
    final int[] entry;
    /** Each slot's data block offset (a compact index's entry is its offset and this; see {@link IndexEntry#moveTo}). */
    final long[] dataOffset;
    /** Where a compact index block's search ends ({@link PointSearch#seekCompact}). */
    final IndexEntry entryScratch = new IndexEntry();
    /** Whether each slot's entry is left to the lock-step search, and that search's upper bounds. */
    final boolean[] unsearched;
    final int[] hi;
    /** Whether each lock-step search compares row heads, and the target's head in its index block. */
    final boolean[] byHeads;
    final long[] head;
    final Block[] data;
    /** The files and offsets of the distinct data blocks, and what the cache holds for each. */
    final long[] files;
    final long[] offsets;
    final CachedBlock[] cached;
    /** The views the cache aims at the distinct data blocks it holds off the heap, one each. */
    final OffHeapBlock[] views;
    final long[] interval;
    /** What the distinct data blocks held off the heap are copied into, one each, made when first needed. */
    private final Block[] copies;
    final PartitionCopies partitions = new PartitionCopies(); // the partitions held off the heap, copied
    /** The sum of the bytes touched, kept so the compiler keeps the reads ({@link Block#touch}). */
    int touched;

    BatchScratch(int n) {
      admitted = new Admission[n];
      chunk = new int[n];
      filters = new FilterChunk[n];
      partition = new int[n];
      probe = new int[n];
      table = new int[n];
      top = new int[n];
      index = new Block[n];
      entry = new int[n];
      dataOffset = new long[n];
      unsearched = new boolean[n];
      hi = new int[n];
      byHeads = new boolean[n];
      head = new long[n];
      data = new Block[n];
      files = new long[n];
      offsets = new long[n];
      cached = new CachedBlock[n];
      views = new OffHeapBlock[n];
      Arrays.setAll(views, i -> new OffHeapBlock());
      interval = new long[n];
      copies = new Block[n];
    }

    /** This thread's scratch, replaced by a larger one when it holds fewer than {@code n} probes. */
    BatchScratch grownTo(int n) {
      if (admitted.length >= n) {
        return this;
      }
      BatchScratch grown = new BatchScratch(Math.max(n, 2 * admitted.length));
      SCRATCH.set(grown);
      return grown;
    }

    /** The reusable block for the batch's distinct data block {@code b}. */
    Block copy(int b) {
      Block c = copies[b];
      if (c == null) {
        c = OffHeapCopy.reusableBlock();
        copies[b] = c;
      }
      return c;
    }

    /** Keeps probe {@code probe} of table {@code table}, at position {@code at}, in slot {@code k}. */
    void keep(int k, int table, int probe, IndexReader.Position at) {
      this.probe[k] = probe;
      this.table[k] = table;
      top[k] = at.top();
      index[k] = at.index();
      entry[k] = at.entry();
      dataOffset[k] = at.dataOffset();
    }

    /** {@link #at} moved to the position kept in slot {@code k}. */
    IndexReader.Position moveTo(int k) {
      return at.moveTo(top[k], index[k], entry[k], dataOffset[k]);
    }

    /** Drops the batch's blocks, so a thread's scratch does not keep them from the collector. */
    void release(int located) {
      Arrays.fill(index, 0, located, null);
      Arrays.fill(data, 0, located, null);
      partitions.reset();
    }
  }
}
