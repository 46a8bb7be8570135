package dev.strata.engine.compaction;

import dev.strata.bloom.FilterBudget;
import dev.strata.engine.DbOptions;
import dev.strata.engine.FilterAllocation;
import dev.strata.engine.FilterOptions;
import dev.strata.engine.version.Version;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterType;
import java.util.function.LongToDoubleFunction;
import java.util.function.Supplier;

/**
 * The table layout of each table a flush or compaction writes: the options' blocks, compression
 * and filter type, with the filter's bits per key chosen for the table's level. Under {@link
 * FilterAllocation#UNIFORM} every table gets the budget; under {@link FilterAllocation#BY_LEVEL}
 * the budget is spread over the tree's runs by {@link FilterBudget} (Monkey), on the shape the table will
 * live in (a flush's table beside the level-0 tables there are; a compaction's output level with
 * the entries it receives, the drained levels as they were: see {@link
 * TreeShape#afterCompaction}), and the table gets its run's share. Tables record what they
 * were written with, so earlier tables keep their bits: the allocation follows the tree as it grows.
 *
 * <p>Thread-safe: immutable, and the current shape is asked of the supplier each time.
 */
public final class FilterChoice {
  private final TableOptions base;
  private final FilterAllocation allocation;
  private final int ribbonFromLevel;
  /** The tree's average bits per filter key by its total filter keys (the memory bound's). */
  private final LongToDoubleFunction averageBitsPerKey;
  private final boolean memoryBound;
  private final Supplier<TreeShape> currentShape;
  private final boolean cacheMetadataOnWrite;

  /**
   * The choices {@code options} ask for; {@code currentShape} gives the tree's shape when a flush
   * starts (the shape of the current version).
   */
  public FilterChoice(DbOptions options, Supplier<TreeShape> currentShape) {
    this.base = tableOptions(options);
    FilterOptions f = options.filters();
    this.allocation = f.filterAllocation();
    this.ribbonFromLevel = f.ribbonFromLevel();
    this.averageBitsPerKey = f::averageBitsPerKey;
    this.memoryBound = f.filterMemoryBytes() > 0;
    this.currentShape = currentShape;
    this.cacheMetadataOnWrite = f.cacheMetadataOnWrite();
  }

  private FilterChoice(TableOptions base) {
    this.base = base;
    this.allocation = FilterAllocation.UNIFORM;
    this.ribbonFromLevel = Integer.MAX_VALUE;
    this.averageBitsPerKey = keys -> base.bitsPerKey();
    this.memoryBound = false;
    this.currentShape = () -> TreeShape.EMPTY;
    this.cacheMetadataOnWrite = false;
  }

  /** Every table laid out as {@code options} say, its metadata not cached on write (for tests). */
  public static FilterChoice uniform(TableOptions options) {
    return new FilterChoice(options);
  }

  /** Whether the outputs' filter chunks and index partitions go into the block cache as written. */
  public boolean cacheMetadataOnWrite() {
    return cacheMetadataOnWrite;
  }

  /** The layout of a table the options describe, with the budget's bits per key. */
  public static TableOptions tableOptions(DbOptions options) {
    FilterOptions f = options.filters();
    FilterType filter =
        switch (f.bloomType()) {
          case NONE -> FilterType.NONE;
          case ROW -> FilterType.ROW;
          case ROWCOL -> FilterType.ROWCOL;
        };
    BlockCompression codec =
        switch (options.dataBlocks().compression()) {
          case NONE -> BlockCompression.NONE;
          case LZ4 -> BlockCompression.LZ4;
        };
    return new TableOptions(
        options.dataBlocks().blockSizeBytes(),
        filter,
        f.budgetBitsPerKey(),
        f.bloomChunkBytes(),
        codec,
        f.prefixBloomLength());
  }

  /** The layout at the budget's bits per key, whatever the level. */
  public TableOptions uniform() {
    return base;
  }

  /** The layout of the level-0 table a flush of {@code entries} entries writes. */
  public TableOptions forFlush(long entries) {
    if (allocation == FilterAllocation.UNIFORM && !memoryBound) {
      return atLevel(0, base);
    }
    TreeShape shape = currentShape.get().withLevel0Table(entries);
    return atLevel(0, base.withBitsPerKey(
        planned(shape, shape.level0Count() - 1, shape.totalEntries())));
  }

  /** The layout of the tables compaction {@code c} of {@code baseVersion} writes. */
  public TableOptions forCompaction(Compaction c, Version baseVersion) {
    if (allocation == FilterAllocation.UNIFORM && !memoryBound) {
      return atLevel(c.outputLevel(), base);
    }
    TreeShape shape = TreeShape.afterCompaction(baseVersion, c);
    int run = c.outputLevel() == 0 ? shape.level0Count() - 1 : shape.runOfLevel(c.outputLevel());
    // A compaction moves entries, it adds none: the memory is spread over the tree as it is, not
    // over the planning shape, which counts the drained level again as refilled.
    long treeEntries = TreeShape.of(baseVersion).totalEntries();
    return atLevel(c.outputLevel(), base.withBitsPerKey(planned(shape, run, treeEntries)));
  }

  /**
   * The bits per key of run {@code run} of {@code shape}: the tree's average (the budget, or what
   * the filter memory affords for {@code treeEntries} keys), spread evenly under {@link
   * FilterAllocation#UNIFORM} or, under {@link FilterAllocation#BY_LEVEL}, split so that the sum of
   * the runs' rates is least (the blocked filter's model); in [1, 64]: a run the plan sees empty
   * gets no bits, and a table is never written without a filter its type asks for.
   */
  private double planned(TreeShape shape, int run, long treeEntries) {
    double average = averageBitsPerKey.applyAsDouble(treeEntries);
    if (allocation == FilterAllocation.UNIFORM) {
      return average;
    }
    FilterBudget.Allocation plan =
        FilterBudget.optimal(shape.runs(), average, FilterBudget.Model.BLOCKED_BLOOM);
    return Math.max(FilterModel.MIN_BITS_PER_KEY, plan.runs().get(run).bitsPerKey());
  }

  /**
   * {@code layout} for a table at {@code level}: Ribbon chunks from {@code ribbonFromLevel} on. Its
   * bits per key stay the Bloom plan's: a Ribbon chunk is built for the rate a Bloom filter of that
   * size has, in fewer bits, so the budget counts rates and Ribbon saves memory at equal false
   * positives.
   */
  private TableOptions atLevel(int level, TableOptions layout) {
    return level >= ribbonFromLevel ? layout.withFilterKind(FilterKind.RIBBON) : layout;
  }
}
