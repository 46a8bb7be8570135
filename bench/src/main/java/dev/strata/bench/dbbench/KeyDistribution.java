package dev.strata.bench.dbbench;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How the benchmarks that draw keys at random (every one but the fills) choose them: uniformly, as
 * db_bench, or skewed as YCSB's default request distribution ({@link ScrambledZipfian}), so a few
 * keys are hot and their blocks live in the cache while the rest are read from files.
 *
 * <p>Immutable.
 */
enum KeyDistribution {
  /** Every key equally likely. */
  UNIFORM,
  /** YCSB's scrambled zipfian, constant 0.99. */
  ZIPFIAN;

  /** Draws key indices of {@code [0, n)}. Immutable; each thread passes its own random stream. */
  @FunctionalInterface
  interface Chooser {
    long next(SplittableRandom random);
  }

  /** A chooser of indices {@code [0, n)}, {@code n >= 1}, by this distribution. */
  Chooser over(long n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1: " + n);
    }
    return switch (this) {
      case UNIFORM -> random -> random.nextLong(n);
      case ZIPFIAN -> new ScrambledZipfian(n)::next;
    };
  }

  /** The name on the command line and in the results. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The distribution named {@code label}; IllegalArgumentException listing the names otherwise. */
  static KeyDistribution parse(String label) {
    for (KeyDistribution d : values()) {
      if (d.label().equals(label.trim().toLowerCase(Locale.ROOT))) {
        return d;
      }
    }
    throw new IllegalArgumentException("unknown key distribution '" + label + "'; known: "
        + String.join(",", Arrays.stream(values()).map(KeyDistribution::label).toList()));
  }
}
