package dev.strata.bench.bloom;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Turns filter benchmark results into the tables {@code strata-bench filters} prints: lookup cost
 * per kind with the blocked filter's speed-up over Guava and over the classic layout, build cost
 * per key, and the filter's targets checked against the numbers of this one run.
 *
 * <p>Immutable (static methods only); thread-safe.
 */
public final class FilterReport {
  /** The query benchmark methods in table order. */
  static final List<Method> LOOKUPS =
      List.of(
          new Method("negativePrehashed", "negative", "pre-hashed"),
          new Method("positivePrehashed", "positive", "pre-hashed"),
          new Method("negativeKey16", "negative", "16-byte key"),
          new Method("positiveKey16", "positive", "16-byte key"));

  /** The build benchmark methods in table order. */
  static final List<Method> BUILDS =
      List.of(
          new Method("fromHashes", "build", "hashes"),
          new Method("fromKey16", "build", "16-byte keys"));

  /** Keys at which the lookup targets are stated. */
  static final long TARGET_KEYS = 50_000_000;

  private FilterReport() {}

  /** A benchmark method's simple name and the labels of its table row. */
  record Method(String name, String operation, String input) {}

  /**
   * One benchmark score.
   *
   * @param method the benchmark method's simple name, e.g. {@code negativePrehashed}
   * @param kind the filter
   * @param keys keys in the filter
   * @param value the median of the measured iterations: ns per lookup (query benchmarks) or ns per
   *     key (build benchmarks)
   * @param min the fastest iteration, same unit
   * @param max the slowest iteration, same unit
   */
  public record Score(
      String method, FilterKind kind, long keys, double value, double min, double max) {}

  /**
   * One target of the filter, checked.
   *
   * @param description what is compared, with the threshold
   * @param value the measured figure (a speed-up, a ratio or a rate in percent)
   * @param pass whether the figure meets the threshold
   */
  public record Target(String description, double value, boolean pass) {}

  /** The lookup table: one row per keys/lookup/input, one column per kind, then the speed-ups. */
  public static String lookupTable(List<Score> scores) {
    StringBuilder out = new StringBuilder();
    String header =
        String.format(
            Locale.ROOT,
            "%12s  %-8s  %-11s  %19s  %19s  %19s  %13s  %15s%n",
            "keys",
            "lookup",
            "input",
            "BLOCKED",
            "CLASSIC",
            "GUAVA",
            "GUAVA/BLOCKED",
            "CLASSIC/BLOCKED");
    out.append(header).append("-".repeat(header.length() - 1)).append('\n');
    for (long keys : keysOf(scores)) {
      for (Method lookup : LOOKUPS) {
        Optional<Score> blocked = find(scores, lookup.name(), FilterKind.BLOCKED, keys);
        Optional<Score> classic = find(scores, lookup.name(), FilterKind.CLASSIC, keys);
        Optional<Score> guava = find(scores, lookup.name(), FilterKind.GUAVA, keys);
        if (blocked.isEmpty() && classic.isEmpty() && guava.isEmpty()) {
          continue;
        }
        out.append(
            String.format(
                Locale.ROOT,
                "%,12d  %-8s  %-11s  %19s  %19s  %19s  %13s  %15s%n",
                keys,
                lookup.operation(),
                lookup.input(),
                cell(blocked),
                cell(classic),
                cell(guava),
                speedup(guava, blocked),
                speedup(classic, blocked)));
      }
    }
    return out.toString();
  }

  /** The build table: ns per key, one column per kind, then the blocked filter's speed-ups. */
  public static String buildTable(List<Score> scores) {
    StringBuilder out = new StringBuilder();
    String header =
        String.format(
            Locale.ROOT,
            "%12s  %-12s  %19s  %19s  %19s  %15s  %13s%n",
            "keys",
            "input",
            "BLOCKED",
            "CLASSIC",
            "GUAVA",
            "CLASSIC/BLOCKED",
            "GUAVA/BLOCKED");
    out.append(header).append("-".repeat(header.length() - 1)).append('\n');
    for (long keys : keysOf(scores)) {
      for (Method build : BUILDS) {
        Optional<Score> blocked = find(scores, build.name(), FilterKind.BLOCKED, keys);
        Optional<Score> classic = find(scores, build.name(), FilterKind.CLASSIC, keys);
        Optional<Score> guava = find(scores, build.name(), FilterKind.GUAVA, keys);
        if (blocked.isEmpty() && classic.isEmpty() && guava.isEmpty()) {
          continue;
        }
        out.append(
            String.format(
                Locale.ROOT,
                "%,12d  %-12s  %19s  %19s  %19s  %15s  %13s%n",
                keys,
                build.input(),
                cell(blocked),
                cell(classic),
                cell(guava),
                speedup(classic, blocked),
                speedup(guava, blocked)));
      }
    }
    return out.toString();
  }

  /**
   * The targets that these results can check. Lookup targets are stated for 50M keys and
   * are checked at the largest key count measured; build targets at every key count.
   */
  public static List<Target> targets(
      List<Score> lookups, List<Score> builds, List<FprTable.Row> fpr) {
    List<Target> targets = new ArrayList<>();
    TreeSet<Long> lookupKeys = keysOf(lookups);
    if (!lookupKeys.isEmpty()) {
      long keys = lookupKeys.last();
      String at = String.format(Locale.ROOT, " at %,d keys", keys);
      speedupTarget(targets, lookups, "negativePrehashed", FilterKind.GUAVA, keys, 8, at);
      speedupTarget(targets, lookups, "negativePrehashed", FilterKind.CLASSIC, keys, 2, at);
      speedupTarget(targets, lookups, "positivePrehashed", FilterKind.CLASSIC, keys, 2, at);
      speedupTarget(targets, lookups, "negativeKey16", FilterKind.GUAVA, keys, 3, at);
      speedupTarget(targets, lookups, "positiveKey16", FilterKind.GUAVA, keys, 3, at);
    }
    for (long keys : keysOf(builds)) {
      for (Method build : BUILDS) {
        Optional<Score> blocked = find(builds, build.name(), FilterKind.BLOCKED, keys);
        Optional<Score> classic = find(builds, build.name(), FilterKind.CLASSIC, keys);
        if (blocked.isPresent() && classic.isPresent()) {
          double ratio = blocked.get().value() / classic.get().value();
          targets.add(
              new Target(
                  String.format(
                      Locale.ROOT,
                      "build from %s at %,d keys: BLOCKED/CLASSIC ns per key <= 1",
                      build.input(),
                      keys),
                  ratio,
                  ratio <= 1));
        }
      }
    }
    for (FprTable.Row row : fpr) {
      if (row.kind() != FilterKind.BLOCKED) {
        continue;
      }
      double limitPercent = row.bitsPerKey() == 10 ? 1.02 : row.bitsPerKey() == 10.5 ? 0.85 : 0;
      if (limitPercent > 0) {
        double percent = 100 * row.measuredFpr();
        targets.add(
            new Target(
                String.format(
                    Locale.ROOT,
                    "BLOCKED FPR at %s bits/key, in %%: <= %.2f",
                    row.bitsPerKey(),
                    limitPercent),
                percent,
                percent <= limitPercent));
      }
    }
    return targets;
  }

  /** The targets as PASS/MISS lines. */
  public static String targetLines(List<Target> targets) {
    StringBuilder out = new StringBuilder();
    for (Target target : targets) {
      out.append(
          String.format(
              Locale.ROOT,
              "%-4s  %8.3f  %s%n",
              target.pass() ? "PASS" : "MISS",
              target.value(),
              target.description()));
    }
    return out.toString();
  }

  private static void speedupTarget(
      List<Target> targets,
      List<Score> scores,
      String method,
      FilterKind baseline,
      long keys,
      double atLeast,
      String at) {
    Optional<Score> blocked = find(scores, method, FilterKind.BLOCKED, keys);
    Optional<Score> other = find(scores, method, baseline, keys);
    if (blocked.isPresent() && other.isPresent()) {
      double speedup = other.get().value() / blocked.get().value();
      targets.add(
          new Target(
              String.format(
                  Locale.ROOT, "%s%s: %s/BLOCKED >= %.0fx", method, at, baseline, atLeast),
              speedup,
              speedup >= atLeast));
    }
  }

  private static TreeSet<Long> keysOf(List<Score> scores) {
    TreeSet<Long> keys = new TreeSet<>();
    for (Score score : scores) {
      keys.add(score.keys());
    }
    return keys;
  }

  private static Optional<Score> find(
      List<Score> scores, String method, FilterKind kind, long keys) {
    return scores.stream()
        .filter(s -> s.method().equals(method) && s.kind() == kind && s.keys() == keys)
        .findFirst();
  }

  private static String cell(Optional<Score> score) {
    if (score.isEmpty()) {
      return "-";
    }
    Score s = score.get();
    return s.min() == s.max()
        ? format(s.value())
        : format(s.value()) + " (" + format(s.min()) + "-" + format(s.max()) + ")";
  }

  private static String speedup(Optional<Score> slower, Optional<Score> faster) {
    if (slower.isEmpty() || faster.isEmpty()) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.2fx", slower.get().value() / faster.get().value());
  }

  /** Three significant digits, at least one decimal below 100. */
  static String format(double value) {
    if (value >= 100) {
      return String.format(Locale.ROOT, "%.0f", value);
    }
    if (value >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    return String.format(Locale.ROOT, "%.2f", value);
  }
}
