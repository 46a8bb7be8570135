package dev.strata.engine.observe;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A memtable written out as level-0 tables: a JDK Flight Recorder event, recorded when JFR runs
 * with it enabled (on by default in the {@code default} and {@code profile} settings).
 *
 * <p>Not thread-safe: one event per flush, on the thread that flushes.
 */
@Name("dev.strata.Flush")
@Label("Strata Flush")
@Category({"Strata", "Write Path"})
@Description("A memtable written out as level-0 tables")
public final class FlushEvent extends jdk.jfr.Event {
  @Label("Directory")
  public String directory;

  @Label("Entries")
  public long entries;

  @Label("Tables Written")
  public int tablesWritten;

  @Label("Bytes Written")
  @DataAmount
  public long bytesWritten;
}
