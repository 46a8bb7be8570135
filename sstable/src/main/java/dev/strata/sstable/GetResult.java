package dev.strata.sstable;

import dev.strata.sstable.key.InternalKey;

/**
 * What one table holds for a point lookup of (row, column) at a snapshot: the newest entry of the
 * cell with sequence {@code <= snapshot} (any kind; for the empty column that may be the row
 * tombstone itself), and the sequence of the newest row tombstone of the row with sequence {@code <=
 * snapshot}. The engine compares the two sequences: the larger one decides.
 *
 * @param cell the newest visible entry of the cell, or {@code null}
 * @param value the entry's value ({@code null} when {@code cell} is)
 * @param rowTombstoneSequence the newest visible row tombstone's sequence, or {@link
 *     #NO_ROW_TOMBSTONE}
 *
 * <p>Immutable.
 */
public record GetResult(InternalKey cell, byte[] value, long rowTombstoneSequence) {
  /** {@link #rowTombstoneSequence()} when the row has no visible row tombstone in the table. */
  public static final long NO_ROW_TOMBSTONE = -1;

  /** The table holds nothing visible for the cell or its row. */
  public static final GetResult ABSENT = new GetResult(null, null, NO_ROW_TOMBSTONE);

  /** True when the table holds neither a visible entry of the cell nor a visible row tombstone. */
  public boolean isAbsent() {
    return cell == null && rowTombstoneSequence == NO_ROW_TOMBSTONE;
  }

  /** True when the row has a visible row tombstone in this table. */
  public boolean hasRowTombstone() {
    return rowTombstoneSequence != NO_ROW_TOMBSTONE;
  }
}
