package dev.strata.sstable.filter;

/**
 * What a table's filter holds; the sstable-level twin of the engine's {@code BloomType}. Persisted by
 * {@link #id()} in the properties block; {@code ordinal()} never reaches disk.
 *
 * <p>Immutable.
 */
public enum FilterType {
  /** No filter: every Get reads the index and a data block. */
  NONE(0),
  /** One filter key per distinct row: Gets and row reads skip tables without the row. */
  ROW(1),
  /**
   * One filter key per distinct (row, column) cell plus one per distinct row (a separate hash domain),
   * and a small filter of the rows that hold a row tombstone.
   */
  ROWCOL(2);

  private final int id;

  FilterType(int id) {
    this.id = id;
  }

  /** The persisted id (one byte). */
  public int id() {
    return id;
  }

  /** The type with the given persisted id, or {@code null}: parsers turn that into corruption. */
  public static FilterType fromIdOrNull(int id) {
    for (FilterType t : values()) {
      if (t.id == id) {
        return t;
      }
    }
    return null;
  }
}
