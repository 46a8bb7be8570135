package dev.strata.engine.read;

import dev.strata.sstable.CellLookup;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;

/**
 * What one source (a memtable or a table) decides about a cell for a point read. Sources are asked
 * newest first; the first that is not {@link #UNKNOWN} decides, because every entry in a newer
 * source is newer than every entry for the same cell in an older one.
 *
 * <p>Immutable.
 */
public enum Verdict {
  /** The cell holds the lookup's value. */
  FOUND,
  /** The cell is deleted, by a cell tombstone or by a newer row tombstone. */
  DELETED,
  /** The source knows nothing of the cell or its row: ask older sources. */
  UNKNOWN;

  /** The decision for a source's lookup result: the newer of the cell entry and the row tombstone. */
  public static Verdict of(GetResult r) {
    InternalKey cell = r.cell();
    return cell == null
        ? of(false, 0, null, r.rowTombstoneSequence())
        : of(true, cell.sequence(), cell.kind(), r.rowTombstoneSequence());
  }

  /** {@link #of(GetResult)} for a table's lookup held in place. */
  public static Verdict of(CellLookup r) {
    return of(r.hasCell(), r.cellSequence(), r.cellKind(), r.rowTombstoneSequence());
  }

  private static Verdict of(boolean hasCell, long cellSequence, ValueKind cellKind,
      long rowTombstoneSequence) {
    if (hasCell && cellSequence > rowTombstoneSequence) {
      return cellKind == ValueKind.PUT ? FOUND : DELETED;
    }
    return rowTombstoneSequence != GetResult.NO_ROW_TOMBSTONE || hasCell ? DELETED : UNKNOWN;
  }
}
