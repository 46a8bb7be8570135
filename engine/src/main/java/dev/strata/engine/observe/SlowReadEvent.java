package dev.strata.engine.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A read that took longer than the event's threshold (10 ms unless the recording sets another):
 * a JDK Flight Recorder event. The read path creates it through {@link FlightRecording#startRead},
 * only once the recorder is initialised (loading this class costs a fresh JVM JFR's set-up); then,
 * with the event disabled, {@code shouldCommit()} says no without a clock read being recorded.
 *
 * <p>Not thread-safe: one event per read, on the reading thread.
 */
@Name("dev.strata.SlowRead")
@Label("Strata Slow Read")
@Category({"Strata", "Read Path"})
@Description("A Get, row read, batched Get or scan opening slower than the threshold")
@Threshold("10 ms")
public final class SlowReadEvent extends jdk.jfr.Event {
  @Label("Directory")
  public String directory;

  @Label("Operation")
  public String operation;

  @Label("Keys")
  public int keys;

  /** An event whose clock started now; {@link #finish} it when the read is done. */
  public static SlowReadEvent start() {
    SlowReadEvent e = new SlowReadEvent();
    e.begin();
    return e;
  }

  /** Stops the clock and records the read if it was slower than the threshold. */
  public void finish(String directory, String operation, int keys) {
    end();
    if (shouldCommit()) {
      this.directory = directory;
      this.operation = operation;
      this.keys = keys;
      commit();
    }
  }
}
