package dev.strata.bench.readamp;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The run's progress bar on standard error: one bar over every put and read of the run, with the
 * current step as its message. Silent when standard error is not a terminal or with {@code
 * --quiet}, so logs and CI output stay clean.
 *
 * <p>Not thread-safe.
 */
final class Progress implements AutoCloseable {
  /** Width of the rendered bar line; fixed, so no terminal probing is needed. */
  private static final int WIDTH = 110;

  private final ProgressBar bar;

  private Progress(ProgressBar bar) {
    this.bar = bar;
  }

  /** A bar over {@code totalSteps} when {@code show}, else one that does nothing. */
  static Progress create(boolean show, long totalSteps) {
    if (!show) {
      return new Progress(null);
    }
    ProgressBar bar = new ProgressBarBuilder()
        .setTaskName("readamp")
        .setInitialMax(totalSteps)
        .setStyle(ProgressBarStyle.ASCII)
        .setUpdateIntervalMillis(200)
        .setConsumer(new ConsoleProgressBarConsumer(System.err, WIDTH))
        .build();
    return new Progress(bar);
  }

  /** Whether a bar should show by default: standard error and output are a terminal. */
  static boolean isInteractive() {
    return System.console() != null;
  }

  void step(String message) {
    if (bar != null) {
      bar.setExtraMessage(message);
    }
  }

  void advance(long steps) {
    if (bar != null) {
      bar.stepBy(steps);
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }
}
