package dev.strata.engine.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * A writer held back because flushes or compactions are behind: a write group delayed in the
 * slowdown range, or writers stopped at a stop trigger. A JDK Flight Recorder event, committed when
 * the stall ends with its length as a field (the stall is measured by the write path, which counts
 * it in {@code WriteStats} too).
 *
 * <p>Not thread-safe: one event per stall, on the stalled writer's thread.
 */
@Name("dev.strata.WriteStall")
@Label("Strata Write Stall")
@Category({"Strata", "Write Path"})
@Description("A writer waited for flushes or compactions to catch up")
public final class WriteStallEvent extends jdk.jfr.Event {
  @Label("Cause")
  @Description("slowdown (a delayed write group) or stop (writers waited for compaction)")
  public String cause;

  @Label("Stall")
  @Timespan(Timespan.NANOSECONDS)
  public long stall;

  /** Records a stall of {@code nanos} for {@code cause}, when a recording enables the event. */
  public static void record(String cause, long nanos) {
    WriteStallEvent e = new WriteStallEvent();
    if (e.shouldCommit()) {
      e.cause = cause;
      e.stall = nanos;
      e.commit();
    }
  }
}
