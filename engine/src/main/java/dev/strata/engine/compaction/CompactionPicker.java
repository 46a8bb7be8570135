package dev.strata.engine.compaction;

import dev.strata.engine.CompactionOptions;
import dev.strata.engine.DbOptions;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.engine.write.BulkLoads;
import java.util.Arrays;
import java.util.List;

/**
 * Chooses the next compaction of a leveled tree.
 */
/*
 * Design (LevelDB's leveled policy with RocksDB's scores and file choice).
 *
 * Level 0 holds whole memtables, overlapping; once it holds level0CompactionTrigger tables it may
 * be compacted into level 1, all of it at once with every level-1 table it overlaps, so no older
 * version of a key can stay behind in level 0 while a newer one moves down. When no two of its
 * tables share a row and level 1 has nothing in their span (a load in key order), that compaction
 * moves them by a manifest edit instead of rewriting them (Compaction.isTrivialMove).
 *
 * Level L >= 1 may hold maxBytesForLevelBase * levelSizeMultiplier^(L-1) bytes. Every level gets a
 * score (RocksDB's ComputeCompactionScore with dynamic level bytes off): level 0 its table count
 * over the trigger, or its bytes over level 1's limit if more; a deeper level its bytes over its
 * limit. The highest score at or above 1 is compacted. Level 0 does not simply come first: if it
 * did, level 1 would grow past its limit while writes keep level 0 at its trigger, and every
 * level-0 compaction would rewrite all of that oversized level 1, and write amplification would
 * grow with it.
 *
 * From a deeper level, the one table whose overlap with the next level is smallest for its own
 * size (RocksDB's kMinOverlappingRatio, its default) is merged with the tables of L+1 it overlaps:
 * the compaction that moves the most bytes down per byte rewritten. Tables of one level are
 * disjoint by row and contiguous, so the merged output stays disjoint from the rest of L+1.
 *
 * The last level has no limit; nothing is compacted out of it.
 *
 * While a bulk load is open (write.BulkLoads), level 0's trigger is the load's table count: a load
 * in random key order flushes tables that each span the whole key range, so each level-0 compaction
 * rewrites all of level 1 with them, and deferring it until level 0 holds many tables rewrites
 * level 1 that many times less often.
 *
 * Holds no state of its own (the trigger is the bulk loads'); called by the one compaction thread.
 */
public final class CompactionPicker {
  private final CompactionOptions compaction;
  private final BulkLoads bulkLoads;

  /** A picker that no bulk load ever moves. */
  public CompactionPicker(DbOptions options) {
    this(options, new BulkLoads(options.compaction().level0CompactionTrigger(),
        options.compaction().level0CompactionTrigger()));
  }

  /** A picker whose level-0 trigger follows {@code bulkLoads}. */
  public CompactionPicker(DbOptions options, BulkLoads bulkLoads) {
    this.compaction = options.compaction();
    this.bulkLoads = bulkLoads;
  }

  /** The limit of level {@code level >= 1}, in bytes. */
  public long maxBytesForLevel(int level) {
    double limit = compaction.maxBytesForLevelBase();
    for (int l = 1; l < level; l++) {
      limit *= compaction.levelSizeMultiplier();
    }
    return (long) Math.min(limit, Long.MAX_VALUE);
  }

  /** True when {@link #pick} would return a compaction. */
  public boolean needsCompaction(Version v) {
    return bestLevel(v) >= 0;
  }

  /**
   * An estimate of the bytes compaction must still rewrite to bring every level within its limit
   * (RocksDB's estimate): level 0 once it is due, then, level by level, the bytes above each
   * level's limit, each costing its own rewrite plus that of the next level's overlapping tables
   * (about {@code levelSizeMultiplier} times as many bytes); the excess flows down and adds to the
   * next level's size.
   */
  public long pendingCompactionBytes(Version v) {
    long pending = 0;
    long incoming = 0;
    if (v.level(0).size() >= bulkLoads.level0CompactionTrigger()) {
      incoming = v.levelBytes(0);
      pending = incoming;
    }
    for (int level = 1; level < Version.NUM_LEVELS - 1; level++) {
      long bytes = v.levelBytes(level) + incoming;
      long excess = bytes - maxBytesForLevel(level);
      if (excess <= 0) {
        break;
      }
      pending =
          saturatedAdd(pending, saturatedMultiply(excess, compaction.levelSizeMultiplier() + 1));
      incoming = excess;
    }
    return pending;
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  private static long saturatedMultiply(long a, long b) {
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }

  /** The compaction the tree needs most, or null when it needs none. */
  public Compaction pick(Version v) {
    int level = bestLevel(v);
    if (level < 0) {
      return null;
    }
    if (level == 0) {
      return levelZero(v);
    }
    List<TableRef> inputs = List.of(leastOverlapping(v.level(level), v.level(level + 1)));
    return new Compaction(level, level + 1, inputs, overlappingBelow(v, level, inputs));
  }

  /**
   * The compaction of all of level 0 into level 1, whatever its size (null when level 0 is empty):
   * what a flush waiting for room in level 0 needs (see {@code WriteController.mustNotInstall}).
   */
  public Compaction levelZero(Version v) {
    List<TableRef> levelZero = v.level(0);
    return levelZero.isEmpty()
        ? null
        : new Compaction(0, 1, levelZero, overlappingBelow(v, 0, levelZero));
  }

  /** A compaction of every table into the last level (what {@code Db.compact()} runs). */
  public Compaction all(Version v) {
    return new Compaction(Compaction.ALL_LEVELS, Version.NUM_LEVELS - 1, v.allTables(), List.of());
  }

  /** The level with the highest score at or above 1, or -1 when none has one. */
  private int bestLevel(Version v) {
    int best = -1;
    double bestScore = 1;
    for (int level = 0; level < Version.NUM_LEVELS - 1; level++) {
      double score = score(v, level);
      if (score >= bestScore && (best < 0 || score > bestScore)) {
        best = level;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * How far {@code level} is past what it may hold: at 1 or above it is due. Level 0 below its
   * trigger is never due, whatever its bytes, so a small tree keeps its level-0 tables as before.
   */
  double score(Version v, int level) {
    if (level == 0) {
      int tables = v.level(0).size();
      int trigger = bulkLoads.level0CompactionTrigger();
      if (tables < trigger) {
        return 0;
      }
      return Math.max(
          (double) tables / trigger,
          (double) v.levelBytes(0) / compaction.maxBytesForLevelBase());
    }
    return (double) v.levelBytes(level) / maxBytesForLevel(level);
  }

  /**
   * The table of {@code tables} whose overlap with {@code below} (sorted, disjoint) is the smallest
   * for its own size; the first on ties. One sweep: both lists are sorted by row.
   */
  static TableRef leastOverlapping(List<TableRef> tables, List<TableRef> below) {
    TableRef best = null;
    double bestRatio = Double.MAX_VALUE;
    int first = 0; // the first table of below that does not end before the current table
    for (TableRef t : tables) {
      FileMetadata m = t.metadata();
      while (first < below.size()
          && Arrays.compareUnsigned(below.get(first).metadata().largest().row(), m.smallest().row())
              < 0) {
        first++;
      }
      long overlap = 0;
      for (int i = first; i < below.size(); i++) {
        FileMetadata b = below.get(i).metadata();
        if (Arrays.compareUnsigned(b.smallest().row(), m.largest().row()) > 0) {
          break;
        }
        overlap += b.fileSize();
      }
      double ratio = (double) overlap / Math.max(1, m.fileSize());
      if (ratio < bestRatio) {
        best = t;
        bestRatio = ratio;
      }
    }
    return best;
  }

  private static List<TableRef> overlappingBelow(Version v, int level, List<TableRef> inputs) {
    return Compaction.overlapping(v, level + 1, inputs);
  }
}
