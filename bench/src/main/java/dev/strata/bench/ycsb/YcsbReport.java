package dev.strata.bench.ycsb;

import dev.strata.bench.common.Cells;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code report.md} of a YCSB run: the settings, Strata / RocksDB throughput per phase (the matrix
 * of the README), then per operation the throughputs, latencies and their ratios, and every row.
 *
 * <p>Immutable.
 */
final class YcsbReport {
  private final YcsbSettings s;
  private final List<YcsbRow> rows;
  private final List<Path> plots;
  private final double seconds;
  private final String failure;

  YcsbReport(YcsbSettings s, List<YcsbRow> rows, List<Path> plots, double seconds,
      String failure) {
    this.s = s;
    this.rows = List.copyOf(rows);
    this.plots = List.copyOf(plots);
    this.seconds = seconds;
    this.failure = failure;
  }

  String markdown() {
    StringBuilder b = new StringBuilder("# YCSB: Strata against RocksDB\n\n");
    if (failure != null) {
      b.append("**The run failed; the tables hold the phases that finished.**\n\n```\n")
          .append(failure).append("\n```\n\n");
    }
    long logical = s.records() * s.recordBytes();
    b.append("## Settings\n\n| setting | value |\n|---|---|\n")
        .append(row("YCSB", "0.17.0 site.ycsb.Client, CoreWorkload, HdrHistogram latencies"))
        .append(row("records / operations per run phase", s.records() + " / " + s.operations()))
        .append(row("record", s.fieldCount() + " fields of " + s.fieldLength()
            + " bytes, one value of about " + s.recordBytes() + " bytes"))
        .append(row("logical data after a load", mib(logical) + " MiB, "
            + Cells.format(logical / (double) s.cacheBytes()) + "x the cache"))
        .append(row("block cache (each engine)", mib(s.cacheBytes()) + " MiB"))
        .append(row("tree", s.tree() + "; filter " + Cells.format(s.bitsPerKey())
            + " bits/key; 4 KiB blocks, LZ4, partitioned filters and index in the cache, WAL"
            + " not synced (dbbench's parity setup)"))
        .append(row("update", "read-modify-write of the whole record in both engines"))
        .append(row("scan", "a cursor (Strata) or iterator (RocksDB) from the start key"))
        .append(row("phases", "each in its own JVM, engines alternated; a load starts from an"
            + " empty database"))
        .append(row("JVM flags", String.join(" ", s.jvmFlags())));
    b.append("\n## Throughput, Strata / RocksDB (above 1: Strata faster)\n\n")
        .append(ratioMatrix());
    b.append("\n## Per operation (latencies in microseconds; p99 ratio below 1: Strata's lower)"
        + "\n\n| threads | workload | operation | Strata ops/s | RocksDB ops/s | ratio |"
        + " Strata p50 | RocksDB p50 | Strata p99 | RocksDB p99 | p99 ratio | Strata p99.9 |"
        + " RocksDB p99.9 | Strata max | RocksDB max |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (YcsbRow r : rows) {
      if (!r.engine().equals(YcsbEngine.STRATA.label())) {
        continue;
      }
      Optional<YcsbRow> o = other(r);
      b.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
              + " %s | %s | %s | %s | %s |%n", r.threads(), r.workload(), r.operation(),
          num(r.opsPerSec()), o.map(x -> num(x.opsPerSec())).orElse(""),
          o.map(x -> ratio(r.opsPerSec(), x.opsPerSec())).orElse(""),
          Cells.format(r.p50Us()), o.map(x -> Cells.format(x.p50Us())).orElse(""),
          Cells.format(r.p99Us()), o.map(x -> Cells.format(x.p99Us())).orElse(""),
          o.map(x -> ratio(r.p99Us(), x.p99Us())).orElse(""),
          Cells.format(r.p999Us()), o.map(x -> Cells.format(x.p999Us())).orElse(""),
          Cells.format(r.maxUs()), o.map(x -> Cells.format(x.maxUs())).orElse("")));
    }
    b.append("\n## Every row (results.csv)\n\n| ").append(String.join(" | ", YcsbRow.HEADER))
        .append(" |\n|").append("---|".repeat(YcsbRow.HEADER.size())).append('\n');
    for (YcsbRow r : rows) {
      b.append("| ").append(r.csv().replace(",", " | ")).append(" |\n");
    }
    for (Path p : plots) {
      b.append("\n![").append(p.getFileName()).append("](").append(p.getFileName()).append(")\n");
    }
    b.append(String.format(Locale.ROOT, "%nThe run took %.0f s.%n", seconds));
    return b.toString();
  }

  /** Strata / RocksDB throughput of every phase, a row per thread count (Markdown). */
  String ratioMatrix() {
    StringBuilder b = new StringBuilder("| client threads |");
    s.workloads().forEach(w -> b.append(' ').append(w.label()).append(" |"));
    b.append("\n|---|").append("---|".repeat(s.workloads().size())).append('\n');
    for (int t : s.threads()) {
      b.append("| ").append(t).append(" |");
      for (Workload w : s.workloads()) {
        String cell = rows.stream()
            .filter(r -> r.engine().equals(YcsbEngine.STRATA.label()) && r.threads() == t
                && r.workload().equals(w.label()) && r.operation().equals(YcsbRow.OVERALL))
            .findFirst().flatMap(r -> other(r).map(o -> ratio(r.opsPerSec(), o.opsPerSec())))
            .orElse("");
        b.append(' ').append(cell).append(" |");
      }
      b.append('\n');
    }
    return b.toString();
  }

  private Optional<YcsbRow> other(YcsbRow strata) {
    return rows.stream()
        .filter(o -> o.engine().equals(YcsbEngine.ROCKSDB.label()) && o.samePoint(strata))
        .findFirst();
  }

  private static String ratio(Double a, Double b) {
    return a == null || b == null || b == 0 ? "" : String.format(Locale.ROOT, "%.2f", a / b);
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.0f", v);
  }

  private static String mib(long bytes) {
    return Cells.format(bytes / 1048576.0);
  }

  private static String row(String k, String v) {
    return "| " + k + " | " + v + " |\n";
  }
}
