package dev.strata.engine;

import java.util.Objects;

/**
 * A consistent snapshot of the database's read-path counters: cumulative since open unless the
 * field says "now". Every step of a Get counts here, so read amplification is measured, not
 * guessed. The twelve counters of a Get's path are components of their own; the rest come in
 * groups: {@link #metadata()}, {@link #prefixScans()}, {@link #snapshots()}, {@link #recovery()}
 * and {@link #compactions()}.
 *
 * <p>Immutable.
 *
 * @param gets calls of {@code get}, both the key-value and the wide-row form; incremented once per
 *     call that passed argument checks
 * @param tablesConsulted SSTables whose key range (smallest and largest row) covered a Get's row,
 *     summed over Gets; incremented once per such table, before its filter is probed
 * @param tablesSkippedByBloom of {@code tablesConsulted}, the tables whose filter said "absent", so
 *     no index or data block was read; incremented once per skipped table
 * @param bloomFalsePositives of {@code tablesConsulted}, the tables whose filter said "maybe" (or
 *     that had none to ask) but that held no cell or tombstone for the key; incremented after the
 *     data block search came up empty
 * @param dataBlocksRead data blocks read from disk, that is block cache misses, by Gets and scans;
 *     incremented once per block read
 * @param dataBlockCacheHits data blocks served by the block cache; incremented once per hit
 * @param filterBlocksRead filter chunks read from disk: first lazy loads and reloads after
 *     eviction; incremented once per chunk read
 * @param filterBlockCacheHits filter chunks served by the block cache; incremented once per hit
 * @param bytesReadFromDisk bytes read from SSTable files by Gets, scans and {@code getRow} (data,
 *     index and filter blocks with their trailers), and by nothing else: not by opening tables, not
 *     by compaction; incremented by each read's length
 * @param blockCacheBytes bytes held in the block cache now
 * @param tableCount live SSTables now, over all levels
 * @param filterBytesOnDisk filter bytes (chunks and their index) in all live SSTables now
 * @param metadata the index blocks and the metadata the tables hold, read and cache
 * @param prefixScans prefix scans and the tables they consulted and skipped
 * @param snapshots the snapshots held now
 * @param recovery what the last open's log replay dropped
 * @param compactions compactions that reads, not writes, triggered
 */
public record DbStats(
    long gets,
    long tablesConsulted,
    long tablesSkippedByBloom,
    long bloomFalsePositives,
    long dataBlocksRead,
    long dataBlockCacheHits,
    long filterBlocksRead,
    long filterBlockCacheHits,
    long bytesReadFromDisk,
    long blockCacheBytes,
    long tableCount,
    long filterBytesOnDisk,
    MetadataStats metadata,
    PrefixScanStats prefixScans,
    SnapshotStats snapshots,
    RecoveryStats recovery,
    CompactionStats compactions) {

  /** All counters zero: the stats of a database that was just created and never read. */
  public static final DbStats ZERO =
      new DbStats(
          0,
          0,
          0,
          0,
          0,
          0,
          0,
          0,
          0,
          0,
          0,
          0,
          new MetadataStats(0, 0, 0, 0, 0, 0, 0),
          new PrefixScanStats(0, 0, 0),
          new SnapshotStats(0, 0),
          new RecoveryStats(0, 0),
          new CompactionStats(0, 0, 0));

  /** Checks that no group is missing. */
  public DbStats {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(prefixScans, "prefixScans");
    Objects.requireNonNull(snapshots, "snapshots");
    Objects.requireNonNull(recovery, "recovery");
    Objects.requireNonNull(compactions, "compactions");
  }

  /**
   * The tables' metadata beside their data: index blocks read and served by the cache, what opening
   * tables reads, and the metadata bytes on disk, in the cache and held where nothing evicts them.
   *
   * <p>Immutable.
   *
   * @param indexBlocksRead index blocks read from disk by Gets and scans (block cache misses), so
   *     the index's read amplification is visible beside the filter's; incremented once per block
   *     read
   * @param indexBlockCacheHits index blocks served by the block cache; incremented once per hit
   * @param bytesReadAtOpen bytes read from SSTable files to open them (footer, properties, filter
   *     index and index block or top level, with their trailers; with {@code
   *     pinL0FilterAndIndexBlocksInCache}, every filter chunk and index partition of a level-0
   *     table): at {@code Db.open}, which opens the tables ahead of reads, by the table cache when
   *     a read first needs a table, and again after the cache closed it to stay within {@code
   *     maxOpenFiles}; incremented once per table opened
   * @param cacheBytes of {@link DbStats#blockCacheBytes()}, what index blocks and filter chunks
   *     cost in the cache now (the cache keeps them above a floor of its capacity)
   * @param indexBytesOnDisk index bytes in all live SSTables now; with {@link
   *     DbStats#filterBytesOnDisk()} the metadata a Get may need, against the cache's capacity
   * @param pinnedBytes bytes of metadata that nothing evicts now: the heap the open tables hold
   *     outside the block cache (the top levels of their indexes and their filter indexes), plus
   *     the filter chunks and index partitions pinned in the cache ({@code
   *     pinL0FilterAndIndexBlocksInCache}; every filter chunk under a {@code filterMemoryBytes}
   *     bound within the cache's metadata share), which {@link DbStats#blockCacheBytes()} counts too;
   *     pinned filter chunks lie in direct memory, off the heap
   * @param blocksReadOfTablesWrittenHere of {@link DbStats#filterBlocksRead()} and {@code
   *     indexBlocksRead}, the filter chunks and index partitions read from disk of tables this
   *     process's flushes and compactions wrote since open: 0 while {@code cacheMetadataOnWrite}
   *     puts them in the cache as they are written and the cache's metadata share keeps them
   */
  public record MetadataStats(
      long indexBlocksRead,
      long indexBlockCacheHits,
      long bytesReadAtOpen,
      long cacheBytes,
      long indexBytesOnDisk,
      long pinnedBytes,
      long blocksReadOfTablesWrittenHere) {}

  /**
   * Prefix scans ({@code Db.scanPrefix}) and the tables their prefix filters let them skip.
   *
   * <p>Immutable.
   *
   * @param scans calls of {@code scanPrefix}; incremented once per call that passed argument checks
   * @param tablesConsulted SSTables whose row range met a prefix scan's prefix, summed over prefix
   *     scans (the prefix scan's {@link DbStats#tablesConsulted()})
   * @param tablesSkipped of {@code tablesConsulted}, the tables whose prefix filter said no row
   *     starts with the prefix, so the scan never reads them
   */
  public record PrefixScanStats(long scans, long tablesConsulted, long tablesSkipped) {}

  /**
   * The snapshots ({@code Db.snapshot()}) held now, which keep flushes and compactions from
   * dropping what they see.
   *
   * <p>Immutable.
   *
   * @param live snapshots taken with {@code Db.snapshot()} and not yet closed, now
   * @param oldestAgeMillis how long the oldest live snapshot has been held, now; 0 when none
   */
  public record SnapshotStats(long live, long oldestAgeMillis) {}

  /**
   * What the last open did not replay of the logs (see {@link WalRecoveryMode}); set once by open.
   *
   * <p>Immutable.
   *
   * @param walBytesDropped log bytes the last open did not replay: a torn last record, or under
   *     {@link WalRecoveryMode#POINT_IN_TIME} everything from the first damaged or missing record
   *     on (see the logger for which files and offsets)
   * @param walRecordsDropped log records the last open dropped: the torn or damaged one and every
   *     record that could still be read after it (a lower bound)
   */
  public record RecoveryStats(long walBytesDropped, long walRecordsDropped) {}

  /**
   * Compactions the tree's size did not call for: those the read path caused, and filter refits.
   *
   * <p>Immutable.
   *
   * @param readTriggered compactions of level 0 into level 1 that reads triggered, not writes: Gets
   *     and seeks paid for level-0 tables that did not hold their keys while writes were quiet
   *     ({@link CompactionOptions#readTriggeredCompactionBytesPerRead()}); incremented once per
   *     compaction installed
   * @param filterRefits tables rewritten into their own level for their filters' bits at rest
   *     ({@link FilterOptions#refitFiltersAtRest()}); incremented once per refit installed
   * @param filterRefitBytes the bytes of the tables refit (each read and written once)
   */
  public record CompactionStats(long readTriggered, long filterRefits, long filterRefitBytes) {}
}
