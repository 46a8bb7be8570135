package dev.strata.engine.observe;

import dev.strata.sstable.format.LazyLogger;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers a database's {@link DbMXBean} with the platform MBean server, and removes it again.
 * The database that writes a directory holds its lock, so it is the only one named {@link
 * #nameOf(Path)}; read-only opens take no lock and may sit beside it and each other in one process,
 * so each gets a name of its own, {@link #nameOf(Path)} with {@code readOnly=<n>} added, n counting
 * the process's read-only opens. A failure to register is logged and otherwise ignored: management
 * is a view, and must never keep a database from opening or closing.
 *
 * <p>Thread-safe.
 */
public final class MBeans {
  private static final System.Logger LOG = LazyLogger.of(MBeans.class);

  private MBeans() {}

  /** Read-only opens so far in this process: their beans' {@code readOnly} keys. */
  private static final AtomicLong READ_ONLY_OPENS = new AtomicLong();

  /** The object name of the database that writes {@code dir}. */
  public static ObjectName nameOf(Path dir) {
    return objectName(dir, "");
  }

  /** The object name of read-only open number {@code n} of {@code dir} (see the class comment). */
  public static ObjectName readOnlyNameOf(Path dir, long n) {
    return objectName(dir, ",readOnly=" + n);
  }

  private static ObjectName objectName(Path dir, String moreKeys) {
    try {
      return new ObjectName("dev.strata:type=Db,path="
          + ObjectName.quote(dir.toAbsolutePath().normalize().toString()) + moreKeys);
    } catch (JMException e) {
      throw new IllegalArgumentException("no object name for " + dir, e);
    }
  }

  /**
   * Registers {@code bean} for {@code dir}, opened read-only or for writing; returns its name, or
   * null when it could not.
   */
  public static ObjectName register(Path dir, boolean readOnly, DbMXBean bean) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = readOnly ? readOnlyNameOf(dir, READ_ONLY_OPENS.incrementAndGet()) : nameOf(dir);
    try {
      try {
        server.registerMBean(bean, name);
      } catch (InstanceAlreadyExistsException stale) {
        if (readOnly) {
          throw stale; // a number no other open has: registered by someone else
        }
        // A database writing this directory that was never closed (its process state abandoned,
        // as in a crash test): the directory lock proves it is gone, so its bean goes too.
        server.unregisterMBean(name);
        server.registerMBean(bean, name);
      }
      return name;
    } catch (JMException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "could not register the management bean " + name, e);
      return null;
    }
  }

  /** Unregisters {@code name} (null: nothing registered). */
  public static void unregister(ObjectName name) {
    if (name == null) {
      return;
    }
    try {
      ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
    } catch (JMException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "could not unregister the management bean " + name, e);
    }
  }
}
