package dev.strata.bench.levels;

import java.util.List;
import java.util.Map;

/**
 * What one configuration of {@code filterlevels} measured.
 *
 * @param config the configuration's label
 * @param fillSeconds the fill's wall time
 * @param levels the tree after the fill, one row per non-empty level
 * @param falsePositives absent Gets' filter probes that passed (each one a table searched in vain)
 * @param probes filter probes in all during the absent Gets
 * @param gets absent Gets run
 * @param modelFalsePositives the engine's model of false positives per absent Get, NaN if it has none
 * @param countedAs how {@code falsePositives} was counted, for the report
 * @param tableOptions RocksDB's block-based table options as its OPTIONS file recorded them (what
 *     really applied), empty for Strata
 */
record FilterResult(String config, double fillSeconds, List<Level> levels, long falsePositives,
    long probes, long gets, double modelFalsePositives, String countedAs,
    Map<String, String> tableOptions) {

  /**
   * One level of the tree.
   *
   * @param level the level number
   * @param tables its tables
   * @param entries its entries
   * @param filterBytes the bytes of its tables' filters
   * @param modelFalsePositiveRate the model's false positives per probe of the level, NaN if none
   */
  record Level(int level, int tables, long entries, long filterBytes, double modelFalsePositiveRate) {
    double bitsPerEntry() {
      return entries == 0 ? 0 : filterBytes * 8.0 / entries;
    }
  }

  long filterBytes() {
    return levels.stream().mapToLong(Level::filterBytes).sum();
  }

  double falsePositivesPerGet() {
    return gets == 0 ? 0 : (double) falsePositives / gets;
  }
}
