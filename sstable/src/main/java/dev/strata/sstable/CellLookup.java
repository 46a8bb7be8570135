package dev.strata.sstable;

import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;

/**
 * What one table holds for a point lookup, as a {@link GetResult} says it, in a holder that {@link
 * TableReader#get(dev.strata.sstable.filter.FilterProbe, long, CellLookup)} fills in place: a thread
 * that keeps one for its Gets allocates no result and no cell key per table, only the value it
 * returns. The cell's row and column are the lookup's own, so the holder keeps only the newest
 * visible entry's sequence, kind and value, and the newest visible row tombstone's sequence.
 *
 * <p>Not thread-safe: belongs to one lookup at a time on one thread; every lookup clears it first.
 */
public final class CellLookup {
  private boolean hasCell;
  private long cellSequence;
  private ValueKind cellKind;
  private byte[] value;
  private long rowTombstoneSequence = GetResult.NO_ROW_TOMBSTONE;
  private boolean searchedBlocks;

  /** Forgets the previous lookup. */
  public void clear() {
    searchedBlocks = false;
    hasCell = false;
    cellKind = null;
    value = null;
    rowTombstoneSequence = GetResult.NO_ROW_TOMBSTONE;
  }

  /** Records the cell's newest visible entry. */
  void cell(long sequence, ValueKind kind, byte[] value) {
    this.hasCell = true;
    this.cellSequence = sequence;
    this.cellKind = kind;
    this.value = value;
  }

  /** Records that the table's filters admitted the lookup, so it searched its index and data. */
  void searchedBlocks() {
    this.searchedBlocks = true;
  }

  /** Records the row's newest visible row tombstone. */
  void rowTombstone(long sequence) {
    this.rowTombstoneSequence = sequence;
  }

  /** Whether the table holds a visible entry of the cell ({@link GetResult#cell} not null). */
  public boolean hasCell() {
    return hasCell;
  }

  /** The cell entry's sequence; meaningful when {@link #hasCell}. */
  public long cellSequence() {
    return cellSequence;
  }

  /** The cell entry's kind; null when there is none. */
  public ValueKind cellKind() {
    return cellKind;
  }

  /** The cell entry's value, a copy the caller may keep; null when there is no entry. */
  public byte[] value() {
    return value;
  }

  /**
   * The cell entry's value, as {@link #value}, which the holder then forgets: a holder kept for the
   * next lookup holds no reference to a value already handed out.
   */
  public byte[] takeValue() {
    byte[] v = value;
    value = null;
    return v;
  }

  /** As {@link GetResult#rowTombstoneSequence}. */
  public long rowTombstoneSequence() {
    return rowTombstoneSequence;
  }

  /**
   * Whether the lookup went past the table's row range and filters into its index and data blocks
   * (the filters admitted it, or the table has none), rather than being turned away by them. A
   * lookup turned away cost one filter probe; one that searched cost an index and a data block,
   * which is what a lookup that then finds nothing wasted.
   */
  public boolean didSearchBlocks() {
    return searchedBlocks;
  }

  /** True when the table holds neither a visible entry of the cell nor a visible row tombstone. */
  public boolean isAbsent() {
    return !hasCell && rowTombstoneSequence == GetResult.NO_ROW_TOMBSTONE;
  }

  /** This lookup of cell (row, column) as a result object; the cell key holds the arrays given. */
  public GetResult toResult(byte[] row, byte[] column) {
    if (isAbsent()) {
      return GetResult.ABSENT;
    }
    InternalKey cell = hasCell ? new InternalKey(row, column, cellSequence, cellKind) : null;
    return new GetResult(cell, value, rowTombstoneSequence);
  }
}
