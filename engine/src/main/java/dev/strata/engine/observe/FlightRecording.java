package dev.strata.engine.observe;

import jdk.jfr.FlightRecorder;

/**
 * Whether the JDK Flight Recorder is in use in this JVM, so that the engine loads its event
 * classes only then.
 *
 * <p>Why: the first load of any {@code jdk.jfr.Event} subclass makes the JDK instrument it and load
 * JFR's own classes, a large part of a second of one thread in a fresh JVM even when no recording
 * ever starts.
 * Created on the read path, {@link SlowReadEvent} put that on the first Get after open. Every way to
 * record (the {@code -XX:StartFlightRecording} flag, {@code jcmd JFR.start}, the JMX bean, a {@code
 * jdk.jfr.Recording} or a {@code RecordingStream}) initialises the recorder before its first
 * recording starts, and an event created before that could not be recorded anyway. So the event
 * sites ask this first: while it says no, they create no event and load no event class.
 *
 * <p>Thread-safe (static methods only).
 */
public final class FlightRecording {
  private FlightRecording() {}

  /** True once the Flight Recorder has been initialised in this JVM (a volatile read). */
  public static boolean initialized() {
    return FlightRecorder.isInitialized();
  }

  /**
   * A {@link SlowReadEvent} whose clock started now, or null while the recorder is not initialised;
   * hand it to {@link #finishRead}.
   */
  public static SlowReadEvent startRead() {
    return initialized() ? SlowReadEvent.start() : null;
  }

  /** Finishes {@code event} from {@link #startRead}; nothing when it is null. */
  public static void finishRead(SlowReadEvent event, String directory, String operation, int keys) {
    if (event != null) {
      event.finish(directory, operation, keys);
    }
  }

  /** Records a write stall (see {@link WriteStallEvent#record}) when the recorder is initialised. */
  public static void writeStall(String cause, long nanos) {
    if (initialized()) {
      WriteStallEvent.record(cause, nanos);
    }
  }
}
