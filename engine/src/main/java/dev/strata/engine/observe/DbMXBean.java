package dev.strata.engine.observe;

/**
 * The management view of one open database, registered with the platform MBean server while it is
 * open under {@code dev.strata:type=Db,path="<directory>"} (a read-only open adds {@code
 * readOnly=<n>}: see {@link MBeans}): its read counters ({@code DbStats}),
 * its write counters ({@code WriteStats}), its tables and bytes per level, and the {@code
 * describe()} text. Every attribute is read when asked, so a JMX console sees live figures.
 *
 * <p>Thread-safe.
 */
public interface DbMXBean {
  /** The database directory. */
  String getDirectory();

  long getGets();

  long getTablesConsulted();

  long getTablesSkippedByBloom();

  long getBloomFalsePositives();

  long getDataBlocksRead();

  long getDataBlockCacheHits();

  long getFilterBlocksRead();

  long getFilterBlockCacheHits();

  long getBytesReadFromDisk();

  long getBlockCacheBytes();

  long getTableCount();

  long getFilterBytesOnDisk();

  long getLiveSnapshots();

  long getOldestSnapshotAgeMillis();

  /** Acknowledged writes. */
  long getWrites();

  /** Log appends that carried them. */
  long getLogWrites();

  /** Tables per level, level 0 first. */
  int[] getTablesPerLevel();

  /** Bytes of tables per level, level 0 first. */
  long[] getBytesPerLevel();

  /** Entries of tables per level, level 0 first (as {@code Db.levelStats()}, every level). */
  long[] getEntriesPerLevel();

  /** Filter bytes per level, level 0 first. */
  long[] getFilterBytesPerLevel();

  /** The filters' bits per key per level, level 0 first (0 for a level without tables). */
  double[] getFilterBitsPerKeyPerLevel();

  /**
   * The false positives an absent Get expects per level by the filters' model, level 0 first, for
   * absent rows uniform over the tree's row range (as {@code LevelStats} counts them).
   */
  double[] getExpectedFalsePositivesPerLevel();

  /** The multi-line summary of {@code Db.describe()}. */
  String getDescription();
}
