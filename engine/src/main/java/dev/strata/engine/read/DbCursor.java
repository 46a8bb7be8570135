package dev.strata.engine.read;

import dev.strata.engine.CellCursor;
import dev.strata.engine.version.ReadView;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A {@link CellCursor} over the sources a {@link ReadView} pins, at one sequence number: a {@link
 * MergingIterator} walked cell by cell by {@link NewestVersions}, which applies the tombstones the
 * same way in both directions (and the same way scans and Gets do).
 *
 * <p>Where the merged iterator stands (RocksDB's DBIter): moving forward, just after the current
 * cell's entries; moving backward, just before them (on the previous cell's oldest entry). A step
 * against the current direction first re-seeks the merged iterator to the other side of the current
 * cell, which {@link MergingIterator} turns into a direction change of every source.
 *
 * <p>It holds a reference on the view, so the files it reads stay on disk until it is closed, or the
 * database is closed ({@link #closeByDatabase}); after either every use throws {@link
 * IllegalStateException}.
 *
 * <p>A cursor belongs to one thread; its methods are nonetheless synchronized, because the database
 * may close it from the thread that closes the database, and must not release its files while a
 * step of the owner's is reading them.
 */
public final class DbCursor implements CellCursor, OpenReaders.Reader {
  private static final byte[] ZERO = {0};

  private final ReadView view;
  private final MergingIterator merged;
  private final NewestVersions versions;
  private final OpenReaders registry;
  private boolean forward = true;
  private boolean valid;
  private boolean closed;
  private boolean closedByDatabase;
  private byte[] row;
  private byte[] column;
  private byte[] value;

  /**
   * A cursor at {@code snapshot} over {@code view}, on whose reference it takes over, registered in
   * {@code registry} until closed.
   *
   * @throws IllegalStateException when the registry was closed (the database is closed)
   * @throws IOException when a table cannot be opened; the view is released then
   */
  public DbCursor(ReadView view, long snapshot, OpenReaders registry) throws IOException {
    this.view = view;
    try {
      this.merged = new MergingIterator(ReadPath.allSources(view));
    } catch (IOException | RuntimeException e) {
      view.release();
      throw e;
    }
    this.versions =
        new NewestVersions(merged, snapshot, r -> ReadPath.rowTombstone(view, snapshot, r));
    this.registry = registry;
    registry.register(this); // when it throws, it has closed this cursor
  }

  @Override
  public synchronized void seekToFirst() {
    checkOpen();
    run(
        () -> {
          merged.seekToFirst();
          versions.reset();
          findNext();
        });
  }

  @Override
  public synchronized void seekToLast() {
    checkOpen();
    run(
        () -> {
          merged.seekToLast();
          versions.reset();
          findPrev();
        });
  }

  @Override
  public synchronized void seek(byte[] row, byte[] column) {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(column, "column");
    checkOpen();
    byte[] r = row.clone();
    byte[] c = column.clone();
    chargeLevelZero(r);
    run(
        () -> {
          merged.seek(cellStart(r, c));
          versions.reset();
          if (c.length > 0) {
            versions.enterRow(r); // past the row's empty column, where its tombstones are
          }
          findNext();
        });
  }

  @Override
  public synchronized void seekForPrev(byte[] row, byte[] column) {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(column, "column");
    checkOpen();
    byte[] r = row.clone();
    byte[] after = concat(column, ZERO); // the cell right after (row, column)
    chargeLevelZero(r);
    run(
        () -> {
          positionBefore(r, after);
          versions.reset();
          findPrev();
        });
  }

  /**
   * Charges the seek's level-0 positionings (each an index partition and a data block a tree
   * without level 0 would not read) to the view's {@link dev.strata.engine.version.WastedReads}.
   */
  private void chargeLevelZero(byte[] row) {
    view.levelZeroReads().charge(view.version().levelZeroCovering(row));
  }

  @Override
  public synchronized boolean isValid() {
    checkOpen();
    return valid;
  }

  @Override
  public synchronized void next() {
    checkValid();
    run(
        () -> {
          if (!forward) {
            merged.seek(cellStart(row, column));
            while (merged.isValid() && inCell(merged.key(), row, column)) {
              merged.next();
            }
          }
          findNext();
        });
  }

  @Override
  public synchronized void prev() {
    checkValid();
    run(
        () -> {
          if (forward) {
            positionBefore(row, column);
          }
          findPrev();
        });
  }

  @Override
  public synchronized byte[] row() {
    checkValid();
    return row.clone();
  }

  @Override
  public synchronized byte[] column() {
    checkValid();
    return column.clone();
  }

  @Override
  public synchronized byte[] value() {
    checkValid();
    return value.clone();
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      valid = false;
      registry.deregister(this);
      try {
        merged.close();
      } finally {
        view.release();
      }
    }
  }

  @Override
  public synchronized void closeByDatabase() {
    closedByDatabase = true;
    close();
  }

  /** Moves forward to the next live cell. */
  private void findNext() throws IOException {
    forward = true;
    while (versions.next()) {
      if (versions.isLive()) {
        capture();
        return;
      }
    }
    valid = false;
  }

  /** Moves backward to the previous live cell. */
  private void findPrev() throws IOException {
    forward = false;
    while (versions.prev()) {
      if (versions.isLive()) {
        capture();
        return;
      }
    }
    valid = false;
  }

  private void capture() {
    InternalKey k = versions.newest();
    row = k.row();
    column = k.column();
    value = versions.newestValue();
    valid = true;
  }

  /** Positions the merged iterator on the last entry before every entry of cell (row, column). */
  private void positionBefore(byte[] row, byte[] column) throws IOException {
    merged.seekForPrev(cellStart(row, column));
    while (merged.isValid() && inCell(merged.key(), row, column)) {
      merged.prev();
    }
  }

  /** The smallest internal key of cell (row, column): its newest possible entry. */
  private static InternalKey cellStart(byte[] row, byte[] column) {
    return new InternalKey(row, column, InternalKey.MAX_SEQUENCE, ValueKind.PUT);
  }

  private static boolean inCell(InternalKey k, byte[] row, byte[] column) {
    return Arrays.equals(k.row(), row) && Arrays.equals(k.column(), column);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private void checkOpen() {
    if (closedByDatabase) {
      throw new IllegalStateException("database is closed; the cursor was closed with it");
    }
    if (closed) {
      throw new IllegalStateException("cursor is closed");
    }
  }

  private void checkValid() {
    checkOpen();
    if (!valid) {
      throw new IllegalStateException("cursor is not positioned at a cell");
    }
  }

  /** Runs a step; an I/O error invalidates the cursor and surfaces unchecked. */
  private void run(IoStep step) {
    try {
      step.run();
    } catch (IOException e) {
      valid = false;
      throw new UncheckedIOException(e);
    }
  }

  @FunctionalInterface
  private interface IoStep {
    void run() throws IOException;
  }
}
