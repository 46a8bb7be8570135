package dev.strata.sstable.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs after every test of every module (registered through {@code META-INF/services} in this
 * test-jar, with JUnit's extension autodetection switched on in the root pom): a test that passes
 * but leaves a file open or a Strata background thread running fails. Both are leaks a user would
 * see as an undeletable directory, a lock that never frees, or a process that does not exit.
 */
public final class LeakCheckExtension implements AfterEachCallback {
  /** Every thread Strata starts is named with this prefix. */
  static final String THREAD_PREFIX = "strata-";
  /** How long a closing thread may take to end after {@code close()} returned. */
  private static final long THREAD_END_MILLIS = 10_000;
  /** How many checks ran in this JVM: lets a test prove the autodetected extension is active. */
  private static final AtomicLong CHECKS = new AtomicLong();

  private final long threadEndMillis;

  /** The extension as JUnit's autodetection creates it. */
  public LeakCheckExtension() {
    this(THREAD_END_MILLIS);
  }

  LeakCheckExtension(long threadEndMillis) {
    this.threadEndMillis = threadEndMillis;
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    CHECKS.incrementAndGet();
    OpenHandleTracker.assertNoneOpen();
    assertNoStrataThreads();
  }

  /** The number of checks that ran so far in this JVM. */
  static long checksRun() {
    return CHECKS.get();
  }

  /**
   * An executor's worker may still be unwinding when {@code awaitTermination} returns, so each
   * thread gets a bounded wait to end before it counts as leaked.
   */
  private void assertNoStrataThreads() throws InterruptedException {
    long deadline = System.currentTimeMillis() + threadEndMillis;
    List<String> alive = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith(THREAD_PREFIX)) {
        t.join(Math.max(1, deadline - System.currentTimeMillis()));
        if (t.isAlive()) {
          alive.add(t.getName());
        }
      }
    }
    if (!alive.isEmpty()) {
      throw new AssertionError("Strata threads still running: " + alive);
    }
  }
}
