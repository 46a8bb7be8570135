package dev.strata.engine;

import java.util.Iterator;

/**
 * An ordered iterator over the live cells of a scan, pinned to the moment the scan began. It holds
 * the table files it reads open until it is closed, so use it in try-with-resources.
 *
 * <p>Not thread-safe: a scanner stays on one thread.
 */
public interface CellScanner extends Iterator<Cell>, AutoCloseable {

  /**
   * Releases the files this scanner pins. Idempotent. I/O errors surface as {@link
   * java.io.UncheckedIOException}, from here and from {@link #hasNext()} and {@link #next()}.
   */
  @Override
  void close();
}
