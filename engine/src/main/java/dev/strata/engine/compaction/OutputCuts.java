package dev.strata.engine.compaction;

import dev.strata.engine.manifest.FileMetadata;
import java.util.Arrays;
import java.util.List;

/**
 * Where a compaction cuts its output tables, row by row: at the target size, and earlier at the
 * boundaries of the tables one level below the output (the grandparents), so each output overlaps
 * few of them and its own later compaction rewrites less of that level.
 */
/*
 * Design: RocksDB's CompactionOutputs::ShouldStopBefore with level_compaction_dynamic_file_size
 * (its default), on rows: Strata cuts only between rows, and no row spans two tables of a level.
 *
 * An output may grow to twice the target when grandparents exist (so it can wait for a boundary),
 * and is cut when its next row crosses a grandparent boundary (a table's first or last row) and
 *  - the output with the grandparent bytes it overlaps would exceed maxCompactionBytes (25 times
 *    the target, RocksDB's default), so no later compaction of it is larger than that;
 *  - or the row skips a whole grandparent table of at least an eighth of the target: cutting there
 *    keeps that table out of the later compaction;
 *  - or the output holds at least 50 % of the target, plus 5 % per boundary it has already crossed
 *    (at most 90 %): having seen many boundaries it will likely see another soon, so it may wait.
 * Without grandparents (the last level, a flush, a manual compaction) outputs are cut at the
 * target.
 *
 * Why: an output that straddles a grandparent boundary by a few rows costs a whole grandparent
 * table's rewrite when it is compacted down; the price is files between half and twice the target.
 *
 * Not thread-safe: one per CompactionWriter.
 */
public final class OutputCuts {
  private final long targetFileBytes;
  private final long maxFileBytes;
  private final long maxCompactionBytes;
  /** Tables of the level below the output that overlap the compaction, sorted and disjoint. */
  private final List<FileMetadata> grandparents;

  /** The grandparent the last row was in or before. */
  private int index;
  /** Whether the last row fell between grandparents (or before the first, or after the last). */
  private boolean inGap = true;
  private boolean seenRow;
  /** Grandparent bytes the current output overlaps. */
  private long overlappedBytes;
  /** That figure before the last row. */
  private long previousOverlappedBytes;
  /** Grandparent boundaries the current output crossed. */
  private int boundariesCrossed;

  private OutputCuts(long targetFileBytes, List<FileMetadata> grandparents) {
    this.targetFileBytes = targetFileBytes;
    this.grandparents = List.copyOf(grandparents);
    boolean boundaries = !grandparents.isEmpty();
    this.maxFileBytes =
        boundaries && targetFileBytes <= Long.MAX_VALUE / 2 ? 2 * targetFileBytes : targetFileBytes;
    this.maxCompactionBytes =
        targetFileBytes <= Long.MAX_VALUE / 25 ? 25 * targetFileBytes : Long.MAX_VALUE;
  }

  /** Cuts at {@code targetFileBytes} only (a flush, the last level, a manual compaction). */
  public static OutputCuts atSize(long targetFileBytes) {
    return new OutputCuts(targetFileBytes, List.of());
  }

  /** Cuts near {@code targetFileBytes} at the boundaries of {@code grandparents}. */
  public static OutputCuts atBoundaries(long targetFileBytes, List<FileMetadata> grandparents) {
    return new OutputCuts(targetFileBytes, grandparents);
  }

  /**
   * Whether the output, holding {@code outputBytes}, ends before {@code row}, the next row written
   * (rows come in ascending order; each is passed once).
   */
  boolean cutBefore(byte[] row, long outputBytes, boolean hasOutput) {
    int crossed = advance(row);
    if (!hasOutput) {
      return false;
    }
    if (outputBytes >= maxFileBytes) {
      return true;
    }
    if (crossed == 0) {
      return false;
    }
    if (overlappedBytes + outputBytes > maxCompactionBytes) {
      return true;
    }
    int skippable = inGap ? 2 : 3;
    if (crossed >= skippable && overlappedBytes - previousOverlappedBytes > targetFileBytes / 8) {
      return true;
    }
    long percent = 50 + Math.min(boundariesCrossed * 5L, 40);
    return outputBytes >= (targetFileBytes + 99) / 100 * percent;
  }

  /** The output was cut before {@code row}: the next one starts there. */
  void cut() {
    boundariesCrossed = 0;
    overlappedBytes = inGap ? 0 : grandparents.get(index).fileSize();
  }

  /** Moves past the boundaries before {@code row}; returns how many it crossed. */
  private int advance(byte[] row) {
    previousOverlappedBytes = overlappedBytes;
    int crossed = 0;
    while (index < grandparents.size()) {
      FileMetadata g = grandparents.get(index);
      if (inGap) {
        if (Arrays.compareUnsigned(row, g.smallest().row()) < 0) {
          break;
        }
        if (seenRow) {
          crossed++;
          boundariesCrossed++;
          overlappedBytes += g.fileSize();
        }
        inGap = false;
      } else {
        if (Arrays.compareUnsigned(row, g.largest().row()) <= 0) {
          break;
        }
        if (seenRow) {
          crossed++;
          boundariesCrossed++;
        }
        inGap = true;
        index++;
      }
    }
    if (!seenRow && !inGap) {
      overlappedBytes = grandparents.get(index).fileSize();
    }
    seenRow = true;
    return crossed;
  }
}
