package dev.strata.bench.levels;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The report of {@code filterlevels}: each configuration's levels, one summary table of every
 * configuration (both engines), the RocksDB table options that really applied, and the CSV.
 *
 * <p>Immutable (static methods only).
 */
final class FilterReport {
  /** The CSV's columns: one row per level, then a row with level {@code all} per configuration. */
  static final List<String> CSV_COLUMNS = List.of("config", "level", "tables", "entries",
      "filter_bytes", "bits_per_entry", "model_fp", "fp_per_absent_get", "probes_per_absent_get",
      "fp_counted_as");

  private FilterReport() {}

  /** One configuration's levels and totals, as it finishes. */
  static void printLevels(FilterResult r, PrintWriter out) {
    out.printf(Locale.ROOT, "%n%s (fill %.1f s)%n", r.config(), r.fillSeconds());
    out.printf(Locale.ROOT, "  %-5s %6s %11s %12s %9s %11s%n", "level", "tables", "entries",
        "filter KiB", "bits/key", "model FP");
    for (FilterResult.Level l : r.levels()) {
      out.printf(Locale.ROOT, "  L%-4d %6d %11d %12.1f %9.2f %11s%n", l.level(), l.tables(),
          l.entries(), l.filterBytes() / 1024.0, l.bitsPerEntry(),
          orDash(number(l.modelFalsePositiveRate(), "%.5f")));
    }
    out.printf(Locale.ROOT, "  filter bytes %d; false positives per absent Get: measured %.5f"
            + " (%d in %d Gets, %s; %d filter probes), model %s%n",
        r.filterBytes(), r.falsePositivesPerGet(), r.falsePositives(), r.gets(), r.countedAs(),
        r.probes(), orDash(number(r.modelFalsePositives(), "%.5f")));
    if (!r.tableOptions().isEmpty()) {
      out.printf(Locale.ROOT, "  OPTIONS file: filter_policy=%s, partition_filters=%s,"
              + " metadata_block_size=%s, format_version=%s%n",
          r.tableOptions().get("filter_policy"), r.tableOptions().get("partition_filters"),
          r.tableOptions().get("metadata_block_size"), r.tableOptions().get("format_version"));
    }
  }

  /** Every configuration in one table, the first one as the base of the ratios. */
  static void printSummary(List<FilterResult> results, PrintWriter out) {
    if (results.isEmpty()) {
      return;
    }
    FilterResult base = results.get(0);
    out.printf(Locale.ROOT, "%nAll configurations (ratios against %s)%n", base.config());
    out.printf(Locale.ROOT, "  %-16s %12s %8s %11s %8s %13s  %s%n", "configuration",
        "filter bytes", "ratio", "FP per Get", "ratio", "probes per Get", "FP counted as");
    for (FilterResult r : results) {
      out.printf(Locale.ROOT, "  %-16s %12d %7.2fx %11.5f %7.2fx %13.3f  %s%n", r.config(),
          r.filterBytes(), ratio(r.filterBytes(), base.filterBytes()), r.falsePositivesPerGet(),
          ratio(r.falsePositivesPerGet(), base.falsePositivesPerGet()),
          (double) r.probes() / Math.max(1, r.gets()), r.countedAs());
    }
    List<FilterResult> rocks = results.stream().filter(r -> !r.tableOptions().isEmpty()).toList();
    if (rocks.size() >= 2) {
      out.printf(Locale.ROOT, "  RocksDB table options (OPTIONS files) differ only in: %s%n",
          String.join(", ", differing(rocks.get(0).tableOptions(), rocks.get(1).tableOptions())));
    }
  }

  /** The keys whose values differ between {@code a} and {@code b}, sorted, with both values. */
  static List<String> differing(Map<String, String> a, Map<String, String> b) {
    TreeSet<String> keys = new TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    List<String> differ = new ArrayList<>();
    for (String k : keys) {
      if (!Objects.equals(a.get(k), b.get(k))) {
        differ.add(k + " (" + a.get(k) + " / " + b.get(k) + ")");
      }
    }
    return differ;
  }

  /** Writes {@link #CSV_COLUMNS}: each configuration's levels, then its totals. */
  static void writeCsv(List<FilterResult> results, Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(String.join(",", CSV_COLUMNS));
    for (FilterResult r : results) {
      for (FilterResult.Level l : r.levels()) {
        lines.add(String.join(",", r.config(), Integer.toString(l.level()),
            Integer.toString(l.tables()), Long.toString(l.entries()), Long.toString(l.filterBytes()),
            number(l.bitsPerEntry(), "%.3f"), number(l.modelFalsePositiveRate(), "%.6f"), "", "",
            ""));
      }
      long entries = r.levels().stream().mapToLong(FilterResult.Level::entries).sum();
      int tables = r.levels().stream().mapToInt(FilterResult.Level::tables).sum();
      lines.add(String.join(",", r.config(), "all", Integer.toString(tables),
          Long.toString(entries), Long.toString(r.filterBytes()),
          number(entries == 0 ? 0 : r.filterBytes() * 8.0 / entries, "%.3f"),
          number(r.modelFalsePositives(), "%.6f"), number(r.falsePositivesPerGet(), "%.6f"),
          number((double) r.probes() / Math.max(1, r.gets()), "%.4f"), r.countedAs()));
    }
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    Files.write(file, lines);
  }

  private static double ratio(double a, double b) {
    return b == 0 ? Double.NaN : a / b;
  }

  private static String orDash(String s) {
    return s.isEmpty() ? "-" : s;
  }

  private static String number(double v, String format) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, format, v);
  }
}
