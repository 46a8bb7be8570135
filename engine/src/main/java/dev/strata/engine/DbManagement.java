package dev.strata.engine;

import dev.strata.engine.observe.DbMXBean;
import dev.strata.engine.version.Version;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The {@link DbMXBean} of one open database: each attribute reads the database's counters when
 * asked. Registered on open and unregistered on close, so it never outlives the database.
 *
 * <p>Thread-safe.
 */
final class DbManagement implements DbMXBean {
  private final Db db;
  private final String directory;

  DbManagement(Db db, String directory) {
    this.db = db;
    this.directory = directory;
  }

  @Override
  public String getDirectory() {
    return directory;
  }

  @Override
  public long getGets() {
    return db.stats().gets();
  }

  @Override
  public long getTablesConsulted() {
    return db.stats().tablesConsulted();
  }

  @Override
  public long getTablesSkippedByBloom() {
    return db.stats().tablesSkippedByBloom();
  }

  @Override
  public long getBloomFalsePositives() {
    return db.stats().bloomFalsePositives();
  }

  @Override
  public long getDataBlocksRead() {
    return db.stats().dataBlocksRead();
  }

  @Override
  public long getDataBlockCacheHits() {
    return db.stats().dataBlockCacheHits();
  }

  @Override
  public long getFilterBlocksRead() {
    return db.stats().filterBlocksRead();
  }

  @Override
  public long getFilterBlockCacheHits() {
    return db.stats().filterBlockCacheHits();
  }

  @Override
  public long getBytesReadFromDisk() {
    return db.stats().bytesReadFromDisk();
  }

  @Override
  public long getBlockCacheBytes() {
    return db.stats().blockCacheBytes();
  }

  @Override
  public long getTableCount() {
    return db.stats().tableCount();
  }

  @Override
  public long getFilterBytesOnDisk() {
    return db.stats().filterBytesOnDisk();
  }

  @Override
  public long getLiveSnapshots() {
    return db.stats().snapshots().live();
  }

  @Override
  public long getOldestSnapshotAgeMillis() {
    return db.stats().snapshots().oldestAgeMillis();
  }

  @Override
  public long getWrites() {
    return db.writeStats().writes();
  }

  @Override
  public long getLogWrites() {
    return db.writeStats().logWrites();
  }

  @Override
  public int[] getTablesPerLevel() {
    return db.tablesPerLevel().stream().mapToInt(Integer::intValue).toArray();
  }

  @Override
  public long[] getBytesPerLevel() {
    List<Long> bytes = db.bytesPerLevel();
    return bytes.stream().mapToLong(Long::longValue).toArray();
  }

  @Override
  public long[] getEntriesPerLevel() {
    return perLevel(LevelStats::entries);
  }

  @Override
  public long[] getFilterBytesPerLevel() {
    return perLevel(LevelStats::filterBytes);
  }

  @Override
  public double[] getFilterBitsPerKeyPerLevel() {
    return perLevelFraction(LevelStats::filterBitsPerKey);
  }

  @Override
  public double[] getExpectedFalsePositivesPerLevel() {
    return perLevelFraction(LevelStats::expectedFalsePositiveRate);
  }

  /** {@code field} of each level's {@link LevelStats}, level 0 first; 0 for a level without tables. */
  private long[] perLevel(ToLongFunction<LevelStats> field) {
    long[] out = new long[Version.NUM_LEVELS];
    db.levelStats().forEach(l -> out[l.level()] = field.applyAsLong(l));
    return out;
  }

  /** {@link #perLevel} of a fractional field. */
  private double[] perLevelFraction(ToDoubleFunction<LevelStats> field) {
    double[] out = new double[Version.NUM_LEVELS];
    db.levelStats().forEach(l -> out[l.level()] = field.applyAsDouble(l));
    return out;
  }

  @Override
  public String getDescription() {
    return db.describe();
  }
}
