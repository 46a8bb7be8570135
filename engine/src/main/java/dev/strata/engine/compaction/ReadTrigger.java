package dev.strata.engine.compaction;

import dev.strata.engine.DbOptions;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.WastedReads;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Read-triggered compaction of level 0: when reads keep paying for level-0 tables and writes have
 * gone quiet, level 0 is compacted into level 1 although it is below its compaction trigger.
 */
/*
 * Why. A fill leaves level 0 with up to level0CompactionTrigger - 1 tables, overlapping everything.
 * Nothing compacts them while no more writes come, and every Get then probes each of their filters
 * (and reads a block on each false positive) and every seek positions on each of them: at 20M keys
 * after fillrandom, 3.7 filters per absent Get against RocksDB's 1.7, 3.4 data blocks per seek
 * against 1.9. Neither LevelDB's size trigger nor RocksDB's notice; LevelDB's seek compaction
 * (allowed_seeks in version_set.cc: a table may waste one seek per 16 KiB of its size, the
 * compaction costing as much I/O as about 40 KiB a seek) and Pebble's read-triggered compactions
 * (sampled iterator reads charging the top file of two overlapping levels) do.
 *
 * What. One budget per state of level 0 (one set of level-0 tables), in WastedReads: the bytes the
 * compaction would rewrite (level 0 and the level-1 tables it overlaps) divided by
 * readTriggeredCompactionBytesPerRead (LevelDB's 16 KiB), at least 100 (LevelDB's floor). Gets
 * charge each level-0 table whose blocks they search without deciding their key (a filter false
 * positive), seeks and scans each level-0 table they position on (ReadPath, BatchedGets, DbCursor,
 * Reads.scan, PrefixScans). A probe a filter turns away is not charged: it costs one cached line
 * of a filter chunk, while a charge is priced at a block read, and charging it compacted level 0
 * soon after nearly every open whose reads come before its writes (Pebble, which samples the bytes
 * iterators read, does not charge it either: such a table yields no bytes). Per level, not per
 * table as in LevelDB: a level-0 compaction takes all of level 0 anyway
 * (Compaction's invariant), so what reads waste on any of its tables counts toward the one
 * compaction that would end it.
 *
 * When. Only with writes quiet: the window of a budget is void if, by the time the budget is spent,
 * the memtable taking writes has changed or grown by more than memtableBytes / 16 since the window
 * opened; a new window opens then (writes that will soon flush another table would undo the
 * compaction's benefit and pay for it again at the next flush; LevelDB does not wait and compacts
 * under any load, one reason RocksDB removed seek compaction and most LevelDB users turn it off).
 * And only after write-driven work: a spent budget makes the compaction due, and the compaction
 * thread runs it only when the picker has nothing to do and no memtable waits for its flush
 * (Pebble runs read compactions last for the same reason); a due compaction found with a flush
 * pending is dropped, since the flush changes level 0 and opens a new window anyway.
 *
 * Never twice for one state: a WastedReads fires once, the compaction empties level 0, and an
 * empty level 0 is charged nothing, so the next read-triggered compaction needs a flush first. So
 * it rewrites at most what one level-0 compaction per flush would, and only while reads want it.
 *
 * Not thread-safe: guarded by the database mutex, like the rest of BackgroundWork, except {@link
 * #compactions} (volatile, read by stats()).
 */
public final class ReadTrigger {
  /** The smallest budget, as LevelDB's 100 seeks a table at least. */
  static final long MIN_BUDGET = 100;

  /** The memtable may grow by memtableBytes over this during a window that still counts as quiet. */
  static final int QUIET_GROWTH_FRACTION = 16;

  private final DbOptions options;
  private final CompactionPicker picker;
  private final Consumer<WastedReads> onSpent;

  /** The level 0 whose reads are counted, by file number, newest first. */
  private long[] armedLevelZero = new long[0];

  private WastedReads reads = WastedReads.NONE;

  /** The memtable taking writes when the window opened, and its bytes then. */
  private MemTable windowMem;

  private long windowMemBytes;

  /** A spent budget in a quiet window made the compaction due; the compaction thread takes it. */
  private boolean due;

  private volatile long compactions;

  /**
   * A trigger for a database with {@code options}; {@code onSpent} is called on the reader thread
   * that spent a budget, with the budget's WastedReads, and must hand it to {@link #budgetSpent}
   * under the mutex.
   */
  public ReadTrigger(DbOptions options, Consumer<WastedReads> onSpent) {
    this.options = options;
    this.picker = new CompactionPicker(options);
    this.onSpent = onSpent;
  }

  /** Whether the options let it run: it is an automatic compaction, and not for read-only opens. */
  private boolean enabled() {
    return options.compaction().readTriggeredCompactionBytesPerRead() > 0
        && options.compaction().autoCompaction()
        && !options.files().readOnly();
  }

  /**
   * Arms a new budget when level 0 of {@code v} is not the one armed (after every install, and at
   * open); returns true when it did, and reads must then be given {@link #reads()} (a new view).
   */
  public boolean refresh(Version v, MemTable mem) {
    long[] levelZero = fileNumbers(v.level(0));
    if (Arrays.equals(levelZero, armedLevelZero) && reads != WastedReads.NONE) {
      return false;
    }
    boolean wasArmed = reads != WastedReads.NONE;
    armedLevelZero = levelZero;
    due = false;
    if (levelZero.length == 0 || !enabled()) {
      reads = WastedReads.NONE;
      return wasArmed;
    }
    reads = new WastedReads(budget(v), onSpent);
    openWindow(mem);
    return true;
  }

  /** What reads of the current view charge. */
  public WastedReads reads() {
    return reads;
  }

  /** What {@link #budgetSpent} concluded. */
  public enum Outcome {
    /** The budget belonged to a level 0 that is gone: nothing to do. */
    STALE,
    /** Writes were not quiet: a new budget is armed, and reads must be given it (a new view). */
    REARMED,
    /** The compaction is due: schedule the compaction thread. */
    DUE
  }

  /**
   * The budget {@code spent} was spent by reads, while {@code mem} is the memtable taking writes: the
   * compaction becomes due if writes were quiet during the window and {@code spent} is still the
   * armed budget.
   */
  public Outcome budgetSpent(WastedReads spent, MemTable mem) {
    if (spent != reads) {
      return Outcome.STALE;
    }
    long growth = mem.approximateBytes() - windowMemBytes;
    if (mem != windowMem || growth > options.memtable().memtableBytes() / QUIET_GROWTH_FRACTION) {
      reads = new WastedReads(spent.budget(), onSpent);
      openWindow(mem);
      return Outcome.REARMED;
    }
    due = true;
    return Outcome.DUE;
  }

  /** True when a spent budget waits for the compaction thread. */
  public boolean due() {
    return due;
  }

  /**
   * The due compaction of all of level 0 into level 1, or null when it no longer applies (a flush is
   * pending, or level 0 changed); either way it is no longer due. The caller runs it only when no
   * write-driven compaction is due, and then calls {@link #ran}.
   */
  public Compaction take(Version v, boolean flushPending) {
    boolean wasDue = due;
    due = false;
    if (!wasDue
        || flushPending
        || !Arrays.equals(fileNumbers(v.level(0)), armedLevelZero)) {
      return null;
    }
    return picker.levelZero(v);
  }

  /** Counts a read-triggered compaction that was installed. */
  public void ran() {
    compactions++;
  }

  /** Read-triggered compactions installed since open. */
  public long compactions() {
    return compactions;
  }

  private long budget(Version v) {
    List<TableRef> levelZero = v.level(0);
    long bytes = v.levelBytes(0);
    for (TableRef t : Compaction.overlapping(v, 1, levelZero)) {
      bytes += t.metadata().fileSize();
    }
    return Math.max(MIN_BUDGET, bytes / options.compaction().readTriggeredCompactionBytesPerRead());
  }

  private void openWindow(MemTable mem) {
    windowMem = mem;
    windowMemBytes = mem.approximateBytes();
  }

  private static long[] fileNumbers(List<TableRef> tables) {
    long[] out = new long[tables.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = tables.get(i).metadata().fileNumber();
    }
    return out;
  }
}
