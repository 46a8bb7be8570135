package dev.strata.engine;

import dev.strata.engine.compaction.FilterModel;
import dev.strata.engine.compaction.RowSpace;
import dev.strata.engine.compaction.TreeShape;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.read.PrefixScans;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableReadStats;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.CacheStats;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a database tells about itself: the counters of {@link DbStats} gathered from the parts that
 * keep them, and the tree's shape as the current view holds it (entries, tables and bytes per
 * level). Each call reads the current view once, so its figures are of one version.
 *
 * <p>Thread-safe: the counters are atomic, the view held for the call; the dropped-at-open figures
 * are set once, before the database is published.
 */
final class Statistics {
  private final EngineState state;
  private final ReadCounters readCounters;
  private final BlockCache cache;
  private final TableCache tables;
  private final LongAdder gets;
  private final PrefixScans prefixScans;
  private final Snapshots snapshots;
  private final BackgroundWork background;

  /** What the open's log replay dropped. */
  private long walBytesDroppedAtOpen;

  private long walRecordsDroppedAtOpen;

  Statistics(
      EngineState state,
      ReadCounters readCounters,
      BlockCache cache,
      TableCache tables,
      LongAdder gets,
      PrefixScans prefixScans,
      Snapshots snapshots,
      BackgroundWork background) {
    this.state = state;
    this.readCounters = readCounters;
    this.cache = cache;
    this.tables = tables;
    this.gets = gets;
    this.prefixScans = prefixScans;
    this.snapshots = snapshots;
    this.background = background;
  }

  /** Records what the open's log replay dropped; once, before the database is published. */
  void droppedAtOpen(long bytes, long records) {
    walBytesDroppedAtOpen = bytes;
    walRecordsDroppedAtOpen = records;
  }

  DbStats dbStats() {
    TableReadStats writtenHere = tables.writtenHereStats();
    TableReadStats s = readCounters.snapshot().plus(writtenHere);
    ReadView v = state.acquireView();
    try {
      Version version = v.version();
      CacheStats cached = cache.stats();
      return new DbStats(
          gets.sum(),
          s.tablesConsulted(),
          s.tablesSkippedByFilter(),
          s.filterFalsePositives(),
          s.dataBlocksRead(),
          s.dataBlockCacheHits(),
          s.filterChunksRead(),
          s.filterChunkCacheHits(),
          s.bytesRead(),
          cached.bytesHeld(),
          version.tableCount(),
          version.filterBytes(),
          new DbStats.MetadataStats(
              s.indexBlocksRead(),
              s.indexBlockCacheHits(),
              s.bytesReadAtOpen(),
              cached.metadataBytesHeld(),
              version.indexBytes(),
              tables.pinnedBytes() + cached.pinnedBytesHeld(),
              writtenHere.filterChunksRead() + writtenHere.indexBlocksRead()),
          new DbStats.PrefixScanStats(
              prefixScans.scans(), prefixScans.tablesConsulted(), prefixScans.tablesSkipped()),
          new DbStats.SnapshotStats(snapshots.count(), snapshots.oldestAgeMillis()),
          new DbStats.RecoveryStats(walBytesDroppedAtOpen, walRecordsDroppedAtOpen),
          background.compactionStats());
    } finally {
      v.release();
    }
  }

  /** See {@link Db#approximateEntries}. */
  long approximateEntries() {
    ReadView v = state.acquireView();
    try {
      long n = v.mutable().entryCount();
      for (MemTable m : v.frozen()) {
        n += m.entryCount();
      }
      for (TableRef t : v.version().allTables()) {
        n += t.metadata().entryCount();
      }
      return n;
    } finally {
      v.release();
    }
  }

  /** See {@link Db#tablesPerLevel}. */
  List<Integer> tablesPerLevel() {
    ReadView v = state.acquireView();
    try {
      List<Integer> out = new ArrayList<>();
      for (int level = 0; level < Version.NUM_LEVELS; level++) {
        out.add(v.version().level(level).size());
      }
      return Collections.unmodifiableList(out);
    } finally {
      v.release();
    }
  }

  /** See {@link Db#bytesPerLevel}. */
  List<Long> bytesPerLevel() {
    ReadView v = state.acquireView();
    try {
      List<Long> out = new ArrayList<>();
      for (int level = 0; level < Version.NUM_LEVELS; level++) {
        out.add(v.version().levelBytes(level));
      }
      return Collections.unmodifiableList(out);
    } finally {
      v.release();
    }
  }

  /** See {@link Db#levelStats}. */
  List<LevelStats> levelStats() {
    ReadView v = state.acquireView();
    try {
      RowSpace space = RowSpace.of(v.version());
      List<LevelStats> out = new ArrayList<>();
      for (int level = 0; level < Version.NUM_LEVELS; level++) {
        List<TableRef> tables = v.version().level(level);
        if (!tables.isEmpty()) {
          out.add(levelStats(level, tables, space));
        }
      }
      return Collections.unmodifiableList(out);
    } finally {
      v.release();
    }
  }

  /**
   * A level's figures; its expected false positives are those of an absent row uniform over the
   * tree's row range ({@code space}): each table's rate times the chance the row falls in its range.
   */
  private static LevelStats levelStats(int level, List<TableRef> tables, RowSpace space) {
    long entries = 0;
    long bytes = 0;
    long filterBytes = 0;
    double expected = 0;
    for (TableRef t : tables) {
      FileMetadata m = t.metadata();
      double bits = FilterModel.builtBitsPerKey(m);
      entries += m.entryCount();
      bytes += m.fileSize();
      filterBytes += Math.max(0, m.filterBytes());
      expected += space.share(m) * (bits == 0 ? 1 : FilterModel.bloomFpp(bits));
    }
    double perEntry = entries == 0 ? 0 : 1.0 / entries;
    return new LevelStats(
        level, tables.size(), entries, bytes, filterBytes, filterBytes * 8.0 * perEntry, expected);
  }

  /**
   * The tree's shape in the current view, for the filter budget; empty before the open publishes
   * its first view (the flush of a replayed log) or once the view is closed (a flush at close):
   * such a table gets the budget's bits, and never waits or fails for a shape.
   */
  static TreeShape shape(EngineState state) {
    ReadView v = state.view;
    if (v == null || !v.tryAcquire()) {
      return TreeShape.EMPTY;
    }
    try {
      return TreeShape.of(v.version());
    } finally {
      v.release();
    }
  }
}
