package dev.strata.engine.compaction;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The tree as the filter budget sees it: the runs an absent Get probes, in entries, and how often
 * it meets each. Each level-0 table is a run of its own (their ranges overlap), each deeper level
 * one run. A run's reach is the chance that an absent row drawn uniformly over the tree's row range
 * falls in one of its tables ({@link RowSpace}: a level-0 table's share of the range, a level's
 * tables' shares together), which is when a Get probes the run's filter; 1 for a run this shape
 * plans without its tables (a flush to come). It also carries the filter bytes its tables hold,
 * what a memory bound has spent on them.
 *
 * @param level0Tables the entries of each level-0 table
 * @param levels the entries of each level, index 0 unused (level 0 is {@code level0Tables})
 * @param filterBytes the filter bytes of the tables counted (a table whose manifest entry does not
 *     record them counts none)
 * @param level0FilterBytes the part of {@code filterBytes} that level-0 tables hold
 * @param tables the file numbers of the tables counted, sorted (empty for a shape made by hand)
 * @param level0Reach the reach of each level-0 table
 * @param levelReach the reach of each level, index 0 unused
 *
 * <p>Immutable (the arrays are the record's own: copied in and out).
 */
public record TreeShape(
    long[] level0Tables,
    long[] levels,
    long filterBytes,
    long level0FilterBytes,
    long[] tables,
    double[] level0Reach,
    double[] levelReach) {
  /** A tree without tables. */
  public static final TreeShape EMPTY = new TreeShape(new long[0], new long[Version.NUM_LEVELS], 0);

  public TreeShape {
    level0Tables = level0Tables.clone();
    levels = levels.clone();
    tables = tables.clone();
    Arrays.sort(tables);
    level0Reach = level0Reach.clone();
    levelReach = levelReach.clone();
    if (level0Reach.length != level0Tables.length || levelReach.length != levels.length) {
      throw new IllegalArgumentException("a reach for each run");
    }
  }

  /** A shape of the tables {@code tables}, every run reaching every row. */
  public TreeShape(
      long[] level0Tables, long[] levels, long filterBytes, long level0FilterBytes, long[] tables) {
    this(level0Tables, levels, filterBytes, level0FilterBytes, tables, ones(level0Tables.length),
        ones(levels.length));
  }

  /** A shape of no known tables, every run reaching every row. */
  public TreeShape(long[] level0Tables, long[] levels, long filterBytes) {
    this(level0Tables, levels, filterBytes, 0, new long[0]);
  }

  private static double[] ones(int n) {
    double[] reach = new double[n];
    Arrays.fill(reach, 1);
    return reach;
  }

  /** The file numbers of the tables counted, sorted (a copy). */
  @Override
  public long[] tables() {
    return tables.clone();
  }

  /** Whether any of {@code fileNumbers} is a table this shape counts. */
  public boolean holdsAny(long[] fileNumbers) {
    for (long f : fileNumbers) {
      if (Arrays.binarySearch(tables, f) >= 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The shape of {@code v}: every table's entries as its manifest entry records them, every run's
   * reach from its tables' row ranges.
   */
  public static TreeShape of(Version v) {
    RowSpace space = RowSpace.of(v);
    List<TableRef> level0 = v.level(0);
    long[] level0Tables = new long[level0.size()];
    double[] level0Reach = new double[level0.size()];
    long[] levels = new long[Version.NUM_LEVELS];
    double[] levelReach = new double[Version.NUM_LEVELS];
    long filterBytes = 0;
    long level0FilterBytes = 0;
    List<Long> tables = new ArrayList<>();
    for (int level = 0; level < Version.NUM_LEVELS; level++) {
      List<TableRef> atLevel = v.level(level);
      for (int i = 0; i < atLevel.size(); i++) {
        FileMetadata m = atLevel.get(i).metadata();
        filterBytes += Math.max(0, m.filterBytes());
        tables.add(m.fileNumber());
        if (level == 0) {
          level0FilterBytes += Math.max(0, m.filterBytes());
          level0Tables[i] = m.entryCount();
          level0Reach[i] = space.share(m);
        } else {
          levels[level] += m.entryCount();
          levelReach[level] = Math.min(1, levelReach[level] + space.share(m));
        }
      }
    }
    return new TreeShape(level0Tables, levels, filterBytes, level0FilterBytes,
        tables.stream().mapToLong(Long::longValue).toArray(), level0Reach, levelReach);
  }

  /**
   * The shape compaction {@code c} of {@code base} plans for: its output level holding the upper
   * level's input entries too (overwrites and tombstones it drops are not known yet), and every
   * level above as it is. The levels a compaction drains refill soon (flushes refill level 0,
   * compactions into a level refill it), so the shape right after the job, with its input level
   * emptied, would give the output too few bits and the next tables of the drained level too many:
   * the tree, whose tables keep their bits, would spend more than the budget. Its {@link
   * #filterBytes} are those of the tables the compaction leaves in place (all but its inputs). The
   * output level reaches what its other tables reach and the span of the inputs' rows, which its
   * outputs will cover. A {@link Compaction#isRefit refit} leaves every level as it is.
   */
  public static TreeShape afterCompaction(Version base, Compaction c) {
    Set<Long> outputLevelInputs = new HashSet<>();
    for (TableRef t : c.outputLevelInputs()) {
      outputLevelInputs.add(t.metadata().fileNumber());
    }
    long moved = 0;
    long inputFilterBytes = 0;
    long level0InputFilterBytes = 0;
    for (TableRef t : c.allInputs()) {
      inputFilterBytes += Math.max(0, t.metadata().filterBytes());
      if (t.metadata().level() == 0) {
        level0InputFilterBytes += Math.max(0, t.metadata().filterBytes());
      }
    }
    for (TableRef t : c.inputs()) {
      if (!outputLevelInputs.contains(t.metadata().fileNumber())) {
        moved += t.metadata().entryCount();
      }
    }
    TreeShape s = of(base);
    long staying = s.filterBytes - inputFilterBytes;
    long level0Staying = s.level0FilterBytes - level0InputFilterBytes;
    if (c.level() == Compaction.ALL_LEVELS) {
      // Every table is an input: no level is left to refill, the tree is its output level.
      long[] levels = new long[s.levels.length];
      double[] levelReach = new double[s.levels.length];
      long[] level0 = new long[0];
      if (c.outputLevel() == 0) {
        level0 = new long[] {moved};
      } else {
        levels[c.outputLevel()] = moved;
        levelReach[c.outputLevel()] = 1;
      }
      return new TreeShape(level0, levels, staying, level0Staying, s.tables, ones(level0.length),
          levelReach);
    }
    if (c.isRefit()) {
      // The inputs' entries stay in their level; only their filters are rewritten.
      return new TreeShape(s.level0Tables, s.levels, staying, level0Staying, s.tables,
          s.level0Reach, s.levelReach);
    }
    if (c.outputLevel() == 0) {
      TreeShape out = s.withLevel0Table(moved);
      return new TreeShape(out.level0Tables, out.levels, staying, level0Staying, s.tables,
          out.level0Reach, out.levelReach);
    }
    long[] levels = s.levels.clone();
    levels[c.outputLevel()] += moved;
    double[] levelReach = s.levelReach.clone();
    levelReach[c.outputLevel()] = outputReach(base, c, outputLevelInputs);
    return new TreeShape(s.level0Tables, levels, staying, level0Staying, s.tables, s.level0Reach,
        levelReach);
  }

  /**
   * The reach of compaction {@code c}'s output level once it installs: its tables that are not
   * inputs, and the span from the inputs' smallest to their largest row.
   */
  private static double outputReach(Version base, Compaction c, Set<Long> outputLevelInputs) {
    RowSpace space = RowSpace.of(base);
    double reach = 0;
    for (TableRef t : base.level(c.outputLevel())) {
      if (!outputLevelInputs.contains(t.metadata().fileNumber())) {
        reach += space.share(t.metadata());
      }
    }
    byte[][] span = Compaction.rowSpan(c.allInputs());
    return Math.min(1, reach + (span == null ? 0 : space.share(span[0], span[1])));
  }

  /**
   * The tree a memory bound plans for: this one after everything in it has reached its deepest
   * level, level 0 filled to {@code level0Tables} tables, the levels between holding what they
   * hold now (as flushes and compactions keep them). A table keeps the bits it was written with
   * until a compaction rewrites it, and the tables of the deepest level, the longest-lived, are
   * rewritten only as the level above drains into them: by then the tree has grown by about what
   * lies above that level. Planning the deepest level as large as the whole tree is what keeps the
   * tables written while the tree was smaller within the bound as it grows; the price is memory
   * left unspent while growth stops, about the share of the entries above the deepest level.
   * Level 0 fills to its compaction trigger between compactions, each flush a run of its own, so
   * the plan gives room to the flushes still to come, not only to those there are.
   *
   * @param treeEntries the entries the tree holds (this shape may count a compaction's entries
   *     twice: in the level it drains, which refills, and in its output level)
   * @param level0Tables the level-0 tables to plan for at least (the compaction trigger)
   * @param flushEntries the entries of a flush still to come (the latest one's)
   */
  public TreeShape grownToItsDeepestLevel(long treeEntries, int level0Tables, long flushEntries) {
    long[] l0 = this.level0Tables;
    double[] l0Reach = this.level0Reach;
    if (l0.length < level0Tables && flushEntries > 0) {
      l0 = Arrays.copyOf(l0, level0Tables);
      Arrays.fill(l0, this.level0Tables.length, level0Tables, flushEntries);
      l0Reach = Arrays.copyOf(l0Reach, level0Tables);
      Arrays.fill(l0Reach, this.level0Tables.length, level0Tables, 1);
    }
    int deepest = deepestLevel();
    long[] grown = levels.clone();
    if (deepest > 0) {
      grown[deepest] = Math.max(levels[deepest], treeEntries);
    }
    return new TreeShape(l0, grown, filterBytes, level0FilterBytes, tables, l0Reach, levelReach);
  }

  /** The deepest level that holds entries; 0 when only level 0 does, or none. */
  public int deepestLevel() {
    for (int level = levels.length - 1; level >= 1; level--) {
      if (levels[level] > 0) {
        return level;
      }
    }
    return 0;
  }

  /**
   * This shape with one more level-0 table of {@code entries} (a flush), listed last, reaching
   * every row (its rows are not known yet).
   */
  public TreeShape withLevel0Table(long entries) {
    long[] l0 = Arrays.copyOf(level0Tables, level0Tables.length + 1);
    l0[l0.length - 1] = entries;
    double[] l0Reach = Arrays.copyOf(level0Reach, level0Reach.length + 1);
    l0Reach[l0Reach.length - 1] = 1;
    return new TreeShape(l0, levels, filterBytes, level0FilterBytes, tables, l0Reach, levelReach);
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

  /** The reach of each level-0 table (a copy). */
  @Override
  public double[] level0Reach() {
    return level0Reach.clone();
  }

  /** The reach of each level, index 0 unused (a copy). */
  @Override
  public double[] levelReach() {
    return levelReach.clone();
  }

  /** The reach of each run, in the order of {@link #runs()}. */
  public double[] reach() {
    double[] reach = new double[level0Reach.length + levelReach.length - 1];
    System.arraycopy(level0Reach, 0, reach, 0, level0Reach.length);
    System.arraycopy(levelReach, 1, reach, level0Reach.length, levelReach.length - 1);
    return reach;
  }

  /** The index in {@link #runs()} of level {@code level} (at least 1). */
  public int runOfLevel(int level) {
    return level0Tables.length + level - 1;
  }
}
