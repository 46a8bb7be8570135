package dev.strata.engine.memtable;

import dev.strata.sstable.InternalKey;
import dev.strata.sstable.ValueKind;

/**
 * What one source (a memtable, and the same shape serves a table) knows about a cell as of a
 * snapshot: the cell's newest entry and the row's newest row tombstone, either possibly absent. The
 * read path asks sources newest first and stops at the first whose {@link #verdict()} is not {@link
 * Verdict#UNKNOWN}: every entry of an older source has a smaller sequence number, so a row
 * tombstone here hides whatever they hold for the row.
 *
 * <p>Immutable by convention (the value array is the memtable's and must not be modified).
 *
 * @param cell the newest entry of the cell with a sequence at most the snapshot, or null
 * @param value the value when {@code cell} is a {@link ValueKind#PUT}, otherwise null
 * @param rowTombstone the row's newest {@link ValueKind#DELETE_ROW} at most the snapshot, or null
 */
public record MemTableLookup(InternalKey cell, byte[] value, InternalKey rowTombstone) {

  /** The decision a lookup reaches. */
  public enum Verdict {
    /** The cell holds {@link #value()}. */
    FOUND,
    /** The cell is deleted, by a cell tombstone or a newer row tombstone. */
    DELETED,
    /** This source knows nothing about the cell: ask older sources. */
    UNKNOWN
  }

  public MemTableLookup {
    assert (value != null) == (cell != null && cell.kind() == ValueKind.PUT)
        : "value/cell mismatch";
  }

  /** What the lookup decides: the newer of the cell entry and the row tombstone wins. */
  public Verdict verdict() {
    if (cell != null && (rowTombstone == null || cell.sequence() > rowTombstone.sequence())) {
      return cell.kind() == ValueKind.PUT ? Verdict.FOUND : Verdict.DELETED;
    }
    return rowTombstone != null ? Verdict.DELETED : Verdict.UNKNOWN;
  }
}
