package dev.strata.engine.compaction;

import dev.strata.bloom.FilterBudget;
import dev.strata.engine.DbOptions;
import dev.strata.engine.FilterAllocation;
import dev.strata.engine.FilterOptions;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterType;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The table layout of each table a flush or compaction writes: the options' blocks, compression
 * and filter type, with the filter's bits per key chosen for the table's level. Under {@link
 * FilterAllocation#UNIFORM} every table gets the budget; under {@link FilterAllocation#BY_LEVEL}
 * the budget is spread over the tree's runs by {@link FilterBudget} (Monkey), on the shape the table will
 * live in (a flush's table beside the level-0 tables there are; a compaction's output level with
 * the entries it receives, the drained levels as they were: see {@link
 * TreeShape#afterCompaction}), and the table gets its run's share. Tables record what they
 * were written with, so earlier tables keep their bits: the allocation follows the tree as it grows.
 * Under a memory bound ({@code filterMemoryBytes}) the plan is made for the tree the table will
 * live in, not the tree as it is, so that the tables written while the tree was smaller do not
 * take it past the bound as it grows (see {@link #layout}).
 *
 * <p>Thread-safe: the current shape is asked of the supplier each time, and the jobs in flight
 * are kept by {@link JobsInFlight}.
 */
public final class FilterChoice {
  private final TableOptions base;
  private final FilterAllocation allocation;
  private final int ribbonFromLevel;
  private final boolean memoryBound;
  /** The bound on the tree's filter bytes; 0 = none. */
  private final long filterMemoryBytes;
  /** The share of a chunk's bytes that are its bits (the rest is {@link #CHUNK_OVERHEAD_BYTES}). */
  private final double bitsShare;
  private final int chunkBytes;
  private final double budgetBitsPerKey;
  /** Level-0 tables the plan expects at least: the compaction trigger. */
  private final int level0Trigger;

  /**
   * Bytes a filter chunk takes on disk beyond its bits: its trailers (the filter's, its kind byte
   * and the block's: at most 30) and its rounding up to whole filter blocks (32 on average). A
   * bound is a bound on the bytes the tables hold, so the plan spends the bits that leaves.
   */
  public static final int CHUNK_OVERHEAD_BYTES = 64;
  private final Supplier<TreeShape> currentShape;
  private final boolean cacheMetadataOnWrite;
  /** Under a memory bound, the jobs planned beside the one being planned. */
  private final JobsInFlight inFlight = new JobsInFlight();

  /**
   * The choices {@code options} ask for; {@code currentShape} gives the tree's shape when a flush
   * starts (the shape of the current version).
   */
  public FilterChoice(DbOptions options, Supplier<TreeShape> currentShape) {
    this.base = tableOptions(options);
    FilterOptions f = options.filters();
    this.allocation = f.filterAllocation();
    this.ribbonFromLevel = f.ribbonFromLevel();
    this.memoryBound = f.filterMemoryBytes() > 0;
    this.filterMemoryBytes = f.filterMemoryBytes();
    this.bitsShare = (double) f.bloomChunkBytes() / (f.bloomChunkBytes() + CHUNK_OVERHEAD_BYTES);
    this.chunkBytes = f.bloomChunkBytes();
    this.budgetBitsPerKey = f.budgetBitsPerKey();
    this.level0Trigger = options.compaction().level0CompactionTrigger();
    this.currentShape = currentShape;
    this.cacheMetadataOnWrite = f.cacheMetadataOnWrite();
  }

  private FilterChoice(TableOptions base) {
    this.base = base;
    this.allocation = FilterAllocation.UNIFORM;
    this.ribbonFromLevel = Integer.MAX_VALUE;
    this.memoryBound = false;
    this.filterMemoryBytes = 0;
    this.bitsShare = 1;
    this.chunkBytes = base.filterChunkBytes();
    this.budgetBitsPerKey = base.bitsPerKey();
    this.level0Trigger = 1;
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
    long spent = shape.filterBytes() + (memoryBound ? inFlight.uninstalledCompaction(shape) : 0);
    if (memoryBound) {
      inFlight.flushEntries(entries);
    }
    TableOptions layout = layout(0, shape, shape.totalEntries(), entries, spent, Job.FLUSH);
    if (memoryBound) {
      inFlight.flushPlanned((long) Math.ceil(entries * layout.bitsPerKey() / 8 / bitsShare));
    }
    return layout;
  }

  /**
   * Records the tables a flush wrote, so that compactions set their filters aside until a
   * version holds them (the flush installs them after this).
   */
  public void flushWritten(List<TableRef> tables) {
    if (memoryBound) {
      inFlight.flushWritten(tables);
    }
  }

  /** The layout of the tables compaction {@code c} of {@code baseVersion} writes. */
  public TableOptions forCompaction(Compaction c, Version baseVersion) {
    TableOptions layout = compactionLayout(c, baseVersion);
    if (memoryBound) {
      List<TableRef> allInputs = c.allInputs();
      long inputs = 0;
      long inputFilterBytes = 0;
      long[] inputNumbers = new long[allInputs.size()];
      for (int i = 0; i < inputNumbers.length; i++) {
        inputNumbers[i] = allInputs.get(i).metadata().fileNumber();
        inputs += allInputs.get(i).metadata().entryCount();
        inputFilterBytes += Math.max(0, allInputs.get(i).metadata().filterBytes());
      }
      long out = (long) Math.ceil(inputs * layout.bitsPerKey() / 8 / bitsShare);
      inFlight.compactionPlanned(inputNumbers, out - inputFilterBytes);
    }
    return layout;
  }

  /**
   * The blocked Bloom bits per key (the rate, as {@link FilterModel} reads them) each table of
   * levels 1 and deeper of {@code v} would be rewritten with by its {@link Compaction#refit} now,
   * as {@link #forCompaction} would lay it out; nothing is recorded. One plan serves every table: a
   * refit leaves every level's entries as they are, so only the bytes that stay differ.
   */
  public ToDoubleFunction<TableRef> refitBitsPerKey(Version v) {
    if (!memoryBound) {
      return t -> compactionLayout(Compaction.refit(t), v).bitsPerKey();
    }
    TreeShape shape = TreeShape.of(v);
    Plan plan = plan(shape, 0, Job.REFIT);
    TreeShape current = currentShape.get();
    long unseenFlush = inFlight.unseenFlush(current);
    return t -> {
      long own = Math.max(0, t.metadata().filterBytes());
      long staying = Math.max(shape.filterBytes(), current.filterBytes()) - own + unseenFlush;
      return within(plan, plan.planned().runOfLevel(t.metadata().level()),
          t.metadata().entryCount(), staying);
    };
  }

  /** {@link #forCompaction} without recording the job among those in flight. */
  private TableOptions compactionLayout(Compaction c, Version baseVersion) {
    if (allocation == FilterAllocation.UNIFORM && !memoryBound) {
      return atLevel(c.outputLevel(), base);
    }
    TreeShape shape = TreeShape.afterCompaction(baseVersion, c);
    long inputs = 0;
    long inputFilterBytes = 0;
    for (TableRef t : c.allInputs()) {
      inputs += t.metadata().entryCount();
      inputFilterBytes += Math.max(0, t.metadata().filterBytes());
    }
    // The tables that stay: those of the base version but the inputs, and of any table a flush
    // has added since (the current version still holds the inputs until this job installs), and
    // room for a flush being written now (flushes never wait for a compaction), which layout
    // widens to the level-0 tables the plan expects.
    TreeShape current = memoryBound ? currentShape.get() : null;
    long staying = memoryBound
        ? Math.max(shape.filterBytes(), current.filterBytes() - inputFilterBytes)
            + inFlight.unseenFlush(current)
        : 0;
    // A compaction moves entries, it adds none: the tree holds what its base version holds, not
    // what the planning shape counts (the drained level again, as refilled).
    long treeEntries = TreeShape.of(baseVersion).totalEntries();
    Job job = c.level() == Compaction.ALL_LEVELS ? Job.FULL_COMPACTION
        : c.isRefit() ? Job.REFIT : Job.COMPACTION;
    return layout(c.outputLevel(), shape, treeEntries, inputs, staying, job);
  }

  /**
   * The layout of a table at {@code level} of {@code shape} (a flush's: the last level-0 run),
   * written by a job that writes at most {@code written} entries beside tables of {@code staying}
   * filter bytes.
   *
   * <p>Without a memory bound: the budget, spread evenly under {@link FilterAllocation#UNIFORM}
   * or, under {@link FilterAllocation#BY_LEVEL}, split so that the sum of the runs' rates, each
   * times its reach ({@link TreeShape}: how often a uniform absent row meets it), is least
   * (the blocked filter's model).
   *
   * <p>Under a memory bound the plan is made for the tree the table will live in ({@link
   * TreeShape#grownToItsDeepestLevel}, level 0 at its compaction trigger): the memory over that
   * tree's entries, split by the runs' own models (Ribbon from {@code ribbonFromLevel}, so the bits
   * Ribbon saves buy lower rates elsewhere), and never more than what the bound leaves after the
   * tables that stay and the jobs in flight ({@code staying}) and, for a compaction's tables, after
   * the level-0 tables the plan expects: the plan keeps the bound as the tree grows, the cap guards
   * it where the plan is wrong (a tree of {@code treeEntries} that grew faster than its deepest
   * level was rewritten, or shrank by deletes), and it is a compaction's tables that give way, not
   * the next flushes'. Every absent Get probes each level-0 table while it lives, so a flush held
   * to the floor costs each Get more than a compaction's tables lose in giving way, most of all
   * while level 0 piles up.
   *
   * <p>In [1, 64]: a run the plan sees empty gets no bits, and a table is never written without a
   * filter its type asks for. A Ribbon table is given the blocked filter's bits of the rate its
   * plan reaches: the table writer builds its Ribbon chunks for that rate.
   */
  private TableOptions layout(int level, TreeShape shape, long treeEntries, long written,
      long staying, Job job) {
    if (!memoryBound) {
      int run = level == 0 ? shape.level0Count() - 1 : shape.runOfLevel(level);
      FilterBudget.Model[] bloom = new FilterBudget.Model[shape.runs().length];
      Arrays.fill(bloom, FilterBudget.Model.BLOCKED_BLOOM);
      double bits = allocation == FilterAllocation.UNIFORM
          ? budgetBitsPerKey
          : FilterBudget.optimalMixed(shape.runs(), shape.reach(), budgetBitsPerKey, bloom)
              .runs().get(run).bitsPerKey();
      return atLevel(level, base.withBitsPerKey(Math.max(FilterModel.MIN_BITS_PER_KEY, bits)));
    }
    Plan plan = plan(shape, treeEntries, job);
    int run = level == 0 ? shape.level0Count() - 1 : plan.planned().runOfLevel(level);
    return atLevel(level, base.withBitsPerKey(within(plan, run, written, staying)));
  }

  /**
   * A plan under the memory bound: the shape planned for, each of its runs' bits per key and
   * filter model, and the bytes a compaction leaves for the level-0 tables the plan expects.
   */
  private record Plan(TreeShape planned, double[] bits, FilterBudget.Model[] models,
      long level0Room) {}

  /** The plan for a table of {@code shape} that job {@code job} writes (see {@link #layout}). */
  private Plan plan(TreeShape shape, long treeEntries, Job job) {
    // A refit plans for the tree as it is: it runs only once the tree has stopped growing, and any
    // growth after it is planned again by the flushes and compactions that come.
    TreeShape planned = shape.grownToItsDeepestLevel(job == Job.REFIT ? 0 : treeEntries,
        job == Job.FULL_COMPACTION ? 0 : level0Trigger, inFlight.flushEntries());
    long[] runs = planned.runs();
    FilterBudget.Model[] models = models(planned);
    double average = Math.max(FilterModel.MIN_BITS_PER_KEY, Math.min(budgetBitsPerKey,
        filterMemoryBytes * bitsShare * 8.0 / Math.max(1, planned.totalEntries())));
    FilterBudget.Allocation plan = allocation == FilterAllocation.UNIFORM
        ? FilterBudget.uniform(runs, average, FilterBudget.Model.BLOCKED_BLOOM)
        : FilterBudget.optimalMixed(runs, planned.reach(), average, models);
    double[] bits = new double[runs.length];
    for (int i = 0; i < runs.length; i++) {
      bits[i] = plan.runs().get(i).bitsPerKey();
    }
    long level0Room = 0;
    if (job == Job.COMPACTION || job == Job.REFIT) {
      double level0 = 0;
      for (int i = 0; i < planned.level0Count(); i++) {
        level0 += runs[i] * bits[i] / 8 / bitsShare;
      }
      level0Room = (long) Math.max(0, level0 - shape.level0FilterBytes());
    }
    return new Plan(planned, bits, models, level0Room);
  }

  /**
   * The bits per key of run {@code run} of {@code plan}, within what the bound leaves for a job
   * writing {@code written} entries beside tables of {@code staying} filter bytes.
   */
  private double within(Plan plan, int run, long written, long staying) {
    // What the bound leaves for this job's tables, in bits per key written, overhead included.
    double left = (filterMemoryBytes - staying - plan.level0Room()) * 8.0 / Math.max(1, written);
    double bits = plan.bits()[run];
    return plan.models()[run] == FilterBudget.Model.BLOCKED_BLOOM
        ? Math.max(FilterModel.MIN_BITS_PER_KEY, Math.min(bits, left * bitsShare))
        : ribbonWithin(bits, left);
  }

  /**
   * The Bloom bits per key (what the table records, and builds its Ribbon chunks' rate from) of a
   * Ribbon table planned at {@code ribbonBits} real bits per key, lowered until the table's bytes
   * per key, its chunks' overhead included, fit {@code left} bits per key: a chunk holds the keys
   * its Bloom bits give ({@code TableOptions.keysPerChunk}), so its Ribbon filter is smaller than a
   * chunk and the overhead a larger share of it.
   */
  private double ribbonWithin(double ribbonBits, double left) {
    double r = Math.max(FilterModel.MIN_BITS_PER_KEY, ribbonBits);
    double bloom = bloomBitsOfRibbon(r);
    while (r > FilterModel.MIN_BITS_PER_KEY
        && r + bloom * CHUNK_OVERHEAD_BYTES / chunkBytes > left) {
      r = Math.max(FilterModel.MIN_BITS_PER_KEY, r * 0.98);
      bloom = bloomBitsOfRibbon(r);
    }
    return bloom;
  }

  /** The Bloom bits per key whose rate a Ribbon filter of {@code ribbonBits} per key reaches. */
  private double bloomBitsOfRibbon(double ribbonBits) {
    long chunkKeys = (long) (chunkBytes * 8.0 / ribbonBits);
    double bloom = FilterModel.bloomBitsForRate(
        FilterBudget.Model.RIBBON.falsePositiveRate(chunkKeys, ribbonBits));
    chunkKeys = Math.max(1, (long) (chunkBytes * 8.0 / bloom)); // the keys such a chunk holds
    return FilterModel.bloomBitsForRate(
        FilterBudget.Model.RIBBON.falsePositiveRate(chunkKeys, ribbonBits));
  }

  /** What a layout is planned for. */
  private enum Job {
    /** A flush: level 0 grows by this table, and more flushes follow. */
    FLUSH,
    /** A compaction the tree needed: flushes keep coming beside it and after it. */
    COMPACTION,
    /** {@code Db.compact()}: every table into the last level, level 0 left empty. */
    FULL_COMPACTION,
    /**
     * A table rewritten into its own level at rest ({@link FilterRefit}): the tree as it is, with
     * room for the level-0 tables the next flushes write, as a compaction leaves them.
     */
    REFIT
  }

  /** Each run's filter model: Ribbon for the levels from {@code ribbonFromLevel}, else Bloom. */
  private FilterBudget.Model[] models(TreeShape shape) {
    FilterBudget.Model[] models = new FilterBudget.Model[shape.runs().length];
    for (int i = 0; i < models.length; i++) {
      int level = i < shape.level0Count() ? 0 : i - shape.level0Count() + 1;
      models[i] = level >= ribbonFromLevel ? FilterBudget.Model.RIBBON : FilterBudget.Model.BLOCKED_BLOOM;
    }
    return models;
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
