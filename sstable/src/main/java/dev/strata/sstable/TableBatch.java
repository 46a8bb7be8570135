package dev.strata.sstable;

import static dev.strata.sstable.TableFilters.OUT_OF_RANGE;
import static dev.strata.sstable.TableFilters.SKIPPED;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.OffHeapCopy;
import dev.strata.sstable.block.PointSearch;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.Bytes;
import java.io.IOException;
import java.util.Objects;

/**
 * A batch of point lookups over one table or over the tables of a level ({@link
 * TableReader#getAll}), in stages, each run for every table's probes before the next begins: the
 * filter stages ({@link TableFilters}), each table's index partitions found and their blocks
 * taken, the lock-step search of the index entries, the data blocks looked up in the cache
 * together and copied off the heap, the touches of the blocks' bytes, and each table's scans.
 * Each stage's loads depend on nothing else of the same stage, so the whole batch's cache misses
 * are in flight together rather than one key's after another's. The searches are the single
 * Get's ({@link TableReader}'s {@code locate}, {@code scanFrom} and {@code finishLookup}).
 *
 * <p>Functions of the readers' state, as {@link TableFilters}' are, and stateless: a batch's
 * arrays are its thread's ({@link BatchScratch}).
 */
final class TableBatch {
  private TableBatch() {}

  /** See {@link TableReader#getAll(TableReader[], int[], int, FilterProbe[], int, long, CellLookup[])}. */
  static void getAll(TableReader[] readers, int[] ends, int tables, FilterProbe[] probes,
      int count, long snapshot, CellLookup[] out) throws IOException {
    Objects.requireNonNull(readers, "readers");
    Objects.requireNonNull(ends, "ends");
    Objects.requireNonNull(probes, "probes");
    Objects.requireNonNull(out, "out");
    Objects.checkFromIndexSize(0, tables, Math.min(readers.length, ends.length));
    Objects.checkFromIndexSize(0, count, Math.min(probes.length, out.length));
    TableReader.checkSnapshot(snapshot);
    checkRuns(readers, ends, tables, probes, count);
    TableReader.Lookup lookup = TableReader.lookup();
    BatchScratch s = lookup.batch(count);
    int located = 0;
    try {
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        TableFilters.findChunks(readers[t], probes, from, ends[t], s);
      }
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        TableFilters.touchFilters(readers[t], probes, from, ends[t], s);
      }
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        TableFilters.probeFilters(readers[t], probes, from, ends[t], s);
      }
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        findPartitions(readers[t], probes, from, ends[t], snapshot, s, lookup.search);
      }
      int searched = 0;
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        searched = locateIndexBlocks(readers[t], probes, from, ends[t], snapshot, s, t, lookup, searched);
      }
      searchEntriesTogether(probes, snapshot, s, searched, lookup.search);
      TableReader.Position at = lookup.at;
      for (int k = 0; k < searched; k++) { // slot located <= k: each slot is read before rewritten
        int i = s.probe[k];
        int t = s.table[k];
        s.moveTo(k, at);
        int r = readers[t].skipEndedPartitions(at);
        if (r == TableReader.LOCATED) {
          s.keep(located++, t, i, at);
        } else {
          s.cell[i] = r;
        }
      }
      fetchDataBlocks(readers, s, located, at);
      touchBlocks(probes, snapshot, s, located, lookup.search);
      for (int t = 0, from = 0, k = 0; t < tables; from = ends[t++]) {
        k = scanAll(readers[t], probes, from, ends[t], snapshot, lookup, out, k, located);
      }
    } finally {
      s.flushCounts(); // the batch's counts, also when a table failed: see BatchScratch#flushCounts
      s.release(located);
    }
  }

  /** Checks {@link #getAll}'s runs. */
  private static void checkRuns(TableReader[] readers, int[] ends, int tables, FilterProbe[] probes,
      int count) {
    int from = 0;
    for (int t = 0; t < tables; t++) {
      readers[t].checkOpen();
      if (readers[t].cache != readers[0].cache) {
        throw new IllegalArgumentException("the tables of a batch must share one cache");
      }
      if (ends[t] < from || ends[t] > count) {
        throw new IllegalArgumentException("run " + t + " ends at " + ends[t] + ", outside ["
            + from + ", " + count + "]");
      }
      for (int i = from + 1; i < ends[t]; i++) {
        assert TableReader.inOrder(probes[i - 1], probes[i]) : "probes out of order at " + i;
      }
      from = ends[t];
    }
    if (from != count) {
      throw new IllegalArgumentException("the runs end at " + from + ", not at " + count);
    }
  }

  /**
   * The first part of {@link #getAll}'s index stage for table {@code reader}'s run {@code
   * probes[from, to)}, when its index is searched in lock step ({@link #searchesInLockStep}): the
   * top level names each probe the filter admitted for its cell the partition to search ({@code
   * s.partition[i]}; -1 for every other probe, whose answer {@code s.cell[i]} then holds when the
   * search ended here), and the entries the reader keeps for those partitions are touched ({@link
   * KeptEntries#touch}), so that the misses of every table's partitions are in flight together
   * before {@link #locateIndexBlocks} takes them.
   */
  static void findPartitions(TableReader reader, FilterProbe[] probes, int from, int to,
      long snapshot, BatchScratch s, PointSearch search) {
    int[] admitted = s.admitted;
    boolean lockStep = searchesInLockStep(reader);
    int top = 0;
    for (int i = from; i < to; i++) {
      s.cell[i] = TableReader.NOT_SEARCHED;
      s.partition[i] = -1;
      if (!lockStep || !TableFilters.cellMaybe(admitted[i])) {
        continue;
      }
      // The search of the next probe, a larger target, starts from this one's partition.
      int p = reader.partitionOf(search.target(probes[i].row(), probes[i].column(), snapshot), top);
      if (p == TableReader.PAST_LAST_PARTITION) {
        s.cell[i] = PointSearch.ABSENT;
        continue;
      }
      top = p;
      s.partition[i] = p;
    }
    // A loop of its own, a few instructions an entry, so that the processor runs ahead into the
    // next entries' loads while the first ones miss (after a search it would not reach them).
    int touched = 0;
    for (int i = from, last = -1; i < to; i++) {
      int p = s.partition[i];
      if (p >= 0 && p != last) {
        touched += reader.partitions.touch(p);
        last = p;
      }
    }
    s.touched += touched;
  }

  /**
   * Whether the batch searches {@code reader}'s index in lock step ({@link
   * #searchEntriesTogether}): when it has a top level of {@link #LOCK_STEP_PARTITIONS} partitions
   * or more whose entries are all restart points.
   */
  private static boolean searchesInLockStep(TableReader reader) {
    Block top = reader.topIndex;
    return top != null && top.restartCount >= LOCK_STEP_PARTITIONS && PointSearch.allRestarts(top);
  }

  /**
   * The second part of {@link #getAll}'s index stage for table {@code reader}'s run {@code
   * probes[from, to)}: puts each probe the filter admitted for its cell in a slot ({@code searched}
   * on, with {@code table}, the reader's place in the batch) with its index block, and returns the
   * next free slot. In a lock-step index its partition ({@link #findPartitions}), the entry left
   * {@link #UNSEARCHED}; otherwise the index searched whole ({@link TableReader#locate}), each
   * probe's search starting where the previous one's ended ({@link TableReader.Position}). A probe
   * whose search ended in the index gets its answer in {@code s.cell}.
   */
  static int locateIndexBlocks(TableReader reader, FilterProbe[] probes, int from, int to,
      long snapshot, BatchScratch s, int table, TableReader.Lookup lookup, int searched)
      throws IOException {
    int[] admitted = s.admitted;
    PointSearch search = lookup.search;
    TableReader.Position at = lookup.at.reset();
    boolean lockStep = searchesInLockStep(reader);
    int hits = 0; // counted once for the run: see BlockCache#blockOfUncounted
    for (int i = from; i < to; i++) {
      if (lockStep && s.partition[i] >= 0) {
        int top = s.partition[i];
        Block index;
        if (at.index != null && at.top == top) {
          index = at.index;
        } else {
          index = reader.partitions.keptUncounted(top);
          if (index != null) {
            hits++;
          } else {
            index = reader.partitionAt(top);
          }
        }
        if (!PointSearch.allRestarts(index)) {
          s.cell[i] = TableReader.IN_PLACE_UNSUPPORTED;
          continue;
        }
        at.top = top;
        at.index = index;
        at.entry = UNSEARCHED;
        s.keep(searched++, table, i, at);
      } else if (!lockStep && TableFilters.cellMaybe(admitted[i])) {
        int answer = reader.locate(search.target(probes[i].row(), probes[i].column(), snapshot), at);
        if (answer == TableReader.LOCATED) {
          s.keep(searched++, table, i, at);
        } else {
          s.cell[i] = answer;
        }
      }
    }
    s.countKeptHits(reader.cache, reader.counters, BlockKind.INDEX, hits);
    return searched;
  }

  /** A batch slot's index entry that {@link #searchEntriesTogether} is yet to find. */
  static final int UNSEARCHED = -1;

  /**
   * The fewest index partitions for which {@link #locateIndexBlocks} leaves the entry search to the
   * lock step: about 256 KiB of index (a partition is about a block). A smaller index stays in the
   * processor's caches, where the lock step's extra passes cost more than the overlapped misses
   * save (MultiGetPairs, overlapping, 20,000 rows: +45 ns per key; 2,000,000 rows, ~115 partitions
   * per table: ratio 1.43 against 1.28 without).
   */
  static final int LOCK_STEP_PARTITIONS = 64;

  /**
   * The batch's distinct data block {@code b} as the cache holds it ({@code s.cached[b]}, an
   * off-heap one retained by {@link #retainOffHeap}) on the heap: itself, or copied into the
   * batch's reusable block {@code b} (its reference dropped with the batch's others, {@link
   * TableBatch#releaseOffHeap}). Null when the cache lacked it.
   */
  static Block onHeapInto(TableReader reader, BatchScratch s, int b) {
    CachedBlock cached = s.cached[b];
    return cached instanceof OffHeapBlock o
        ? OffHeapCopy.copyInto(o, s.copy(b), reader.path, s.offsets[b])
        : (Block) cached;
  }

  /**
   * The last stage of {@link #getAll} for table {@code reader}'s run {@code probes[from, to)}:
   * each located probe's cell scanned from its interval, then every admitted probe's lookup
   * finished ({@link TableReader#finishLookup}) into {@code out}. {@code k} is the slot of the
   * run's first located probe; returns the next run's.
   */
  static int scanAll(TableReader reader, FilterProbe[] probes, int from, int to, long snapshot,
      TableReader.Lookup lookup, CellLookup[] out, int k, int located) throws IOException {
    BatchScratch s = lookup.batch;
    PointSearch search = lookup.search;
    TableReader.Position at = lookup.at;
    for (int i = from; i < to; i++) {
      CellLookup found = out[i];
      found.clear();
      int admitted = s.admitted[i];
      if (admitted == OUT_OF_RANGE || admitted == SKIPPED) {
        continue;
      }
      int cell = s.cell[i];
      if (k < located && s.probe[k] == i) {
        s.moveTo(k, at);
        search.target(probes[i].row(), probes[i].column(), snapshot);
        cell = reader.scanFrom(search, false, at, s.data[k], s.interval[k], true);
        k++;
      }
      reader.finishLookup(probes[i], admitted, snapshot, lookup, cell, found);
    }
    return k;
  }

  /**
   * {@code s.entry[k] = firstRestartAtOrAfter(s.index[k])} for the target of each probe {@code
   * s.probe[k]}, {@code k < count}, whose entry is {@link #UNSEARCHED}, by binary searches in lock
   * step: every search's next entry is touched before any is compared (its row head, {@link
   * Block#touchRowHead}, in an index block that keeps them, else its key, {@link
   * Block#touchRestartKey}). One binary search is a chain of dependent reads, each of which may miss
   * the processor's caches; the touches of one step depend on nothing of the same step, so the
   * misses of all the batch's searches, in all its tables, are in flight together. A search by row
   * heads reads no entry's bytes, so a last step touches every chosen entry the same way.
   */
  private static void searchEntriesTogether(FilterProbe[] probes, long snapshot, BatchScratch s,
      int count, PointSearch search) {
    int[] lo = s.entry;
    int[] hi = s.hi;
    for (int k = 0; k < count; k++) {
      if (lo[k] != UNSEARCHED) {
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
      if (lo[k] < s.index[k].restartCount) {
        touched += s.index[k].touchRestartKey(lo[k]); // its handle, which fetchDataBlocks reads
      }
    }
    s.touched += touched;
  }

  /**
   * The data blocks of the located probes {@code s.probe[0, located)} into {@code s.data}, each
   * fetched once for the probes in it: the cache looks them all up together, whichever tables
   * they lie in ({@link BlockCache#getAllIfPresent}, so their misses in the processor's caches
   * overlap), then the blocks it lacks are loaded one by one. {@code at} is scratch.
   */
  private static void fetchDataBlocks(TableReader[] readers, BatchScratch s, int located,
      TableReader.Position at) throws IOException {
    int blocks = 0;
    for (int k = 0; k < located; k++) {
      if (!sameBlockAsPrevious(s, k)) {
        s.files[blocks] = readers[s.table[k]].fileNumber;
        s.offsets[blocks++] =
            Bytes.getU64(s.index[k].data, PointSearch.restartValueOffset(s.index[k], s.entry[k]));
      }
    }
    if (blocks == 0) {
      return;
    }
    readers[0].cache.getAllIfPresent(s.files, s.offsets, blocks, BlockKind.DATA, s.cached);
    retainOffHeap(s, blocks);
    try {
      for (int k = 0, b = -1; k < located; k++) {
        if (sameBlockAsPrevious(s, k)) {
          s.data[k] = s.data[k - 1]; // keys in one data block fetch it once
          continue;
        }
        b++;
        TableReader reader = readers[s.table[k]];
        Block block = onHeapInto(reader, s, b);
        if (block != null) {
          s.countHits(reader.counters, BlockKind.DATA, 1);
        } else { // absent, or released off the heap since: through the cache's loader
          s.moveTo(k, at);
          block = reader.dataBlock(at, false);
        }
        s.data[k] = block;
      }
    } finally {
      releaseOffHeap(s, blocks);
    }
  }

  /**
   * Takes a reference on each off-heap block in {@code s.cached[0, blocks)} and reads its first
   * byte, or drops it (null: a miss) when the cache released it meanwhile. The blocks are about
   * 4 KiB each at random places in gigabytes of slabs, so the first read of each misses the
   * processor's caches and its TLB; reading every block's first byte before copying any puts those
   * misses in flight together (64 random 4 KiB blocks of 3 GiB of direct buffers: 315-340 ns a
   * block copied against 495-525 without; see the README's "Batched Gets").
   */
  private static void retainOffHeap(BatchScratch s, int blocks) {
    for (int b = 0; b < blocks; b++) {
      if (s.cached[b] instanceof OffHeapBlock o && !o.retain()) {
        s.cached[b] = null;
      }
    }
    // Apart from the retains: each is a locked instruction, which would wait for the read before.
    int touched = 0;
    for (int b = 0; b < blocks; b++) {
      if (s.cached[b] instanceof OffHeapBlock o) {
        touched += o.get(0);
      }
    }
    s.touched += touched;
  }

  /**
   * Drops what {@code s.cached[0, blocks)} holds, and the references on its off-heap blocks: once
   * they are all copied (a release is a locked instruction, which between two copies would make
   * the second wait for the first), or when a table failed.
   */
  private static void releaseOffHeap(BatchScratch s, int blocks) {
    for (int b = 0; b < blocks; b++) {
      if (s.cached[b] instanceof OffHeapBlock o) {
        o.release();
      }
      s.cached[b] = null;
    }
  }

  /**
   * Whether located probe {@code k} lies in the data block of probe {@code k - 1} (an index block
   * belongs to one table, so the same one means the same table).
   */
  private static boolean sameBlockAsPrevious(BatchScratch s, int k) {
    return k > 0 && s.index[k] == s.index[k - 1] && s.entry[k] == s.entry[k - 1];
  }

  /**
   * Touches the located probes' data blocks' restart points, then finds each probe's restart
   * interval ({@link PointSearch#interval}, into {@code s.interval}) and touches it: see {@link
   * #getAll}'s last stage.
   */
  private static void touchBlocks(FilterProbe[] probes, long snapshot, BatchScratch s, int located,
      PointSearch search) {
    int touched = 0;
    for (int k = 0; k < located; k++) {
      if (k == 0 || s.data[k] != s.data[k - 1]) {
        touched += s.data[k].touchRestarts();
      }
    }
    for (int k = 0; k < located; k++) {
      int i = s.probe[k];
      s.interval[k] = search.target(probes[i].row(), probes[i].column(), snapshot).interval(s.data[k]);
      touched += PointSearch.touch(s.data[k], s.interval[k]);
    }
    s.touched += touched;
  }
}
