package dev.strata.engine.read;

import dev.strata.sstable.GetResult;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.util.Arrays;

/**
 * Walks a merged stream one cell at a time, in either direction, as of a snapshot: for each (row,
 * column) it gives the newest entry with a sequence at most the snapshot, and the row's newest such
 * row tombstone. The one piece of code that applies tombstones to a stream, shared by scans, {@code
 * getRow} and cursors; {@link #isLive()} is the point read's {@link Verdict}, so every read path
 * decides liveness by the same rule.
 *
 * <p>Row tombstones live under the empty column, which is the first column of every row, so moving
 * forward from a row's start the row's tombstone is known before any other column of the row is
 * reached. A walk that enters a row anywhere else (a seek into the middle of a row, or any backward
 * step into a new row, which meets the empty column last) asks {@link RowTombstones} first.
 *
 * <p>Not thread-safe: it belongs to the thread that owns its source.
 */
public final class NewestVersions {
  private static final byte[] EMPTY = new byte[0];

  /** Finds a row's newest row tombstone visible at the snapshot, or null: a point lookup. */
  @FunctionalInterface
  public interface RowTombstones {
    InternalKey newest(byte[] row) throws IOException;
  }

  private final InternalIterator in;
  private final long snapshot;
  private final RowTombstones lookup;

  private byte[] row;
  private InternalKey newest;
  private byte[] newestValue;
  private InternalKey rowTombstone;
  private byte[] rowTombstoneValue;

  /**
   * Walks {@code in} forward, which the caller has positioned at a row's start (seek or
   * seekToFirst).
   */
  public NewestVersions(InternalIterator in, long snapshot) {
    this(in, snapshot, null);
  }

  /** Walks {@code in} either way, looking up row tombstones through {@code lookup} when needed. */
  public NewestVersions(InternalIterator in, long snapshot, RowTombstones lookup) {
    this.in = in;
    this.snapshot = snapshot;
    this.lookup = lookup;
  }

  /** Forgets the current row: the caller repositioned the source at a row's start, or anywhere to go backward. */
  public void reset() {
    row = null;
    newest = null;
    rowTombstone = null;
    rowTombstoneValue = null;
  }

  /** Continues in {@code row} after the caller positioned the source past its start (a seek). */
  public void enterRow(byte[] row) throws IOException {
    this.row = row;
    rowTombstone = lookupRowTombstone(row);
    rowTombstoneValue = rowTombstone == null ? null : EMPTY;
  }

  /** Moves to the next cell that has an entry visible at the snapshot; false at the end. */
  public boolean next() throws IOException {
    while (in.isValid() && in.key().sequence() > snapshot) {
      in.next();
    }
    if (!in.isValid()) {
      newest = null;
      return false;
    }
    InternalKey first = in.key();
    if (row == null || !Arrays.equals(first.row(), row)) {
      row = first.row();
      rowTombstone = null;
      rowTombstoneValue = null;
    }
    newest = first;
    newestValue = in.value();
    boolean emptyColumn = first.column().length == 0;
    in.next();
    if (emptyColumn) {
      if (first.kind() == ValueKind.DELETE_ROW) {
        rowTombstone = first;
        rowTombstoneValue = newestValue;
      }
      // Entries follow newest first, so every one after the first visible entry is visible too.
      while (in.isValid() && in.key().sameCell(first)) {
        if (rowTombstone == null && in.key().kind() == ValueKind.DELETE_ROW) {
          rowTombstone = in.key();
          rowTombstoneValue = in.value();
        }
        in.next();
      }
    } else {
      while (in.isValid() && in.key().sameCell(first)) {
        in.next();
      }
    }
    return true;
  }

  /**
   * Moves to the previous cell that has an entry visible at the snapshot; false at the start. The
   * source must stand on the last entry of that cell or a later one's (its oldest, entries of a
   * cell running newest first), and is left on the last entry of the cell before.
   */
  public boolean prev() throws IOException {
    while (in.isValid()) {
      InternalKey last = in.key();
      InternalKey visible = null;
      byte[] visibleValue = null;
      InternalKey cellRowTombstone = null;
      byte[] cellRowTombstoneValue = null;
      // Backward, a cell's entries come oldest first: the last visible one seen is the newest.
      do {
        InternalKey k = in.key();
        if (k.sequence() <= snapshot) {
          visible = k;
          visibleValue = in.value();
          if (k.kind() == ValueKind.DELETE_ROW) {
            cellRowTombstone = k;
            cellRowTombstoneValue = visibleValue;
          }
        }
        in.prev();
      } while (in.isValid() && in.key().sameCell(last));
      if (visible == null) {
        continue;
      }
      if (row == null || !Arrays.equals(visible.row(), row)) {
        row = visible.row();
        if (visible.column().length == 0) {
          rowTombstone = cellRowTombstone;
          rowTombstoneValue = cellRowTombstoneValue;
        } else {
          rowTombstone = lookupRowTombstone(row);
          rowTombstoneValue = rowTombstone == null ? null : EMPTY;
        }
      }
      newest = visible;
      newestValue = visibleValue;
      return true;
    }
    newest = null;
    return false;
  }

  private InternalKey lookupRowTombstone(byte[] row) throws IOException {
    if (lookup == null) {
      throw new IllegalStateException("a walk that enters rows mid-way needs a row tombstone lookup");
    }
    return lookup.newest(row);
  }

  /** The current cell's newest visible entry. */
  public InternalKey newest() {
    return newest;
  }

  /** Its value (empty for tombstones). */
  public byte[] newestValue() {
    return newestValue;
  }

  /** The current row's newest visible row tombstone, or null. */
  public InternalKey rowTombstone() {
    return rowTombstone;
  }

  /** The row tombstone's stored value (always empty; kept so compaction copies bytes faithfully). */
  public byte[] rowTombstoneValue() {
    return rowTombstoneValue;
  }

  /** True when the current cell is live: a put newer than its row's tombstone. */
  public boolean isLive() {
    return Verdict.of(new GetResult(newest, newestValue, rowTombstoneSequence())) == Verdict.FOUND;
  }

  /** The row tombstone's sequence, or {@link GetResult#NO_ROW_TOMBSTONE}. */
  public long rowTombstoneSequence() {
    return rowTombstone == null ? GetResult.NO_ROW_TOMBSTONE : rowTombstone.sequence();
  }
}
