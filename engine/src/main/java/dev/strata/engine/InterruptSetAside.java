package dev.strata.engine;

import java.io.IOException;

/**
 * Runs a call of the public API with the caller's interrupt status set aside and restores it when
 * the call returns or throws. The JDK's file channels are interruptible: with an interrupt pending,
 * the call's first channel operation would close the channel and fail with {@code
 * ClosedByInterruptException}, so an open, a close or a log force would fail for nothing. (One
 * arriving during the call can still cut a channel operation short: the parts retry or fail as
 * their own comments say.)
 *
 * <p>Thread-safe (stateless).
 */
final class InterruptSetAside {
  private InterruptSetAside() {}

  /** A call that may do I/O. */
  interface IoCall<T> {
    T call() throws IOException;
  }

  /** A call that may do I/O and returns nothing. */
  interface IoRun {
    void run() throws IOException;
  }

  /** Runs {@code call} with the interrupt status set aside; returns what it returns. */
  static <T> T call(IoCall<T> call) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      return call.call();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Runs {@code run} with the interrupt status set aside. */
  static void run(IoRun run) throws IOException {
    call(() -> {
      run.run();
      return null;
    });
  }
}
