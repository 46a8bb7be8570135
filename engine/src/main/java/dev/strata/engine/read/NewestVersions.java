package dev.strata.engine.read;

import dev.strata.sstable.GetResult;
import dev.strata.sstable.InternalKey;
import dev.strata.sstable.ValueKind;
import java.io.IOException;
import java.util.Arrays;

/**
 * Walks a merged stream one cell at a time, as of a snapshot: for each (row, column) it gives the
 * newest entry with a sequence at most the snapshot, and the row's newest such row tombstone. The
 * one piece of code that applies tombstones to a stream, shared by scans, {@code getRow} and
 * compaction (which decide differently what to do with a cell, but never what "newest" means).
 *
 * <p>Row tombstones live under the empty column, which is the first column of every row, so the
 * row's tombstone is known before any other column of the row is reached.
 *
 * <p>Not thread-safe: it belongs to the thread that owns its source.
 */
public final class NewestVersions {
  private final InternalIterator in;
  private final long snapshot;

  private byte[] row;
  private InternalKey newest;
  private byte[] newestValue;
  private InternalKey rowTombstone;
  private byte[] rowTombstoneValue;

  /** Walks {@code in}, which the caller has positioned (seek or seekToFirst). */
  public NewestVersions(InternalIterator in, long snapshot) {
    this.in = in;
    this.snapshot = snapshot;
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
