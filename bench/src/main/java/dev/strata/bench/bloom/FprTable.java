package dev.strata.bench.bloom;

import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.bloom.ClassicBloomFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Measured versus model false-positive rate of the blocked and the classic filter across bits per
 * key: each filter is built from {@code keys} member keys ({@link BenchKeys}, fixed seed), checked
 * for false negatives on every member, and queried with absent keys that are disjoint from the
 * members by construction. The blocked filter is queried after a {@code toByteArray} / {@code
 * fromByteArray} round trip, so the table describes the persisted filter.
 *
 * <p>The number of queries adapts to the rate: enough to expect {@link Config#targetFalsePositives}
 * false positives under the model (a relative standard error of about 1/sqrt of that), within
 * [{@link Config#minQueries}, {@link Config#maxQueries}].
 *
 * <pre>{@code
 * List<FprTable.Row> rows = FprTable.run(FprTable.Config.defaults());
 * System.out.print(FprTable.format(rows));
 * }</pre>
 *
 * <p>Thread-safe (static methods on local state only).
 */
public final class FprTable {
  /** The bits per key the table covers by default: 6..20, plus 10.5. */
  public static final List<Double> DEFAULT_BITS_PER_KEY =
      List.of(6.0, 8.0, 10.0, 10.5, 12.0, 16.0, 20.0);

  private FprTable() {}

  /**
   * What to measure.
   *
   * @param keys member keys per filter
   * @param minQueries fewest absent-key queries per filter
   * @param maxQueries most absent-key queries per filter
   * @param targetFalsePositives false positives the model should expect; sets the query count
   * @param bitsPerKey the bits-per-key settings, one row per setting and layout
   * @param kinds the layouts ({@link FilterKind#GUAVA} is not measured here)
   */
  public record Config(
      long keys,
      long minQueries,
      long maxQueries,
      long targetFalsePositives,
      List<Double> bitsPerKey,
      List<FilterKind> kinds) {
    /** Validates the settings. */
    public Config {
      if (keys < 1 || minQueries < 1 || maxQueries < minQueries || targetFalsePositives < 0) {
        throw new IllegalArgumentException(
            "need keys >= 1 and 1 <= minQueries <= maxQueries: keys="
                + keys
                + " minQueries="
                + minQueries
                + " maxQueries="
                + maxQueries);
      }
      bitsPerKey = List.copyOf(bitsPerKey);
      kinds = List.copyOf(kinds);
      if (kinds.contains(FilterKind.GUAVA)) {
        throw new IllegalArgumentException("the FPR table measures BLOCKED and CLASSIC only");
      }
    }

    /** 1M keys, 1M to 64M queries aiming at 2,000 expected false positives, both layouts. */
    public static Config defaults() {
      return new Config(
          1_000_000,
          1_000_000,
          64_000_000,
          2_000,
          DEFAULT_BITS_PER_KEY,
          List.of(FilterKind.BLOCKED, FilterKind.CLASSIC));
    }

    /** The same settings with {@code keys} member keys and at least {@code minQueries} queries. */
    public Config withSizes(long keys, long minQueries) {
      return new Config(
          keys,
          minQueries,
          Math.max(minQueries, maxQueries),
          targetFalsePositives,
          bitsPerKey,
          kinds);
    }
  }

  /**
   * One measured filter.
   *
   * @param kind the layout
   * @param bitsPerKey requested bits per key
   * @param probes bits set per key ({@code numProbes()})
   * @param keys member keys
   * @param queries absent keys queried
   * @param falsePositives absent keys reported as possibly present
   * @param modelFpr {@code expectedFpp(keys)} of the filter
   * @param memoryBitsPerKey {@code bitSize() / keys}
   * @param persistedBytesPerKey {@code toByteArray().length / keys}; NaN for the classic filter,
   *     which is never persisted
   */
  public record Row(
      FilterKind kind,
      double bitsPerKey,
      int probes,
      long keys,
      long queries,
      long falsePositives,
      double modelFpr,
      double memoryBitsPerKey,
      double persistedBytesPerKey) {
    /** The measured false-positive rate. */
    public double measuredFpr() {
      return (double) falsePositives / queries;
    }

    /** Measured over model rate. */
    public double ratio() {
      return measuredFpr() / modelFpr;
    }

    /** Standard scores of the measurement under the model's binomial: |z| > 3 is a real gap. */
    public double z() {
      double sd = Math.sqrt(modelFpr * (1 - modelFpr) / queries);
      return sd == 0 ? 0 : (measuredFpr() - modelFpr) / sd;
    }
  }

  /** Measures every layout at every bits-per-key setting of {@code config}, in that order. */
  public static List<Row> run(Config config) {
    List<Row> rows = new ArrayList<>();
    for (FilterKind kind : config.kinds()) {
      for (double bitsPerKey : config.bitsPerKey()) {
        rows.add(measure(kind, bitsPerKey, config));
      }
    }
    return rows;
  }

  /** Builds and queries one filter. */
  static Row measure(FilterKind kind, double bitsPerKey, Config config) {
    long keys = config.keys();
    byte[] key = new byte[BenchKeys.KEY_BYTES];
    Predicate<byte[]> mightContain;
    int probes;
    double model;
    double memoryBitsPerKey;
    double persistedBytesPerKey;
    switch (kind) {
      case BLOCKED -> {
        BlockedBloomFilter built = BlockedBloomFilter.create(keys, bitsPerKey);
        for (long i = 0; i < keys; i++) {
          BenchKeys.member(i, key, 0);
          built.put(key);
        }
        byte[] persisted = built.toByteArray();
        BlockedBloomFilter filter = BlockedBloomFilter.fromByteArray(persisted);
        mightContain = filter::mightContain;
        probes = filter.numProbes();
        model = filter.expectedFpp(keys);
        memoryBitsPerKey = (double) filter.bitSize() / keys;
        persistedBytesPerKey = (double) persisted.length / keys;
      }
      case CLASSIC -> {
        ClassicBloomFilter filter = ClassicBloomFilter.create(keys, bitsPerKey);
        for (long i = 0; i < keys; i++) {
          BenchKeys.member(i, key, 0);
          filter.put(key);
        }
        mightContain = filter::mightContain;
        probes = filter.numProbes();
        model = filter.expectedFpp(keys);
        memoryBitsPerKey = (double) filter.bitSize() / keys;
        persistedBytesPerKey = Double.NaN;
      }
      default -> throw new IllegalArgumentException("no FPR measurement for " + kind);
    }
    for (long i = 0; i < keys; i++) {
      BenchKeys.member(i, key, 0);
      if (!mightContain.test(key)) {
        throw new IllegalStateException(
            kind + " filter at " + bitsPerKey + " bits/key lost member key " + i);
      }
    }
    long queries = queriesFor(model, config);
    long falsePositives = 0;
    for (long i = 0; i < queries; i++) {
      BenchKeys.absent(i, key, 0);
      if (mightContain.test(key)) {
        falsePositives++;
      }
    }
    return new Row(
        kind,
        bitsPerKey,
        probes,
        keys,
        queries,
        falsePositives,
        model,
        memoryBitsPerKey,
        persistedBytesPerKey);
  }

  /** Queries needed to expect the target count of false positives, within the configured range. */
  static long queriesFor(double modelFpr, Config config) {
    double wanted =
        modelFpr > 0 ? Math.ceil(config.targetFalsePositives() / modelFpr) : Long.MAX_VALUE;
    return (long) Math.max(config.minQueries(), Math.min(config.maxQueries(), wanted));
  }

  /** The rows as an aligned text table. */
  public static String format(List<Row> rows) {
    StringBuilder out = new StringBuilder();
    String header =
        String.format(
            Locale.ROOT,
            "%-8s %8s %3s %11s %11s %9s %10s %10s %7s %6s %10s %10s%n",
            "layout",
            "bits/key",
            "k",
            "keys",
            "queries",
            "false+",
            "measured",
            "model",
            "ratio",
            "z",
            "mem b/key",
            "disk B/key");
    out.append(header);
    out.append("-".repeat(header.length() - 1)).append('\n');
    for (Row row : rows) {
      out.append(
          String.format(
              Locale.ROOT,
              "%-8s %8s %3d %,11d %,11d %,9d %9.4f%% %9.4f%% %7.3f %+6.1f %10.3f %10s%n",
              row.kind(),
              trim(row.bitsPerKey()),
              row.probes(),
              row.keys(),
              row.queries(),
              row.falsePositives(),
              100 * row.measuredFpr(),
              100 * row.modelFpr(),
              row.ratio(),
              row.z(),
              row.memoryBitsPerKey(),
              Double.isNaN(row.persistedBytesPerKey())
                  ? "-"
                  : String.format(Locale.ROOT, "%.4f", row.persistedBytesPerKey())));
    }
    return out.toString();
  }

  private static String trim(double value) {
    return value == Math.rint(value)
        ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%.1f", value);
  }
}
