package dev.strata.engine.read;

import dev.strata.engine.Cell;
import dev.strata.engine.CellScanner;
import dev.strata.engine.version.ReadView;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * The live cells of a row range as of one sequence number, in (row, column) order: the merge of
 * the sources a {@link ReadView} pins, resolved by {@link NewestVersions}. It holds a reference on
 * the view, so the files it reads stay on disk until it is closed or runs out, or the database is
 * closed ({@link #closeByDatabase}); after the latter every use throws {@link
 * IllegalStateException}.
 *
 * <p>A scanner belongs to one thread; its methods are nonetheless synchronized, because the
 * database may close it from the thread that closes the database, and must not release its files
 * while a step of the owner's is reading them.
 */
public final class DbScanner implements CellScanner, OpenReaders.Reader {
  private static final byte[] EMPTY = new byte[0];

  private final ReadView view;
  private final MergingIterator merged;
  private final NewestVersions versions;
  private final byte[] toRowExclusive;
  private final OpenReaders registry;
  private Cell next;
  private boolean released;

  /**
   * Scans {@code merged} (sources from {@code view}, on whose reference this scanner takes over)
   * from {@code fromRowInclusive} (null: the start) to {@code toRowExclusive} (null: the end),
   * registered in {@code registry} until closed.
   *
   * @throws IllegalStateException when the registry was closed (the database is closed)
   */
  public DbScanner(
      ReadView view,
      MergingIterator merged,
      long snapshot,
      byte[] fromRowInclusive,
      byte[] toRowExclusive,
      OpenReaders registry)
      throws IOException {
    this.view = view;
    this.merged = merged;
    this.versions = new NewestVersions(merged, snapshot);
    this.toRowExclusive = toRowExclusive;
    this.registry = registry;
    boolean ok = false;
    try {
      registry.register(this);
      if (fromRowInclusive == null) {
        merged.seekToFirst();
      } else {
        merged.seek(new InternalKey(fromRowInclusive, EMPTY, InternalKey.MAX_SEQUENCE, ValueKind.PUT));
      }
      ok = true;
    } finally {
      if (!ok) {
        close();
      }
    }
  }

  @Override
  public synchronized boolean hasNext() {
    if (registry.isClosed()) {
      throw new IllegalStateException("database is closed; the scanner was closed with it");
    }
    if (next == null && !released) {
      try {
        advance();
      } catch (IOException e) {
        close();
        throw new UncheckedIOException(e);
      }
    }
    return next != null;
  }

  @Override
  public synchronized Cell next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Cell c = next;
    next = null;
    return c;
  }

  private void advance() throws IOException {
    while (versions.next()) {
      InternalKey k = versions.newest();
      if (toRowExclusive != null && Arrays.compareUnsigned(k.row(), toRowExclusive) >= 0) {
        break;
      }
      if (versions.isLive()) {
        // Memtable entries share their arrays with the memtable: hand out copies.
        next = new Cell(k.row().clone(), k.column().clone(), versions.newestValue().clone());
        return;
      }
    }
    close();
  }

  /** Releases the pinned files. Idempotent. */
  @Override
  public synchronized void close() {
    if (!released) {
      released = true;
      registry.deregister(this);
      try {
        merged.close();
      } finally {
        view.release();
      }
    }
  }

  @Override
  public void closeByDatabase() {
    close(); // every later use throws: the registry is closed
  }
}
