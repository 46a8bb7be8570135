package dev.strata.engine.observe;

import java.nio.file.Path;
import javax.management.ObjectName;

/**
 * A database's {@link DbMXBean} being registered ({@link MBeans#register}) on a thread of its own,
 * which ends once the bean is registered, so that an open returns without waiting for it.
 *
 * <p>Why: the first registration in a JVM creates the platform MBean server, which registers every
 * platform bean first (memory, threads, the flight recorder's, ...): tens of milliseconds that an
 * open in a fresh JVM would otherwise spend before it returns, for a view the database does not
 * need to serve reads and writes. The bean is visible shortly after the open returns; {@link
 * #await} waits for it, and the database's close waits for it before it unregisters it.
 *
 * <p>Thread-safe.
 */
public final class BeanRegistration {
  private final Thread thread;
  /** The registered name, or null when registration failed; written before the thread ends. */
  private volatile ObjectName name;

  private BeanRegistration(Path dir, boolean readOnly, DbMXBean bean) {
    this.thread = new Thread(() -> name = MBeans.register(dir, readOnly, bean), "strata-mbean-register");
    thread.setDaemon(true);
  }

  /**
   * Starts registering {@code bean} for {@code dir}, opened read-only or for writing; with {@code
   * waitForIt} (an open asked to do the JVM's one-time work itself, {@code warmUpOnOpen}) returns
   * only once it is registered, so that the first reads load nothing it needs.
   */
  public static BeanRegistration start(Path dir, boolean readOnly, DbMXBean bean, boolean waitForIt) {
    BeanRegistration r = new BeanRegistration(dir, readOnly, bean);
    r.thread.start();
    if (waitForIt) {
      r.await();
    }
    return r;
  }

  /**
   * Waits until the registration has ended; returns the bean's name, or null when it could not be
   * registered (logged by {@link MBeans#register}). An interrupt does not cut the wait short: it is
   * kept for the caller.
   */
  public ObjectName await() {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return name;
  }
}
