package dev.strata.sstable.filter;

import dev.strata.sstable.format.SstableFormat;
import java.util.Objects;

/**
 * The filter hashes of one lookup, computed once and reused for every table a Get consults: the row
 * hash (probed under {@link FilterType#ROW}, and by the row-tombstone filter and row reads under
 * {@link FilterType#ROWCOL}) and the (row, column) hash (probed under {@code ROWCOL}).
 *
 * <pre>{@code
 * FilterProbe probe = FilterProbe.of(row, column);
 * for (TableReader t : candidates) {
 *   GetResult r = t.get(probe, snapshot);
 *   ...
 * }
 * }</pre>
 *
 * <p>Each hash is computed on first use and kept: a Get whose row no table covers hashes nothing, and
 * one that meets only {@code ROW} tables never computes the cell hash; either is computed at most
 * once however many tables are probed.
 *
 * <p>The arrays are not copied: the caller must not change them while the probe is in use. A
 * thread may keep one probe ({@link #reusable}) and re-aim it ({@link #aim}) for each lookup, so
 * that a lookup allocates none. Not thread-safe: a probe belongs to one lookup at a time on one
 * thread.
 */
public final class FilterProbe {
  private static final byte[] EMPTY = new byte[0];

  private byte[] row;
  private byte[] column;
  private long rowHash;
  private long cellHash;
  private boolean rowHashed;
  private boolean cellHashed;

  private FilterProbe(byte[] row, byte[] column) {
    this.row = row;
    this.column = column;
  }

  /** The probe for cell (row, column); a row read passes the empty column. */
  public static FilterProbe of(byte[] row, byte[] column) {
    return new FilterProbe(EMPTY, EMPTY).aim(row, column);
  }

  /**
   * A probe of no cell yet, for {@link #aim}: a thread that keeps one and re-aims it for each lookup
   * allocates no probe per lookup.
   */
  public static FilterProbe reusable() {
    return new FilterProbe(EMPTY, EMPTY);
  }

  /** Aims this probe at cell (row, column), forgetting the previous cell's hashes; returns it. */
  public FilterProbe aim(byte[] row, byte[] column) {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(column, "column");
    if (row.length > SstableFormat.MAX_ROW_LENGTH) {
      throw new IllegalArgumentException(
          "row of " + row.length + " bytes exceeds MAX_ROW_LENGTH " + SstableFormat.MAX_ROW_LENGTH);
    }
    this.row = row;
    this.column = column;
    this.rowHashed = false;
    this.cellHashed = false;
    return this;
  }

  /**
   * Aims this probe at {@code other}'s cell with the hashes {@code other} has computed, so that a
   * key handed from one lookup to another (a batch's key to one of its parts, on another thread)
   * is hashed once; returns this probe. {@code other} must not change meanwhile.
   */
  public FilterProbe aimAs(FilterProbe other) {
    this.row = other.row;
    this.column = other.column;
    this.rowHash = other.rowHash;
    this.cellHash = other.cellHash;
    this.rowHashed = other.rowHashed;
    this.cellHashed = other.cellHashed;
    return this;
  }

  public byte[] row() {
    return row;
  }

  public byte[] column() {
    return column;
  }

  /** {@code KeyHash.hash64} of the row-domain filter key. */
  public long rowHash() {
    if (!rowHashed) {
      rowHash = FilterKeys.rowHash(row);
      rowHashed = true;
    }
    return rowHash;
  }

  /** {@code KeyHash.hash64} of the cell-domain filter key. */
  public long cellHash() {
    if (!cellHashed) {
      cellHash = FilterKeys.cellHash(row, column);
      cellHashed = true;
    }
    return cellHash;
  }
}
