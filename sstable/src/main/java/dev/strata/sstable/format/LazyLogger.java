package dev.strata.sstable.format;

import java.util.ResourceBundle;

/**
 * A {@link System.Logger} that asks {@link System#getLogger} for the real one when it first logs
 * or is asked whether it would, not when it is made. The engine's classes hold their loggers in
 * static fields, initialised as the classes load during an open; {@code System.getLogger} looks up
 * the logging backend there (a service loader scan and the {@code java.logging} bootstrap), a cost
 * every open in a fresh JVM would pay although it usually logs nothing.
 *
 * <p>Thread-safe: the real logger is published through a volatile field (a race makes it twice,
 * which {@code System.getLogger} allows).
 */
public final class LazyLogger implements System.Logger {
  private final String name;
  private volatile System.Logger delegate;

  private LazyLogger(String name) {
    this.name = name;
  }

  /** The logger named after {@code owner}, as {@code System.getLogger(owner.getName())} names it. */
  public static System.Logger of(Class<?> owner) {
    return new LazyLogger(owner.getName());
  }

  private System.Logger delegate() {
    System.Logger d = delegate;
    if (d == null) {
      d = System.getLogger(name);
      delegate = d;
    }
    return d;
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public boolean isLoggable(Level level) {
    return delegate().isLoggable(level);
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
    delegate().log(level, bundle, msg, thrown);
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String format, Object... params) {
    delegate().log(level, bundle, format, params);
  }
}
