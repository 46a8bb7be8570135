package dev.strata.engine.read;

import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.CellLookup;
import dev.strata.sstable.filter.FilterProbe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One deeper level of a cold batched Get ({@link BatchedGets}), its tables' reads overlapped
 * ({@link OverlappedReads}): the level's tables are disjoint, so each table's run of the batch's
 * keys is independent of the others', and a run of several keys splits into parts that are too
 * (each part a sorted run of its own, {@link dev.strata.sstable.TableReader#getAll}'s input). The
 * parts run at once, each reading its filter chunks, index partitions and data blocks through the
 * block cache as a sequential batch would; two parts that need one block load it once (the cache
 * loads a block once for concurrent misses) at worst one waiting for the other.
 *
 * <p>Parts hold at most {@code ceil(keys / (helpers + 1))} keys, so every thread gets work and keys
 * that share blocks mostly stay together.
 *
 * <p>Not thread-safe: belongs to one batch on its thread, for one level.
 */
final class OverlappedLevel {
  private final OverlappedReads reads;
  private final List<TableRef> tables = new ArrayList<>();
  /** Run {@code r} of the level: positions [from[r], to[r]) of the batch's pending keys. */
  private int[] from = new int[8];
  private int[] to = new int[8];

  OverlappedLevel(OverlappedReads reads) {
    this.reads = reads;
  }

  /**
   * Whether a batch whose first and last undecided keys are {@code first} and {@code last} should
   * overlap its deeper levels: the first table below level 0 that may hold the first key is probed
   * (its filter chunk, which the batch reads anyway), and the batch is cold when that took long
   * enough to have waited on the device ({@link OverlappedReads#isCold}). A slow first probe is
   * checked on the last key's table, when that is another: the first filter probe of a batch in a
   * fresh JVM can take that long with the page cache warm (class and code loading), and a batch
   * taken for cold starts its helper threads for reads that need none (a first batch of 64 keys
   * after an open took 12-17 ms against 3-6 without that).
   */
  static boolean isCold(OverlappedReads reads, Version version, FilterProbe first, FilterProbe last)
      throws IOException {
    TableRef t = deeperTableCovering(version, first);
    if (t == null || !probedSlowly(reads, t, first)) {
      return false;
    }
    TableRef other = deeperTableCovering(version, last);
    return other == null || other == t || probedSlowly(reads, other, last);
  }

  /** The first table below level 0 that may hold {@code probe}'s row; null if none. */
  private static TableRef deeperTableCovering(Version version, FilterProbe probe) {
    for (int level = 1; level < Version.NUM_LEVELS; level++) {
      TableRef t = version.tableCovering(level, probe.row());
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  /** Whether probing {@code t}'s filter for {@code probe} waited on the device. */
  private static boolean probedSlowly(OverlappedReads reads, TableRef t, FilterProbe probe)
      throws IOException {
    long start = System.nanoTime();
    t.mayContain(probe);
    return reads.isCold(start);
  }

  /** Adds table {@code t}'s run: positions [runFrom, runTo) of the keys, {@code runFrom < runTo}. */
  void add(TableRef t, int runFrom, int runTo) {
    if (tables.size() == from.length) {
      from = Arrays.copyOf(from, from.length * 2);
      to = Arrays.copyOf(to, to.length * 2);
    }
    from[tables.size()] = runFrom;
    to[tables.size()] = runTo;
    tables.add(t);
  }

  /**
   * Asks every table added its run of {@code probes[0, count)} (in key order), the runs split in
   * parts that run at once: {@code out[j]} holds the answer for {@code probes[j]}, absent where no
   * table was asked. Throws what the first failed read threw.
   */
  void getAll(FilterProbe[] probes, int count, long snapshot, CellLookup[] out) throws IOException {
    for (int j = 0; j < count; j++) {
      out[j].clear();
    }
    int keys = 0;
    for (int r = 0; r < tables.size(); r++) {
      keys += to[r] - from[r];
    }
    int partKeys = Math.max(1, -Math.floorDiv(-keys, reads.maxHelpers() + 1));
    List<int[]> parts = new ArrayList<>(); // {run, first position, end position}
    for (int r = 0; r < tables.size(); r++) {
      for (int p = from[r]; p < to[r]; p += partKeys) {
        parts.add(new int[] {r, p, Math.min(to[r], p + partKeys)});
      }
    }
    reads.runAll(parts.size(), i -> {
      int[] part = parts.get(i);
      int n = part[2] - part[1];
      // The part's own holders, filled in place: disjoint parts, so no two tasks fill one.
      tables.get(part[0]).getAll(Arrays.copyOfRange(probes, part[1], part[2]), n, snapshot,
          Arrays.copyOfRange(out, part[1], part[2]));
    });
  }
}
