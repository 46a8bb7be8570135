package dev.strata.sstable;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.OffHeapCopy;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.filter.FilterChunk;
import java.util.Arrays;

/**
 * A batch's per-probe arrays ({@link TableBatch#getAll}), one set per thread ({@link TableReader.Lookup}), reused by
 * every batch and every table. Per-probe arrays are indexed as the batch's probes are; slots
 * {@code [0, located)} are the probes located in the index, in the batch's order, each with its
 * table, position, data block and restart interval at the same index.
 */
final class BatchScratch {
  final int[] admitted;
  final int[] chunks;
  /**
   * Each probe's filter chunk, between {@link TableFilters#touchFilters} and {@link
   * TableFilters#probeFilters}.
   */
  final FilterChunk[] filters;
  /** Each probe's cell search's answer when it ended in the index, else {@link TableReader#NOT_SEARCHED}. */
  final int[] cell;
  /**
   * Each probe's index partition between {@link TableBatch#findPartitions} and {@link
   * TableBatch#locateIndexBlocks}.
   */
  final int[] partition;
  final int[] probe;
  /** Each slot's table: its reader's index in the batch's readers. */
  final int[] table;
  final int[] top;
  final Block[] index;
  final int[] entry;
  /** The upper bounds of the lock-step searches ({@link TableBatch#searchEntriesTogether}). */
  final int[] hi;
  /**
   * Whether each lock-step search compares row heads, and the target's head in its index block
   * ({@link dev.strata.sstable.block.PointSearch#placeRow}).
   */
  final boolean[] byHeads;
  final long[] head;
  final Block[] data;
  /** The files and offsets of the distinct data blocks, and what the cache holds for each. */
  final long[] files;
  final long[] offsets;
  final CachedBlock[] cached;
  final long[] interval;
  /**
   * What the distinct data blocks held off the heap are copied into, one each ({@code
   * TableBatch.fetchDataBlocks}): kept by the thread, made when first needed.
   */
  private final Block[] copies;
  /** The sum of the bytes touched, kept so the compiler keeps the reads ({@link Block#touch}). */
  int touched;
  /**
   * Counts waiting to be added to {@code counting}: the batch adds them once per run of tables
   * that share one {@link ReadCounters} (an engine's tables all share one), not per table, where
   * its atomic adds were 2-4 % of a batch at 20M keys ({@link #countTables}, {@link #countHits},
   * {@link #flushCounts}).
   */
  private ReadCounters counting;
  private long tablesAdmitted;
  private long tablesSkipped;
  /** Cache hits by {@link BlockKind#ordinal}. */
  private final long[] hits = new long[BlockKind.values().length];

  BatchScratch(int n) {
    admitted = new int[n];
    chunks = new int[n];
    filters = new FilterChunk[n];
    cell = new int[n];
    partition = new int[n];
    probe = new int[n];
    table = new int[n];
    top = new int[n];
    index = new Block[n];
    entry = new int[n];
    hi = new int[n];
    byHeads = new boolean[n];
    head = new long[n];
    data = new Block[n];
    files = new long[n];
    offsets = new long[n];
    cached = new CachedBlock[n];
    interval = new long[n];
    copies = new Block[n];
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
  void keep(int k, int table, int probe, TableReader.Position at) {
    this.probe[k] = probe;
    this.table[k] = table;
    top[k] = at.top;
    index[k] = at.index;
    entry[k] = at.entry;
  }

  /** Moves {@code at} to the position kept in slot {@code k}. */
  void moveTo(int k, TableReader.Position at) {
    at.top = top[k];
    at.index = index[k];
    at.entry = entry[k];
  }

  /** Counts a table's admitted and skipped probes towards {@code counters}. */
  void countTables(ReadCounters counters, long admitted, long skipped) {
    countInto(counters);
    tablesAdmitted += admitted;
    tablesSkipped += skipped;
  }

  /** Counts {@code n} cache hits on blocks of {@code kind} towards {@code counters}. */
  void countHits(ReadCounters counters, BlockKind kind, long n) {
    countInto(counters);
    hits[kind.ordinal()] += n;
  }

  /**
   * Counts {@code n} hits on blocks of {@code kind} that a table's kept entries ({@link KeptEntries})
   * answered, in the shared cache's counters now and towards the table's {@code counters}.
   */
  void countKeptHits(BlockCache cache, ReadCounters counters, BlockKind kind, int n) {
    if (n > 0) {
      cache.countHits(kind, n);
      countHits(counters, kind, n);
    }
  }

  private void countInto(ReadCounters counters) {
    if (counters != counting) {
      flushCounts();
      counting = counters;
    }
  }

  /** Adds the counts waiting to their counters. */
  void flushCounts() {
    if (counting == null) {
      return;
    }
    if (tablesAdmitted != 0) {
      counting.tablesAdmitted.add(tablesAdmitted);
    }
    if (tablesSkipped != 0) {
      counting.tablesSkippedByFilter.add(tablesSkipped);
    }
    for (BlockKind kind : BlockKind.values()) {
      if (hits[kind.ordinal()] != 0) {
        counting.countHits(kind, hits[kind.ordinal()]);
        hits[kind.ordinal()] = 0;
      }
    }
    counting = null;
    tablesAdmitted = 0;
    tablesSkipped = 0;
  }

  /** Drops the batch's blocks, so a thread's scratch does not keep them from the collector. */
  void release(int located) {
    Arrays.fill(index, 0, located, null);
    Arrays.fill(data, 0, located, null);
  }
}
