package dev.strata.engine.write;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.TreeMap;

/**
 * The bulk loads open on one database, and the level-0 limits they move: while any is open,
 * level 0 is compacted only once it holds the largest open load's table count (instead of {@code
 * level0CompactionTrigger}), and the write stalls' level-0 triggers rise by the same number of
 * tables, so a write is slowed or stopped only as far past the new trigger as it would be past the
 * old one (RocksDB's bulk-load settings, bounded).
 *
 * <p>Why: every table a flush writes of keys in random order spans the whole key range, so each
 * level-0 compaction of them rewrites every level-1 table as well; a load that defers it until level
 * 0 holds N tables rewrites level 1 once per N flushes instead of once per trigger's worth. Reads
 * stay right whatever level 0 holds: they consult its tables newest first, filter by filter.
 *
 * <p>When the last load ends, compaction returns to the configured trigger at once, but the stall
 * triggers stay raised until level 0 first holds fewer tables than the raised slowdown trigger
 * minus the raise, that is until compaction has taken in what the load left: writes that follow a
 * load are never stopped for tables the load was allowed to leave.
 *
 * <p>Thread-safe: begin and end under this object's monitor, the limits read from volatiles.
 */
public final class BulkLoads {
  private final int compactionTrigger;
  private final int slowdownTrigger;

  /** Open loads by the level-0 table count each asked for, with how many ask for it. */
  @GuardedBy("this")
  private final TreeMap<Integer, Integer> open = new TreeMap<>();

  /** The level-0 compaction trigger now. */
  private volatile int trigger;

  /** Tables the stall triggers are raised by now: at least what the open loads need. */
  private volatile int stallRaise;

  /**
   * @param compactionTrigger the configured level-0 compaction trigger, at least 1
   * @param slowdownTrigger the level-0 slowdown trigger as the write controller applies it
   */
  public BulkLoads(int compactionTrigger, int slowdownTrigger) {
    if (compactionTrigger < 1 || slowdownTrigger < compactionTrigger) {
      throw new IllegalArgumentException(
          "triggers must be 1 <= compaction <= slowdown: " + compactionTrigger + ", " + slowdownTrigger);
    }
    this.compactionTrigger = compactionTrigger;
    this.slowdownTrigger = slowdownTrigger;
    this.trigger = compactionTrigger;
  }

  /** Opens a load that defers level-0 compaction until level 0 holds {@code level0Tables}. */
  public synchronized void begin(int level0Tables) {
    if (level0Tables < 1) {
      throw new IllegalArgumentException("level0Tables must be at least 1: " + level0Tables);
    }
    open.merge(level0Tables, 1, Integer::sum);
    trigger = Math.max(compactionTrigger, open.lastKey());
    stallRaise = Math.max(stallRaise, trigger - compactionTrigger);
  }

  /** Ends a load that {@link #begin} opened with {@code level0Tables}. */
  public synchronized void end(int level0Tables) {
    Integer n = open.get(level0Tables);
    if (n == null) {
      throw new IllegalStateException("no bulk load of " + level0Tables + " tables is open");
    }
    if (n == 1) {
      open.remove(level0Tables);
    } else {
      open.put(level0Tables, n - 1);
    }
    trigger = open.isEmpty() ? compactionTrigger : Math.max(compactionTrigger, open.lastKey());
  }

  /** Whether any load is open. */
  public boolean active() {
    return trigger != compactionTrigger;
  }

  /** The level-0 table count at which level 0 is compacted now. */
  public int level0CompactionTrigger() {
    return trigger;
  }

  /** Tables the stall triggers are raised by now, without looking at level 0. */
  public int stallRaise() {
    return stallRaise;
  }

  /**
   * Tables the stall triggers are raised by with level 0 holding {@code level0Tables}: a raise
   * left by ended loads drops to what the open ones need once level 0 is below the slowdown
   * trigger they need.
   */
  public int stallRaise(int level0Tables) {
    int raise = stallRaise;
    int needed = trigger - compactionTrigger;
    if (raise > needed && level0Tables < slowdownTrigger + needed) {
      synchronized (this) {
        needed = trigger - compactionTrigger;
        if (level0Tables < slowdownTrigger + needed) {
          stallRaise = Math.max(needed, 0);
        }
        return stallRaise;
      }
    }
    return raise;
  }
}
