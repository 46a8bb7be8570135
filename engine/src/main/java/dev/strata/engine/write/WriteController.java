package dev.strata.engine.write;

import dev.strata.engine.observe.FlightRecording;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Keeps writers from outrunning compaction (RocksDB's write controller): it says, from the shape of
 * the tree, whether a write may go ahead at once, must be slowed down, or must stop until
 * compaction catches up, and it counts the stalls it imposes so an application can see them.
 *
 * <p>Two signals drive it. The number of level-0 tables: each one is consulted by every Get, and
 * each one makes the next level-0 compaction bigger. And the bytes compaction still has to rewrite
 * to bring every level within its limit ({@code pendingCompactionBytes}). Below the slowdown
 * thresholds writes run free. Between the slowdown and the stop threshold each write group is
 * delayed as if writes were limited to a rate that falls as the signal rises: {@code
 * delayedWriteRate} bytes per second at the slowdown threshold, down to a sixteenth of it just below
 * the stop threshold. A delay is proportional to the group's bytes, so writers with small values
 * are slowed by microseconds, not milliseconds, and the slowdown grows gradually instead of
 * jumping. At the stop threshold writes wait until compaction brings the signal back below it.
 *
 * <p>Disabled (every write goes ahead) when automatic compaction is off: then nothing would ever
 * bring level 0 down, and tables stay where they are flushed on purpose. Open bulk loads raise both
 * level-0 triggers (see {@link BulkLoads}).
 *
 * <p>Thread-safe: the decisions are pure functions of their arguments and the counters are adders.
 */
public final class WriteController {
  /** The slowest rate, at the top of the slowdown range, as a fraction of the configured rate. */
  private static final int SLOWEST_RATE_DIVISOR = 16;

  private final boolean enabled;
  private final int level0SlowdownTrigger;
  private final int level0StopTrigger;
  private final long softPendingBytes;
  private final long hardPendingBytes;
  private final long delayedWriteRate;
  private final BulkLoads bulkLoads;

  private final LongAdder slowdowns = new LongAdder();
  private final LongAdder slowdownNanos = new LongAdder();
  private final LongAdder stops = new LongAdder();
  private final LongAdder stopNanos = new LongAdder();

  /**
   * @param enabled false to let every write go ahead (automatic compaction off)
   * @param level0SlowdownTrigger level-0 tables at which writes start to slow down
   * @param level0StopTrigger level-0 tables at which writes stop; at least the slowdown trigger
   * @param softPendingBytes pending compaction bytes at which writes slow down; 0 for no limit
   * @param hardPendingBytes pending compaction bytes at which writes stop; 0 for no limit
   * @param delayedWriteRate bytes per second allowed at the start of a slowdown, at least 1
   * @param bulkLoads the database's bulk loads, which raise both level-0 triggers while open
   */
  public WriteController(
      boolean enabled,
      int level0SlowdownTrigger,
      int level0StopTrigger,
      long softPendingBytes,
      long hardPendingBytes,
      long delayedWriteRate,
      BulkLoads bulkLoads) {
    if (level0SlowdownTrigger < 1 || level0StopTrigger < level0SlowdownTrigger) {
      throw new IllegalArgumentException(
          "triggers must be 1 <= slowdown <= stop: " + level0SlowdownTrigger + ", " + level0StopTrigger);
    }
    if (softPendingBytes < 0 || hardPendingBytes < 0 || delayedWriteRate < 1) {
      throw new IllegalArgumentException("negative limit or rate below 1 byte per second");
    }
    this.enabled = enabled;
    this.level0SlowdownTrigger = level0SlowdownTrigger;
    this.level0StopTrigger = level0StopTrigger;
    this.softPendingBytes = softPendingBytes;
    this.hardPendingBytes = hardPendingBytes;
    this.delayedWriteRate = delayedWriteRate;
    this.bulkLoads = bulkLoads;
  }

  /** The level-0 table count at which writes stop now. */
  public int level0StopTrigger() {
    return level0StopTrigger + bulkLoads.stallRaise();
  }

  /** The stop trigger with level 0 holding {@code level0Tables} (see BulkLoads#stallRaise). */
  private int stopTrigger(int level0Tables) {
    return level0StopTrigger + bulkLoads.stallRaise(level0Tables);
  }

  /** True when writes must wait for compaction before going on. */
  public boolean mustStop(int level0Tables, long pendingCompactionBytes) {
    return enabled
        && (level0Tables >= stopTrigger(level0Tables)
            || (hardPendingBytes > 0 && pendingCompactionBytes >= hardPendingBytes));
  }

  /**
   * True when freezing one more memtable could push level 0 past the stop trigger once it and the
   * memtables already frozen are flushed: the memtable must wait instead, so level 0 never holds
   * more tables than the stop trigger.
   */
  public boolean mustNotFreeze(int level0Tables, int frozenMemTables) {
    return enabled && level0Tables + frozenMemTables + 1 > stopTrigger(level0Tables);
  }

  /**
   * True when a flush must not install {@code newTables} level-0 tables yet, because level 0 would
   * then hold more than the stop trigger: it waits for a level-0 compaction instead. A flush
   * usually writes one table, which {@link #mustNotFreeze} has reserved room for; only a memtable
   * whose index would exceed what one table may hold becomes several. An empty level 0 always
   * takes them (nothing else could make room), so a single flush of more tables than the stop
   * trigger is the one way past it.
   */
  public boolean mustNotInstall(int level0Tables, int newTables) {
    return enabled && level0Tables > 0 && level0Tables + newTables > stopTrigger(level0Tables);
  }

  /** True when level 0 holds more tables than the stop trigger allows (an invariant's check). */
  public boolean pastStopTrigger(int level0Tables) {
    return enabled && level0Tables > level0StopTrigger();
  }

  /**
   * How long a write group of {@code groupBytes} bytes must wait before it goes ahead, in
   * nanoseconds; 0 when it need not. Meaningful only when {@link #mustStop} is false.
   */
  public long delayNanos(int level0Tables, long pendingCompactionBytes, long groupBytes) {
    if (!enabled) {
      return 0;
    }
    int raise = bulkLoads.stallRaise(level0Tables);
    double pressure =
        Math.max(
            fraction(level0Tables, level0SlowdownTrigger + raise, level0StopTrigger + raise),
            softPendingBytes == 0
                ? -1
                : fraction(
                    pendingCompactionBytes,
                    softPendingBytes,
                    hardPendingBytes == 0 ? Long.MAX_VALUE : hardPendingBytes));
    if (pressure < 0) {
      return 0;
    }
    // The rate falls linearly in 1 / rate from the full rate at pressure 0 to 1/16 of it near 1.
    double divisor = 1 + pressure * (SLOWEST_RATE_DIVISOR - 1);
    double seconds = groupBytes * divisor / delayedWriteRate;
    return Math.max(1, (long) (seconds * TimeUnit.SECONDS.toNanos(1)));
  }

  /**
   * Where {@code value} lies in [slowdown, stop): -1 below it, 0 at its start, near 1 at its end.
   */
  private static double fraction(long value, long slowdown, long stop) {
    if (value < slowdown) {
      return -1;
    }
    if (stop <= slowdown) {
      return 1;
    }
    return Math.min(1, (double) (value - slowdown) / (stop - slowdown));
  }

  /** Counts one delayed write group and the time it waited. */
  public void recordSlowdown(long nanos) {
    slowdowns.increment();
    slowdownNanos.add(nanos);
    FlightRecording.writeStall("slowdown", nanos);
  }

  /** Counts one stop and the time writers waited in it. */
  public void recordStop(long nanos) {
    stops.increment();
    stopNanos.add(nanos);
    FlightRecording.writeStall("stop", nanos);
  }

  /** Write groups delayed so far. */
  public long slowdowns() {
    return slowdowns.sum();
  }

  /** Nanoseconds write groups spent delayed. */
  public long slowdownNanos() {
    return slowdownNanos.sum();
  }

  /** Times writers stopped. */
  public long stops() {
    return stops.sum();
  }

  /** Nanoseconds writers spent stopped. */
  public long stopNanos() {
    return stopNanos.sum();
  }
}
