package dev.strata.engine.observe;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * One compaction: tables of a level (and the overlapping ones below) merged into the next level. A
 * JDK Flight Recorder event.
 *
 * <p>Not thread-safe: one event per compaction, on the thread that compacts.
 */
@Name("dev.strata.Compaction")
@Label("Strata Compaction")
@Category({"Strata", "Write Path"})
@Description("Tables merged into the next level")
public final class CompactionEvent extends jdk.jfr.Event {
  @Label("Directory")
  public String directory;

  @Label("Output Level")
  public int outputLevel;

  @Label("Input Tables")
  public int inputTables;

  @Label("Input Bytes")
  @DataAmount
  public long inputBytes;

  @Label("Tables Written")
  public int tablesWritten;

  @Label("Bytes Written")
  @DataAmount
  public long bytesWritten;
}
