package dev.strata.sstable;

/**
 * A snapshot of {@link ReadCounters}; see there for what each counter counts.
 *
 * <p>Immutable.
 */
public record TableReadStats(
    long tablesConsulted,
    long tablesSkippedByFilter,
    long filterFalsePositives,
    long filterChunksRead,
    long filterChunkCacheHits,
    long filterChunksCorrupt,
    long indexBlocksRead,
    long indexBlockCacheHits,
    long dataBlocksRead,
    long dataBlockCacheHits,
    long bytesRead,
    long bytesReadAtOpen) {

  /** These counters and {@code other}'s together (two sets of readers counted apart). */
  public TableReadStats plus(TableReadStats other) {
    return new TableReadStats(
        tablesConsulted + other.tablesConsulted,
        tablesSkippedByFilter + other.tablesSkippedByFilter,
        filterFalsePositives + other.filterFalsePositives,
        filterChunksRead + other.filterChunksRead,
        filterChunkCacheHits + other.filterChunkCacheHits,
        filterChunksCorrupt + other.filterChunksCorrupt,
        indexBlocksRead + other.indexBlocksRead,
        indexBlockCacheHits + other.indexBlockCacheHits,
        dataBlocksRead + other.dataBlocksRead,
        dataBlockCacheHits + other.dataBlockCacheHits,
        bytesRead + other.bytesRead,
        bytesReadAtOpen + other.bytesReadAtOpen);
  }

  /** The counters accumulated between {@code earlier} and this snapshot. */
  public TableReadStats minus(TableReadStats earlier) {
    return new TableReadStats(
        tablesConsulted - earlier.tablesConsulted,
        tablesSkippedByFilter - earlier.tablesSkippedByFilter,
        filterFalsePositives - earlier.filterFalsePositives,
        filterChunksRead - earlier.filterChunksRead,
        filterChunkCacheHits - earlier.filterChunkCacheHits,
        filterChunksCorrupt - earlier.filterChunksCorrupt,
        indexBlocksRead - earlier.indexBlocksRead,
        indexBlockCacheHits - earlier.indexBlockCacheHits,
        dataBlocksRead - earlier.dataBlocksRead,
        dataBlockCacheHits - earlier.dataBlockCacheHits,
        bytesRead - earlier.bytesRead,
        bytesReadAtOpen - earlier.bytesReadAtOpen);
  }
}
