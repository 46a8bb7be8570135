package dev.strata.bench.dbbench;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * An operation of a phase that took over 10 ms, as a JDK Flight Recorder event committed when it
 * ended, with its latency as a field: a recording of the phase's child ({@code --jvm-args
 * "-XX:StartFlightRecording=..."}) can then line each slow put up with the GC pauses, parks, file
 * forces and engine events on the writer's thread that it spans (its interval is the commit time
 * minus the latency).
 *
 * <p>Not thread-safe: one event per slow operation, on the operation's thread.
 */
@Name("dev.strata.bench.SlowOp")
@Label("dbbench Slow Operation")
@Category({"Strata", "dbbench"})
@Description("An operation of a dbbench phase that took over 10 ms")
final class SlowOpEvent extends jdk.jfr.Event {
  @Label("Phase")
  String phase;

  @Label("Latency")
  @Timespan(Timespan.NANOSECONDS)
  long latency;

  /** Records an operation of {@code phase} that just ended after {@code nanos}. */
  static void record(String phase, long nanos) {
    SlowOpEvent e = new SlowOpEvent();
    if (e.shouldCommit()) {
      e.phase = phase;
      e.latency = nanos;
      e.commit();
    }
  }
}
