package dev.strata.engine.observe;

import dev.strata.engine.DbStats;
import dev.strata.engine.LevelStats;
import dev.strata.engine.WriteStats;
import java.util.List;
import java.util.Locale;

/**
 * The text of {@code Db.describe()}, in the spirit of RocksDB's {@code rocksdb.stats} property: the
 * tables, bytes, entries and filters of every level that holds tables (the filters' bits per key
 * and the false positives an absent Get expects from them), then the read path's work (Gets, tables consulted and skipped by
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
      List<LevelStats> levels) {
    StringBuilder b = new StringBuilder();
    b.append("** Strata stats: ").append(directory).append(" **\n");
    b.append(String.format(Locale.ROOT, "%-6s %7s %12s %12s %12s %9s %10s%n", "Level", "Files",
        "Size(MiB)", "Entries", "Filter(KiB)", "Bits/key", "FP/Get"));
    long files = 0;
    long bytes = 0;
    long entries = 0;
    long filterBytes = 0;
    double falsePositives = 0;
    for (LevelStats l : levels) {
      files += l.tables();
      bytes += l.bytes();
      entries += l.entries();
      filterBytes += l.filterBytes();
      falsePositives += l.expectedFalsePositiveRate();
      b.append(String.format(Locale.ROOT, "  L%-3d %7d %12.2f %12d %12.1f %9.2f %10.5f%n", l.level(),
          l.tables(), mib(l.bytes()), l.entries(), l.filterBytes() / 1024.0, l.filterBitsPerKey(),
          l.expectedFalsePositiveRate()));
    }
    b.append(String.format(Locale.ROOT, "  %-4s %7d %12.2f %12d %12.1f %9s %10.5f%n", "Sum", files,
        mib(bytes), entries, filterBytes / 1024.0, "", falsePositives));
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
    b.append(String.format(Locale.ROOT, "Filter refits at rest: %d, %d bytes rewritten%n",
        s.compactions().filterRefits(), s.compactions().filterRefitBytes()));
    return b.toString();
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }

  private static String percent(long part, long whole) {
    return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
  }
}
