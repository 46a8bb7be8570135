package dev.strata.sstable;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.PointSearch;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;

/**
 * The index and data part of one table's point lookup, after its filters admitted it ({@link
 * Admission}): the cell's newest visible entry, sought through the index ({@link IndexReader}) and
 * the data block it names, on into the next blocks while the cell's entries run past a block's end;
 * then, when a row tombstone may hide the cell, the row's newest visible row tombstone; the outcome
 * into a {@link CellLookup}. Blocks are searched in place ({@link PointSearch}): no cursor and no
 * decoded key. A lookup the filter admitted that finds nothing is counted as a false positive.
 *
 * <p>Thread-safe: a lookup's state (its search and index position) is its thread's, re-aimed by
 * each lookup, so a Get allocates none.
 */
final class PointLookup {
  private static final byte[] EMPTY = new byte[0];

  /** Each thread's search and position: a lookup runs on one thread and starts no other. */
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private final IndexReader index;
  private final ReadCounters counters;
  /** Whether the table has a filter: only then is a lookup that finds nothing a false positive. */
  private final boolean countsFalsePositives;

  PointLookup(IndexReader index, ReadCounters counters, boolean countsFalsePositives) {
    this.index = index;
    this.counters = counters;
    this.countsFalsePositives = countsFalsePositives;
  }

  /** Refuses a snapshot outside [0, {@link InternalKey#MAX_SEQUENCE}]. */
  static void checkSnapshot(long snapshot) {
    if (snapshot < 0 || snapshot > InternalKey.MAX_SEQUENCE) {
      throw new IllegalArgumentException("snapshot must be in [0, MAX_SEQUENCE]: " + snapshot);
    }
  }

  /**
   * What the table holds for {@code probe} at {@code snapshot} that {@code admission} asks for, into
   * {@code out} (clear on entry).
   */
  void get(FilterProbe probe, Admission admission, long snapshot, CellLookup out) throws IOException {
    Scratch s = SCRATCH.get();
    PointSearch search = s.search;
    boolean found = admission.cellMaybe()
        && find(search.target(probe.row(), probe.column(), snapshot), false, s.at.reset());
    finish(probe, admission, snapshot, search, found, s.at, out);
  }

  /**
   * The rest of a lookup whose cell search {@code found} the cell's entry (held by {@code search})
   * or not: the cell recorded, the row tombstone sought when {@code admission} asks, and the false
   * positive counted, into {@code out} (clear on entry). {@code at} is scratch. Shared by the Get
   * and the batch, which searches its cells together first.
   */
  void finish(FilterProbe probe, Admission admission, long snapshot, PointSearch search, boolean found,
      IndexReader.Position at, CellLookup out) throws IOException {
    if (found) {
      out.cell(search.sequence(), search.kind(), search.value());
    }
    // From the start: (row, empty column) may sort before the cell of an earlier probe.
    if (admission.rowTombstoneMaybe() && find(search.target(probe.row(), EMPTY, snapshot), true, at.reset())) {
      out.rowTombstone(search.sequence());
    }
    if (out.isAbsent() && countsFalsePositives) {
      counters.countFalsePositive();
    }
  }

  /**
   * Runs {@code search} through the index from {@code at} on and the data blocks it names: whether
   * it found the wanted entry (a row tombstone when {@code rowTombstone}).
   */
  private boolean find(PointSearch search, boolean rowTombstone, IndexReader.Position at) throws IOException {
    return index.locate(search, at, null) && scanFrom(search, rowTombstone, at, null, 0);
  }

  /**
   * The data part of a search located at {@code at}: scans the data block {@code at} names, and the
   * blocks after it while the cell runs on; whether it found the wanted entry. A batch passes the
   * first block ({@code data}, which {@code at} names) and its {@code interval} ({@link
   * PointSearch#interval}) found beforehand; a Get passes null. Later blocks come through this
   * thread's scratch block. One call site of the block fetch: the Get's path is compiled into its
   * caller, whose inlining budget a second copy of the fetch (and its cache-miss path) would exceed.
   */
  boolean scanFrom(PointSearch search, boolean rowTombstone, IndexReader.Position at, Block data, long interval)
      throws IOException {
    boolean continued = false;
    while (true) {
      if (data == null) {
        if (!index.skipEndedPartitions(at, null)) {
          return false;
        }
        data = index.dataBlock(at, true);
        interval = continued ? 0 : search.interval(data); // a next block's keys all lie above
      }
      int found = search.scan(data, interval, rowTombstone);
      if (found == PointSearch.STALE) { // read in place while evicted: the same block again, copied
        data = null;
        continue;
      }
      if (found != PointSearch.NEXT_BLOCK) {
        return found == PointSearch.FOUND;
      }
      at.next();
      data = null;
      continued = true;
    }
  }

  /** One thread's search and index position, re-aimed by each of its lookups. */
  private static final class Scratch {
    final PointSearch search = new PointSearch();
    final IndexReader.Position at = new IndexReader.Position();
  }
}
