package dev.strata.engine.fs;

import java.io.IOException;

/**
 * Closing helpers for the success-flag pattern: close everything, report the first failure and keep
 * the others as suppressed exceptions.
 *
 * <p>Thread-safe (stateless).
 */
public final class Closeables {

  private Closeables() {}

  /**
   * Closes {@code c} (null is skipped) on a failure path, recording any exception as suppressed by
   * {@code primary}, which the caller is about to rethrow.
   */
  public static void closeSuppressing(Throwable primary, AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Throwable t) {
      if (primary != null && primary != t) {
        primary.addSuppressed(t);
      }
    }
  }

  /**
   * Closes every one of {@code cs} (nulls are skipped), then throws the first failure with the rest
   * suppressed. A non-I/O checked exception is wrapped in an {@link IOException}.
   */
  public static void closeAll(Iterable<? extends AutoCloseable> cs) throws IOException {
    Throwable first = null;
    for (AutoCloseable c : cs) {
      if (c == null) {
        continue;
      }
      try {
        c.close();
      } catch (Throwable t) {
        if (first == null) {
          first = t;
        } else {
          first.addSuppressed(t);
        }
      }
    }
    if (first instanceof IOException e) {
      throw e;
    } else if (first instanceof RuntimeException e) {
      throw e;
    } else if (first instanceof Error e) {
      throw e;
    } else if (first != null) {
      throw new IOException(first);
    }
  }
}
