package dev.strata.engine;

import java.util.Locale;

/**
 * The range checks of the option groups. Every message names the option as {@link
 * DbOptions.Builder} does ("blockSizeBytes must be [64, 67108864], was 63"), so the caller sees
 * which setter to fix whichever group rejected it.
 *
 * <p>Thread-safe (stateless).
 */
final class OptionRanges {
  private OptionRanges() {}

  /** Throws {@link IllegalArgumentException} unless {@code min <= value <= max}. */
  static void check(String option, long value, long min, long max) {
    if (value < min || value > max) {
      throw outOfRange(
          option, value, max == Long.MAX_VALUE ? "at least " + min : "[" + min + ", " + max + "]");
    }
  }

  /** The exception for {@code option} holding {@code value}, outside {@code range}. */
  static IllegalArgumentException outOfRange(String option, Object value, String range) {
    return new IllegalArgumentException(
        String.format(Locale.ROOT, "%s must be %s, was %s", option, range, value));
  }
}
