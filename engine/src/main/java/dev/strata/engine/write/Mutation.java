package dev.strata.engine.write;

import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One operation of a write: a put of a cell, a delete of a cell, or a delete of a whole row. A
 * single put is a batch of one mutation; a batch's mutations get consecutive sequence numbers in
 * order.
 *
 * <p>Tombstones carry an empty value, and a row tombstone the empty column (it is stored under the
 * empty column, see {@link InternalKey}). Equality compares the bytes. The arrays are not copied:
 * {@code WriteBatch} hands over its own copies. Immutable by convention.
 *
 * @param kind what the mutation does
 * @param row the row, 1 to {@link Limits#MAX_ROW_LENGTH} bytes
 * @param column the column; empty for {@link ValueKind#DELETE_ROW}
 * @param value the value; empty for tombstones
 */
public record Mutation(ValueKind kind, byte[] row, byte[] column, byte[] value) {

  /** The shared empty array of tombstones and of the key-value view's column. */
  public static final byte[] EMPTY = new byte[0];

  public Mutation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(value, "value");
    assert kind == ValueKind.PUT || value.length == 0 : "tombstone with a value: " + kind;
    assert kind != ValueKind.DELETE_ROW || column.length == 0 : "row tombstone with a column";
  }

  /** A put of {@code value} into (row, column). */
  public static Mutation put(byte[] row, byte[] column, byte[] value) {
    return new Mutation(ValueKind.PUT, row, column, value);
  }

  /** A tombstone for the cell (row, column). */
  public static Mutation delete(byte[] row, byte[] column) {
    return new Mutation(ValueKind.DELETE, row, column, EMPTY);
  }

  /** A tombstone for every cell of the row written before it. */
  public static Mutation deleteRow(byte[] row) {
    return new Mutation(ValueKind.DELETE_ROW, row, EMPTY, EMPTY);
  }

  /** The internal key this mutation is stored under when it is given {@code sequence}. */
  public InternalKey key(long sequence) {
    return new InternalKey(row, column, sequence, kind);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Mutation m
        && kind == m.kind
        && Arrays.equals(row, m.row)
        && Arrays.equals(column, m.column)
        && Arrays.equals(value, m.value);
  }

  @Override
  public int hashCode() {
    int h = kind.hashCode();
    h = 31 * h + Arrays.hashCode(row);
    h = 31 * h + Arrays.hashCode(column);
    return 31 * h + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    HexFormat hex = HexFormat.of();
    return kind
        + "["
        + hex.formatHex(row)
        + "/"
        + hex.formatHex(column)
        + ", "
        + value.length
        + " value bytes]";
  }
}
