package dev.strata.sstable;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.PointSearch;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.Bytes;
import java.io.IOException;
import java.util.Objects;

/**
 * A batch of point lookups over one table or over the tables of a level ({@link
 * TableReader#getAll}), in stages, each run for every table's probes before the next begins: the
 * tables' own stages are theirs (filters in {@link TableFilters}; index blocks and the final
 * scans in {@link TableReader});
 * what spans tables is here: the lock-step search of the index entries, the data blocks looked up
 * in the cache together and copied off the heap, the touches of the blocks' bytes. Each stage's
 * loads depend on nothing else of the same stage, so the whole batch's cache misses are in flight
 * together rather than one key's after another's.
 *
 * <p>Stateless: a batch's arrays are its thread's ({@link BatchScratch}).
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
        readers[t].findPartitions(probes, from, ends[t], snapshot, s, lookup.search);
      }
      int searched = 0;
      for (int t = 0, from = 0; t < tables; from = ends[t++]) {
        searched = readers[t].locateIndexBlocks(probes, from, ends[t], snapshot, s, t, lookup, searched);
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
        k = readers[t].scanAll(probes, from, ends[t], snapshot, lookup, out, k, located);
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
   * {@code s.entry[k] = firstRestartAtOrAfter(s.index[k])} for the target of each probe {@code
   * s.probe[k]}, {@code k < count}, whose entry is {@link TableReader#UNSEARCHED}, by binary searches in lock
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
      if (lo[k] != TableReader.UNSEARCHED) {
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
        Block block = reader.onHeapInto(s, b);
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
