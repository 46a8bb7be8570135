package dev.strata.sstable;

import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockKind;
import java.util.concurrent.atomic.LongAdder;

/**
 * What table reads cost, counted step by step. One instance may be shared by all readers of a
 * database (pass it to {@link TableReader#open(java.nio.file.Path, long, BlockCache, ReadCounters)}):
 * the engine sums it into its stats. Which call counts what:
 *
 * <ul>
 *   <li>{@code tablesConsulted}: {@link TableReader#get} calls whose row lies in the table's row range;
 *   <li>{@code tablesSkippedByFilter}: of those, the ones the filter answered "absent" (no chunk could
 *       hold the key, or the chunk said no, and under {@code ROWCOL} no row tombstone may hide it);
 *   <li>{@code filterFalsePositives}: of those not skipped, in a table that has a filter, the ones that
 *       found neither an entry of the cell nor a row tombstone visible at the snapshot;
 *   <li>{@code filterChunksRead} / {@code filterChunkCacheHits}: filter chunks loaded from disk / served
 *       by the block cache; {@code filterChunksCorrupt}: chunks that failed their checksum and were
 *       read as "maybe present";
 *   <li>{@code indexBlocksRead} / {@code indexBlockCacheHits}, {@code dataBlocksRead} / {@code
 *       dataBlockCacheHits}: the same for index and data blocks, by Gets and iterators;
 *   <li>{@code bytesRead}: bytes read from table files for blocks (trailers included) by Gets and
 *       iterators, and by nothing else;
 *   <li>{@code bytesReadAtOpen}: bytes {@link TableReader#open} reads: the footer, the properties,
 *       the filter index, the row-tombstone filter and the index block (when the cache lacks it),
 *       trailers included. (The index block an open loads still counts in {@code indexBlocksRead}: a
 *       block count; its bytes count here.)
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class ReadCounters {
  /**
   * Tables consulted whose filter did not skip them. {@code tablesConsulted} is this plus {@link
   * #tablesSkippedByFilter}: a skipped table, the common case of a Get, costs one atomic add, not
   * two (each add is a locked instruction on the Get path).
   */
  private final LongAdder tablesAdmitted = new LongAdder();
  private final LongAdder tablesSkippedByFilter = new LongAdder();
  private final LongAdder filterFalsePositives = new LongAdder();
  private final LongAdder filterChunksRead = new LongAdder();
  private final LongAdder filterChunkCacheHits = new LongAdder();
  private final LongAdder filterChunksCorrupt = new LongAdder();
  private final LongAdder indexBlocksRead = new LongAdder();
  private final LongAdder indexBlockCacheHits = new LongAdder();
  private final LongAdder dataBlocksRead = new LongAdder();
  private final LongAdder dataBlockCacheHits = new LongAdder();
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder bytesReadAtOpen = new LongAdder();

  /** The counters now. */
  public TableReadStats snapshot() {
    long skipped = tablesSkippedByFilter.sum(); // read once: consulted counts it too
    return new TableReadStats(
        tablesAdmitted.sum() + skipped,
        skipped,
        filterFalsePositives.sum(),
        filterChunksRead.sum(),
        filterChunkCacheHits.sum(),
        filterChunksCorrupt.sum(),
        indexBlocksRead.sum(),
        indexBlockCacheHits.sum(),
        dataBlocksRead.sum(),
        dataBlockCacheHits.sum(),
        bytesRead.sum(),
        bytesReadAtOpen.sum());
  }

  /** Counts a table consulted whose filter did not skip it. */
  void countAdmitted() {
    tablesAdmitted.increment();
  }

  /** Counts a table consulted whose filter skipped it. */
  void countSkipped() {
    tablesSkippedByFilter.increment();
  }

  /** Counts a batch's tables consulted, {@code admitted} and {@code skipped}, at once. */
  void countTables(long admitted, long skipped) {
    if (admitted != 0) {
      tablesAdmitted.add(admitted);
    }
    if (skipped != 0) {
      tablesSkippedByFilter.add(skipped);
    }
  }

  /** Counts a lookup the filter admitted that found nothing. */
  void countFalsePositive() {
    filterFalsePositives.increment();
  }

  /** Counts a filter chunk (or row-tombstone filter) that failed its checks and read as "maybe". */
  void countCorruptFilter() {
    filterChunksCorrupt.increment();
  }

  /** Counts {@code bytes} read by a table's open. */
  void countReadAtOpen(long bytes) {
    bytesReadAtOpen.add(bytes);
  }

  /** Counts one block load of {@code kind} that read {@code bytes} from disk. */
  void countRead(BlockKind kind, long bytes) {
    switch (kind) {
      case DATA -> dataBlocksRead.increment();
      case INDEX -> indexBlocksRead.increment();
      case FILTER -> filterChunksRead.increment();
    }
    bytesRead.add(bytes);
  }

  /** Counts {@code n} blocks of {@code kind} served by the cache (a batch's, counted together). */
  void countHits(BlockKind kind, long n) {
    switch (kind) {
      case DATA -> dataBlockCacheHits.add(n);
      case INDEX -> indexBlockCacheHits.add(n);
      case FILTER -> filterChunkCacheHits.add(n);
    }
  }

  /** Counts one block of {@code kind} served by the cache. */
  void countHit(BlockKind kind) {
    countHits(kind, 1);
  }
}
