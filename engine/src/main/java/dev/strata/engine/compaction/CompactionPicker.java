package dev.strata.engine.compaction;

import dev.strata.engine.DbOptions;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import java.util.Arrays;
import java.util.List;

/**
 * Chooses the next compaction of a leveled tree.
 */
/*
 * Design (LevelDB's leveled policy, simplified where Strata needs less).
 *
 * Level 0 holds whole memtables, overlapping; it is compacted into level 1 once it holds
 * level0CompactionTrigger tables, all of them at once with every level-1 table they overlap, so no
 * older version of a key can stay behind in level 0 while a newer one moves down.
 *
 * Level L >= 1 may hold maxBytesForLevelBase * levelSizeMultiplier^(L-1) bytes. The level with the
 * highest ratio of size to limit, if above 1, gives one table (round-robin by row, so every part of
 * the key space is rewritten in turn) to be merged with the tables of L+1 it overlaps. Tables of one
 * level are disjoint by row and contiguous, so the merged output stays disjoint from the rest of L+1.
 *
 * Score ties and the last level: the last level has no limit; nothing is compacted out of it.
 *
 * Not thread-safe: called by the one background thread (the round-robin pointers are its state).
 */
public final class CompactionPicker {
  private final DbOptions options;
  /** Per level, the largest row of the last table compacted out of it. */
  private final byte[][] compactPointer = new byte[Version.NUM_LEVELS][];

  public CompactionPicker(DbOptions options) {
    this.options = options;
  }

  /** The limit of level {@code level >= 1}, in bytes. */
  public long maxBytesForLevel(int level) {
    double limit = options.maxBytesForLevelBase();
    for (int l = 1; l < level; l++) {
      limit *= options.levelSizeMultiplier();
    }
    return (long) Math.min(limit, Long.MAX_VALUE);
  }

  /** True when {@link #pick} would return a compaction. */
  public boolean needsCompaction(Version v) {
    return v.level(0).size() >= options.level0CompactionTrigger() || bestLevel(v) > 0;
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
    if (v.level(0).size() >= options.level0CompactionTrigger()) {
      incoming = v.levelBytes(0);
      pending = incoming;
    }
    for (int level = 1; level < Version.NUM_LEVELS - 1; level++) {
      long bytes = v.levelBytes(level) + incoming;
      long excess = bytes - maxBytesForLevel(level);
      if (excess <= 0) {
        break;
      }
      pending = saturatedAdd(pending, saturatedMultiply(excess, options.levelSizeMultiplier() + 1));
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
    List<TableRef> levelZero = v.level(0);
    if (levelZero.size() >= options.level0CompactionTrigger()) {
      return levelZero(v);
    }
    int level = bestLevel(v);
    if (level <= 0) {
      return null;
    }
    TableRef chosen = nextInRoundRobin(v.level(level), compactPointer[level]);
    compactPointer[level] = chosen.metadata().largest().row();
    List<TableRef> inputs = List.of(chosen);
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

  private int bestLevel(Version v) {
    int best = -1;
    double bestScore = 1;
    for (int level = 1; level < Version.NUM_LEVELS - 1; level++) {
      double score = (double) v.levelBytes(level) / maxBytesForLevel(level);
      if (score >= bestScore) {
        best = level;
        bestScore = score;
      }
    }
    return best;
  }

  private static TableRef nextInRoundRobin(List<TableRef> tables, byte[] pointer) {
    if (pointer != null) {
      for (TableRef t : tables) {
        if (Arrays.compareUnsigned(t.metadata().smallest().row(), pointer) > 0) {
          return t;
        }
      }
    }
    return tables.get(0);
  }

  private static List<TableRef> overlappingBelow(Version v, int level, List<TableRef> inputs) {
    byte[] from = null;
    byte[] to = null;
    for (TableRef t : inputs) {
      FileMetadata m = t.metadata();
      if (from == null || Arrays.compareUnsigned(m.smallest().row(), from) < 0) {
        from = m.smallest().row();
      }
      if (to == null || Arrays.compareUnsigned(m.largest().row(), to) > 0) {
        to = m.largest().row();
      }
    }
    return v.overlapping(level + 1, from, to);
  }
}
