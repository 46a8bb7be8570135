package dev.strata.engine.read;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The readers a database has handed out and that are still open (scanners), so that closing the
 * database closes them too: a reader left open would otherwise keep its tables' files open after
 * {@code close()}, and a later open of the same directory could delete those files under it.
 *
 * <p>A reader registers when it is created and deregisters when its owner closes it. {@link
 * #closeAll} marks the set closed first and then closes every member; a reader registering
 * concurrently sees the mark after adding itself and is closed at once, so none escapes.
 *
 * <p>Thread-safe.
 */
public final class OpenReaders {

  /** A reader the database can close from another thread. */
  public interface Reader {
    /**
     * Releases what the reader holds and makes every later use throw {@link
     * IllegalStateException}. Idempotent; safe to call from any thread.
     */
    void closeByDatabase();
  }

  private final Set<Reader> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * Tracks {@code r} until {@link #deregister}.
   *
   * @throws IllegalStateException after {@link #closeAll}; {@code r} has been closed then
   */
  public void register(Reader r) {
    open.add(r);
    if (closed) {
      open.remove(r);
      r.closeByDatabase();
      throw new IllegalStateException("database is closed");
    }
  }

  /** Stops tracking {@code r}: its owner closed it. */
  public void deregister(Reader r) {
    open.remove(r);
  }

  /** Closes every open reader, and every reader registered from now on. */
  public void closeAll() {
    closed = true;
    for (Reader r : open) {
      r.closeByDatabase();
    }
    open.clear();
  }

  /** True once {@link #closeAll} ran: every reader of this set must refuse further use. */
  public boolean isClosed() {
    return closed;
  }

  /** Readers open now. */
  public int size() {
    return open.size();
  }
}
