package dev.strata.sstable.key;

/**
 * What an internal key records: a value, a cell tombstone, or a row tombstone. Persisted by {@link
 * #id()} in tables, log records and batches; {@code ordinal()} never reaches disk.
 *
 * <p>Immutable.
 */
public enum ValueKind {
  /** A cell value. */
  PUT(1),
  /** A tombstone for one (row, column) cell. */
  DELETE(2),
  /**
   * A tombstone for a whole row: hides every column of the row with a lower sequence number. Stored
   * under the empty column; it shadows the empty-column cell like any other column.
   */
  DELETE_ROW(3);

  private final int id;

  ValueKind(int id) {
    this.id = id;
  }

  /** The persisted id: one byte in every format. */
  public int id() {
    return id;
  }

  /** True for both kinds of tombstone. */
  public boolean isTombstone() {
    return this != PUT;
  }

  /**
   * The kind with the given persisted id, or {@code null} when no kind has it: callers that parse
   * bytes turn that into their format's corruption exception, with the file and offset they know.
   */
  public static ValueKind fromIdOrNull(int id) {
    switch (id) {
      case 1:
        return PUT;
      case 2:
        return DELETE;
      case 3:
        return DELETE_ROW;
      default:
        return null;
    }
  }
}
