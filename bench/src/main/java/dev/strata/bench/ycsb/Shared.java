package dev.strata.bench.ycsb;

/**
 * One engine instance per process, shared by YCSB's client threads: YCSB creates a binding per
 * thread and calls {@code init} and {@code cleanup} on each, so the first {@code init} opens the
 * engine and the last {@code cleanup} closes it.
 *
 * <p>Thread-safe: every method synchronizes on this holder.
 *
 * @param <T> the engine's handle
 */
final class Shared<T extends AutoCloseable> {
  /** Opens the engine; called once, by the first acquirer. */
  interface Opener<T> {
    T open() throws Exception;
  }

  private T engine;
  private int users;

  /** The engine, opened by {@code opener} when this is its first user. */
  synchronized T acquire(Opener<T> opener) throws Exception {
    if (users == 0) {
      engine = opener.open();
    }
    users++;
    return engine;
  }

  /** Drops a use; the last one closes the engine. */
  synchronized void release() throws Exception {
    if (users == 0) {
      throw new IllegalStateException("released more often than acquired");
    }
    if (--users == 0) {
      T e = engine;
      engine = null;
      e.close();
    }
  }
}
