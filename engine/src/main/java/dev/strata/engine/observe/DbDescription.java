package dev.strata.engine.observe;

import dev.strata.engine.DbStats;
import dev.strata.engine.WriteStats;
import java.util.List;
import java.util.Locale;

/**
 * The text of {@code Db.describe()}, in the spirit of RocksDB's {@code rocksdb.stats} property: the
 * tables and bytes of every level, then the read path's work (Gets, tables consulted and skipped by
 * the filter, blocks read and served by the cache), prefix scans, writes and snapshots.
 *
 * <p>Thread-safe (stateless).
 */
public final class DbDescription {
  private DbDescription() {}

  /** Formats the figures of one moment of the database in {@code directory}. */
  public static String format(
      String directory,
      DbStats s,
      WriteStats w,
      List<Integer> tablesPerLevel,
      List<Long> bytesPerLevel) {
    StringBuilder b = new StringBuilder();
    b.append("** Strata stats: ").append(directory).append(" **\n");
    b.append(String.format(Locale.ROOT, "%-6s %7s %12s%n", "Level", "Files", "Size(MiB)"));
    long files = 0;
    long bytes = 0;
    for (int level = 0; level < tablesPerLevel.size(); level++) {
      int n = tablesPerLevel.get(level);
      long size = bytesPerLevel.get(level);
      files += n;
      bytes += size;
      if (n > 0) {
        b.append(String.format(Locale.ROOT, "  L%-3d %7d %12.2f%n", level, n, mib(size)));
      }
    }
    b.append(String.format(Locale.ROOT, "  %-4s %7d %12.2f%n", "Sum", files, mib(bytes)));
    b.append(String.format(Locale.ROOT,
        "Gets: %d, tables consulted %d, skipped by filter %d (%s), filter false positives %d%n",
        s.gets(), s.tablesConsulted(), s.tablesSkippedByBloom(),
        percent(s.tablesSkippedByBloom(), s.tablesConsulted()), s.bloomFalsePositives()));
    b.append(String.format(Locale.ROOT,
        "Blocks: data read %d, data cache hits %d, filter read %d, filter cache hits %d,"
            + " bytes read from disk %d, cache holds %d bytes%n",
        s.dataBlocksRead(), s.dataBlockCacheHits(), s.filterBlocksRead(), s.filterBlockCacheHits(),
        s.bytesReadFromDisk(), s.blockCacheBytes()));
    b.append(String.format(Locale.ROOT,
        "Prefix scans: %d, tables consulted %d, skipped by prefix filter %d%n",
        s.prefixScans().scans(), s.prefixScans().tablesConsulted(),
        s.prefixScans().tablesSkipped()));
    b.append(String.format(Locale.ROOT, "Filters: %d bytes on disk in %d tables%n",
        s.filterBytesOnDisk(), s.tableCount()));
    b.append(String.format(Locale.ROOT, "Writes: %d acknowledged, %d log writes%n",
        w.writes(), w.logWrites()));
    b.append(String.format(Locale.ROOT, "Snapshots: %d live, the oldest held %d ms%n",
        s.snapshots().live(), s.snapshots().oldestAgeMillis()));
    b.append(String.format(Locale.ROOT, "Read-triggered compactions: %d%n",
        s.compactions().readTriggered()));
    return b.toString();
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }

  private static String percent(long part, long whole) {
    return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
  }
}
