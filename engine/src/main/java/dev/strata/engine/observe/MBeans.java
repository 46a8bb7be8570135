package dev.strata.engine.observe;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers a database's {@link DbMXBean} with the platform MBean server, under a name unique to its
 * directory (a directory is open at most once: the database holds a lock on it), and removes it
 * again. A failure to register is logged and otherwise ignored: management is a view, and must
 * never keep a database from opening or closing.
 *
 * <p>Thread-safe.
 */
public final class MBeans {
  private static final System.Logger LOG = System.getLogger(MBeans.class.getName());

  private MBeans() {}

  /** The object name of the database in {@code dir}. */
  public static ObjectName nameOf(Path dir) {
    try {
      return new ObjectName(
          "dev.strata:type=Db,path=" + ObjectName.quote(dir.toAbsolutePath().normalize().toString()));
    } catch (JMException e) {
      throw new IllegalArgumentException("no object name for " + dir, e);
    }
  }

  /** Registers {@code bean} for {@code dir}; returns its name, or null when it could not. */
  public static ObjectName register(Path dir, DbMXBean bean) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = nameOf(dir);
    try {
      try {
        server.registerMBean(bean, name);
      } catch (InstanceAlreadyExistsException stale) {
        // A database of this directory that was never closed (its process state abandoned, as in
        // a crash test): the directory lock proves it is gone, so its bean goes too.
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
