package dev.strata.engine;

/**
 * A consistent snapshot of the database's read-path counters: cumulative since open unless the
 * field says "now". Every step of a Get counts here, so read amplification is measured, not
 * guessed.
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
 * @param liveSnapshots snapshots taken with {@code Db.snapshot()} and not yet closed, now
 * @param oldestSnapshotAgeMillis how long the oldest live snapshot has been held, now; 0 when none
 * @param bytesReadAtOpen bytes read from SSTable files to open them (footer, properties, filter
 *     index and index block or top level, with their trailers; with {@code
 *     pinL0FilterAndIndexBlocksInCache}, every filter chunk and index partition of a level-0 table):
 *     at {@code Db.open}, which opens the tables ahead of reads, by the table cache when a read
 *     first needs a table, and again after the cache closed it to stay within {@code
 *     maxOpenFiles}; incremented once
 *     per table opened
 * @param walBytesDroppedAtOpen log bytes the last open did not replay: a torn last record, or
 *     under {@link WalRecoveryMode#POINT_IN_TIME} everything from the first damaged or missing
 *     record on (see the logger for which files and offsets); set once by open
 * @param walRecordsDroppedAtOpen log records the last open dropped: the torn or damaged one and
 *     every record that could still be read after it (a lower bound); set once by open
 * @param prefixScans calls of {@code scanPrefix}; incremented once per call that passed argument
 *     checks
 * @param prefixTablesConsulted SSTables whose row range met a prefix scan's prefix, summed over
 *     prefix scans (the prefix scan's {@code tablesConsulted})
 * @param prefixTablesSkipped of {@code prefixTablesConsulted}, the tables whose prefix filter said no
 *     row starts with the prefix, so the scan never reads them
 * @param indexBlocksRead index blocks read from disk by Gets and scans (block cache misses), so the
 *     index's read amplification is visible beside the filter's; incremented once per block read
 * @param indexBlockCacheHits index blocks served by the block cache; incremented once per hit
 * @param metadataCacheBytes of {@code blockCacheBytes}, what index blocks and filter chunks cost
 *     in the cache now (the cache keeps them above a floor of its capacity)
 * @param indexBytesOnDisk index bytes in all live SSTables now; with {@code filterBytesOnDisk} the
 *     metadata a Get may need, against the cache's capacity
 * @param pinnedMetadataBytes heap bytes of metadata that nothing evicts now: what the open tables
 *     hold outside the block cache (the top levels of their indexes and their filter indexes),
 *     plus the filter chunks and index partitions pinned in the cache
 *     ({@code pinL0FilterAndIndexBlocksInCache}), which {@code blockCacheBytes} counts too
 * @param readTriggeredCompactions compactions of level 0 into level 1 that reads triggered, not
 *     writes: Gets and seeks paid for level-0 tables that did not hold their keys while writes were
 *     quiet ({@code DbOptions.readTriggeredCompactionBytesPerRead}); incremented once per
 *     compaction installed
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
    long liveSnapshots,
    long oldestSnapshotAgeMillis,
    long bytesReadAtOpen,
    long walBytesDroppedAtOpen,
    long walRecordsDroppedAtOpen,
    long prefixScans,
    long prefixTablesConsulted,
    long prefixTablesSkipped,
    long indexBlocksRead,
    long indexBlockCacheHits,
    long metadataCacheBytes,
    long indexBytesOnDisk,
    long pinnedMetadataBytes,
    long readTriggeredCompactions) {

  /** All counters zero: the stats of a database that was just created and never read. */
  public static final DbStats ZERO =
      new DbStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
