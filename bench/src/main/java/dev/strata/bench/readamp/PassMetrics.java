package dev.strata.bench.readamp;

/**
 * What one measured pass cost per read, from the engine's own counters. A null field is a value
 * the engine cannot report for this query kind; it is written as an empty CSV cell, never guessed.
 *
 * @param tablesConsulted tables whose key range covered the key and were asked (filter or search)
 * @param tablesSkipped of those, the ones the filter ruled out
 * @param falsePositives of those, the ones the filter let through that held no entry for the key
 * @param filterBlocksRead filter blocks (chunks, partitions or whole filters) read from the file:
 *     block-cache misses
 * @param filterBlocksAccessed filter block lookups in the block cache, hits and misses
 * @param dataBlocksRead data blocks read from the file: block-cache misses
 * @param dataBlocksAccessed data block lookups in the block cache, hits and misses
 * @param bytesRead bytes read from table files
 * @param fprMeasured false positives over the filter's negative answers plus false positives
 *     (the share of tables without the key that the filter let through)
 *
 * <p>Immutable.
 */
record PassMetrics(
    Double tablesConsulted,
    Double tablesSkipped,
    Double falsePositives,
    Double filterBlocksRead,
    Double filterBlocksAccessed,
    Double dataBlocksRead,
    Double dataBlocksAccessed,
    Double bytesRead,
    Double fprMeasured) {

  /**
   * The metrics of a pass of {@code gets} reads: the table figures the target derived from its
   * engine's filter counters, and the block and byte figures every target counts alike, as the
   * change of {@code before} to {@code after}.
   */
  static PassMetrics of(
      Double tablesConsulted,
      Double tablesSkipped,
      Double falsePositives,
      Double fprMeasured,
      Target.Counters before,
      Target.Counters after,
      long gets) {
    return new PassMetrics(
        tablesConsulted,
        tablesSkipped,
        falsePositives,
        perGet(after.filterMisses() - before.filterMisses(), gets),
        perGet(
            after.filterMisses() + after.filterHits() - before.filterMisses() - before.filterHits(),
            gets),
        perGet(after.dataMisses() - before.dataMisses(), gets),
        perGet(
            after.dataMisses() + after.dataHits() - before.dataMisses() - before.dataHits(), gets),
        perGet(after.bytesRead() - before.bytesRead(), gets),
        fprMeasured);
  }

  /** {@code count / gets}. */
  static Double perGet(long count, long gets) {
    return gets == 0 ? null : (double) count / gets;
  }

  /** False positives over all tables the filter was asked about that lacked the key; null when none. */
  static Double fpr(long falsePositives, long trueNegatives) {
    long negatives = falsePositives + trueNegatives;
    return negatives == 0 ? null : (double) falsePositives / negatives;
  }
}
