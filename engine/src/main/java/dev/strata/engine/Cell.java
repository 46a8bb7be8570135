package dev.strata.engine;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One live cell returned by a scan: its row, its column (empty for the key-value view) and its
 * value. Equality compares the bytes, not the array identities.
 *
 * <p>The arrays are not copied: the scanner hands over fresh arrays, and callers should not modify
 * them. Immutable by convention.
 *
 * @param row the row, 1 to {@link Db#MAX_ROW_LENGTH} bytes
 * @param column the column, 0 to {@link Db#MAX_COLUMN_LENGTH} bytes
 * @param value the value, 0 to {@link Db#MAX_VALUE_LENGTH} bytes
 */
public record Cell(byte[] row, byte[] column, byte[] value) {

  public Cell {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(value, "value");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cell c
        && Arrays.equals(row, c.row)
        && Arrays.equals(column, c.column)
        && Arrays.equals(value, c.value);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(row) + Arrays.hashCode(column)) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    HexFormat hex = HexFormat.of();
    return "Cell["
        + hex.formatHex(row)
        + "/"
        + hex.formatHex(column)
        + " = "
        + value.length
        + " bytes]";
  }
}
