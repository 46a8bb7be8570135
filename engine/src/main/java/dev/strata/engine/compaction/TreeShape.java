package dev.strata.engine.compaction;

import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The tree as the filter budget sees it: the runs an absent Get probes, in entries. Each level-0
 * table is a run of its own (their ranges overlap), each deeper level one run.
 *
 * @param level0Tables the entries of each level-0 table
 * @param levels the entries of each level, index 0 unused (level 0 is {@code level0Tables})
 *
 * <p>Immutable (the arrays are the record's own: copied in and out).
 */
public record TreeShape(long[] level0Tables, long[] levels) {
  /** A tree without tables. */
  public static final TreeShape EMPTY = new TreeShape(new long[0], new long[Version.NUM_LEVELS]);

  public TreeShape {
    level0Tables = level0Tables.clone();
    levels = levels.clone();
  }

  /** The shape of {@code v}: every table's entries as its manifest entry records them. */
  public static TreeShape of(Version v) {
    List<Long> level0 = new ArrayList<>();
    long[] levels = new long[Version.NUM_LEVELS];
    for (int level = 0; level < Version.NUM_LEVELS; level++) {
      for (TableRef t : v.level(level)) {
        if (level == 0) {
          level0.add(t.metadata().entryCount());
        } else {
          levels[level] += t.metadata().entryCount();
        }
      }
    }
    return new TreeShape(level0.stream().mapToLong(Long::longValue).toArray(), levels);
  }

  /**
   * The shape compaction {@code c} of {@code base} plans for: its output level holding the upper
   * level's input entries too (overwrites and tombstones it drops are not known yet), and every
   * level above as it is. The levels a compaction drains refill soon (flushes refill level 0,
   * compactions into a level refill it), so the shape right after the job, with its input level
   * emptied, would give the output too few bits and the next tables of the drained level too many:
   * the tree, whose tables keep their bits, would spend more than the budget.
   */
  public static TreeShape afterCompaction(Version base, Compaction c) {
    Set<Long> outputLevelInputs = new HashSet<>();
    for (TableRef t : c.outputLevelInputs()) {
      outputLevelInputs.add(t.metadata().fileNumber());
    }
    long moved = 0;
    for (TableRef t : c.inputs()) {
      if (!outputLevelInputs.contains(t.metadata().fileNumber())) {
        moved += t.metadata().entryCount();
      }
    }
    TreeShape s = of(base);
    if (c.outputLevel() == 0) {
      return s.withLevel0Table(moved);
    }
    long[] levels = s.levels.clone();
    levels[c.outputLevel()] += moved;
    return new TreeShape(s.level0Tables, levels);
  }

  /** This shape with one more level-0 table of {@code entries} (a flush), listed last. */
  public TreeShape withLevel0Table(long entries) {
    long[] l0 = Arrays.copyOf(level0Tables, level0Tables.length + 1);
    l0[l0.length - 1] = entries;
    return new TreeShape(l0, levels);
  }

  /** The entries of each level-0 table (a copy). */
  @Override
  public long[] level0Tables() {
    return level0Tables.clone();
  }

  /** The entries of each level, index 0 unused (a copy). */
  @Override
  public long[] levels() {
    return levels.clone();
  }

  /** The entries of every run together. */
  public long totalEntries() {
    long total = 0;
    for (long run : runs()) {
      total += run;
    }
    return total;
  }

  /** The number of level-0 tables. */
  public int level0Count() {
    return level0Tables.length;
  }

  /** The runs in probe order: the level-0 tables, then levels 1 and deeper. */
  public long[] runs() {
    long[] runs = new long[level0Tables.length + levels.length - 1];
    System.arraycopy(level0Tables, 0, runs, 0, level0Tables.length);
    System.arraycopy(levels, 1, runs, level0Tables.length, levels.length - 1);
    return runs;
  }

  /** The index in {@link #runs()} of level {@code level} (at least 1). */
  public int runOfLevel(int level) {
    return level0Tables.length + level - 1;
  }
}
