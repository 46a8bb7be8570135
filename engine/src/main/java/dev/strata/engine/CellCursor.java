package dev.strata.engine;

/**
 * A positioned, bidirectional cursor over the live cells of the database as of one sequence number
 * (when it was opened, or a {@link Snapshot}'s), in (row, column) order: RocksDB's iterator for
 * Strata's cells. It starts unpositioned; a seek positions it, and {@link #next()} and {@link
 * #prev()} move it one live cell either way, changing direction at any point. Deleted cells (by
 * {@code delete} or an older {@code deleteRow}) are never seen, in either direction.
 *
 * <pre>{@code
 * try (CellCursor c = db.cursor()) {
 *   for (c.seekForPrev(row, column); c.isValid(); c.prev()) {   // newest-first down from (row, column)
 *     use(c.row(), c.column(), c.value());
 *   }
 * }
 * }</pre>
 *
 * <p>It holds the table files it reads open until closed, so use it in try-with-resources. Calling
 * {@link #row()}, {@link #column()}, {@link #value()}, {@link #next()} or {@link #prev()} while not
 * {@link #isValid()}, or anything after {@link #close()} or after the database was closed, throws
 * {@link IllegalStateException}; I/O errors surface as {@link java.io.UncheckedIOException}.
 *
 * <p>Not thread-safe: a cursor stays on one thread.
 */
public interface CellCursor extends AutoCloseable {
  /** Positions at the first live cell; invalid when there is none. */
  void seekToFirst();

  /** Positions at the last live cell; invalid when there is none. */
  void seekToLast();

  /** Positions at the first live cell at or after (row, column); invalid when there is none. */
  void seek(byte[] row, byte[] column);

  /** Positions at the last live cell at or before (row, column); invalid when there is none. */
  void seekForPrev(byte[] row, byte[] column);

  /** True when positioned at a live cell. */
  boolean isValid();

  /** Moves to the next live cell; invalid after the last. */
  void next();

  /** Moves to the previous live cell; invalid before the first. */
  void prev();

  /** The current cell's row (a copy). */
  byte[] row();

  /** The current cell's column (a copy). */
  byte[] column();

  /** The current cell's value (a copy). */
  byte[] value();

  /** Releases the files the cursor pins. Idempotent. */
  @Override
  void close();
}
