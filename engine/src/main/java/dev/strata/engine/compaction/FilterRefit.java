package dev.strata.engine.compaction;

import dev.strata.engine.BloomType;
import dev.strata.engine.DbOptions;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import java.util.function.ToDoubleFunction;

/**
 * Filter refits at rest ({@code FilterOptions.refitFiltersAtRest}): once compaction has nothing to
 * do, the table of levels 1 and deeper whose rewrite with the bits the plan for the tree as it is
 * gives it ({@link FilterChoice#refitBitsPerKey}) lowers an absent Get's expected false positives
 * the most per byte rewritten is rewritten alone into its own level ({@link Compaction#refit}),
 * one table a step; level 0, when its tables cost a tenth of the expected false positives, is
 * compacted into level 1 instead.
 */
/*
 * Why. Under a memory bound each table is planned for the tree it will live in, with a margin for
 * growth, and keeps its bits until compaction rewrites it; a tree that stops growing keeps the
 * margin and the memory its transients (level 0 piled past its trigger, level 1 above its target)
 * held, unspent. Only a rewrite spends it.
 *
 * Gain. A table's expected false positives are its share of the row range (RowSpace: how often an
 * absent Get probes it) times its filter's model rate; the gain of a refit is that share times the
 * fall in rate, and the cost its file's bytes, read and written once. Small tables of upper levels
 * span a wide share for their bytes, so they come first; the deepest level's tables last.
 *
 * Stop. A table is refit only when its new rate is at most MAX_RATE_RATIO of its rate now (for the
 * blocked Bloom filter about a quarter bit per key more): every refit raises a table's bits by at
 * least that, and no refit lowers any (a level-0 compaction may, once between flushes: see
 * below), so with no writes the steps end. The bound caps each
 * table's bits (FilterChoice: what the bound leaves after the tables that stay and the level-0
 * room the next flushes need), so the last tables find too little left to qualify and the
 * refits stop with the bound nearly spent.
 *
 * Level 0. Its tables are flushes' runs, and a fill that ends with the bound spent leaves them with
 * few bits while every absent Get probes each of them. They are not refit into level 0 (its order
 * by sequence, and the next flushes' room, are the flush's business): level 0 is compacted into
 * level 1 by the ordinary level-0 compaction when that saves the most per byte and level 0 gives
 * at least LEVEL0_SHARE of the tree's expected false positives; it leaves level 0 empty, so it
 * happens at most once between flushes.
 *
 * When. Event-driven, never by a clock: each install arms it (treeChanged); the compaction thread
 * takes a refit only when no compaction is due and no flush is pending, and a take that finds no
 * table worth it, or finds a flush pending, disarms it (that flush's install arms it again). So
 * after the last refit one look finds nothing and the database is quiet. A refit rewrites one
 * table, so a compaction that becomes due waits at most for that one table's rewrite (or for one
 * level-0 compaction). Writes never wait for a refit: flushes have a thread of their own.
 *
 * Not thread-safe: guarded by the database mutex, like the rest of BackgroundWork, except the
 * counters (volatile, read by stats()).
 */
public final class FilterRefit {
  /** A table is refit only when its new rate is at most this share of its rate now. */
  static final double MAX_RATE_RATIO = 0.9;

  /**
   * Level 0 is compacted into level 1 at rest when its tables give at least this share of the
   * tree's expected false positives.
   */
  static final double LEVEL0_SHARE = 0.1;

  private final boolean enabled;
  private final FilterChoice filters;
  private final CompactionPicker picker;

  /** The tree changed since a take last found nothing to refit. */
  private boolean armed;

  private volatile long refits;
  private volatile long bytesRewritten;

  /** Refits as {@code options} ask, with the bits {@code filters} plans. */
  public FilterRefit(DbOptions options, FilterChoice filters) {
    this.enabled = options.filters().refitFiltersAtRest()
        && options.filters().filterMemoryBytes() > 0
        && options.filters().bloomType() != BloomType.NONE
        && options.compaction().autoCompaction()
        && !options.files().readOnly();
    this.filters = filters;
    this.picker = new CompactionPicker(options);
  }

  /** A flush or compaction installed (or the database opened): look for refits again. */
  public void treeChanged() {
    armed = enabled;
  }

  /** Whether the compaction thread should look for a refit once nothing else is due. */
  public boolean due() {
    return armed;
  }

  /**
   * The refit worth the most now, or null when none is worth it or {@code flushPending} (either
   * way it is disarmed until the next install). The caller runs it only when no compaction is due,
   * then calls {@link #ran}.
   */
  public Compaction take(Version v, boolean flushPending) {
    if (!armed || flushPending) {
      armed = false;
      return null;
    }
    Compaction best = best(v);
    armed = best != null;
    return best;
  }

  /** Counts refit {@code c}, which was installed. */
  public void ran(Compaction c) {
    bytesRewritten += c.inputBytes();
    refits++;
  }

  /** Refits installed since open. */
  public long refits() {
    return refits;
  }

  /** The bytes of the tables refit since open (each read and written once). */
  public long bytesRewritten() {
    return bytesRewritten;
  }

  /**
   * The refit of most expected false positives saved per byte, or the compaction of level 0 into
   * level 1 when that saves more per byte and level 0 gives at least {@link #LEVEL0_SHARE} of the
   * tree's expected false positives; null when nothing qualifies.
   */
  private Compaction best(Version v) {
    RowSpace space = RowSpace.of(v);
    ToDoubleFunction<TableRef> refitBits = filters.refitBitsPerKey(v);
    Compaction best = null;
    double bestGain = 0;
    double tree = 0;
    for (int level = 1; level < Version.NUM_LEVELS; level++) {
      for (TableRef t : v.level(level)) {
        FileMetadata m = t.metadata();
        double now = rate(FilterModel.builtBitsPerKey(m));
        tree += space.share(m) * now;
        double refit = rate(refitBits.applyAsDouble(t));
        if (refit > MAX_RATE_RATIO * now) {
          continue;
        }
        double gain = space.share(m) * (now - refit) / Math.max(1, m.fileSize());
        if (gain > bestGain) {
          best = Compaction.refit(t);
          bestGain = gain;
        }
      }
    }
    // Level 0's tables are compacted, not refit: a flush's table has a level-0 run's bits, and at
    // rest nothing else moves it. Its false positives go (its entries join level 1, whose rate
    // barely moves); the cost is level 0 and the level-1 tables it overlaps.
    Compaction levelZero = picker.levelZero(v);
    if (levelZero != null) {
      double level0 = 0;
      for (TableRef t : v.level(0)) {
        level0 += space.share(t.metadata()) * rate(FilterModel.builtBitsPerKey(t.metadata()));
      }
      if (level0 >= LEVEL0_SHARE * (tree + level0)
          && level0 / Math.max(1, levelZero.inputBytes()) > bestGain) {
        best = levelZero;
      }
    }
    return best;
  }

  /** The model rate of a table of {@code bits} Bloom bits per key; 1 without a filter. */
  private static double rate(double bits) {
    return bits == 0 ? 1 : FilterModel.bloomFpp(bits);
  }
}
