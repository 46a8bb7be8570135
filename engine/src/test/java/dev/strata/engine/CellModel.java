package dev.strata.engine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The oracle for engine tests: what a {@link Db} must hold, as a {@code TreeMap} from (row, column)
 * to value in unsigned byte order, with helpers that compare a database against it and describe
 * cells readably (long values by length and hash).
 *
 * <p>Not thread-safe.
 */
final class CellModel {
  /** A cell address, ordered by row then column, both unsigned. */
  record Key(byte[] row, byte[] column) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = Arrays.compareUnsigned(row, o.row);
      return c != 0 ? c : Arrays.compareUnsigned(column, o.column);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && compareTo(k) == 0;
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(row) + Arrays.hashCode(column);
    }

    @Override
    public String toString() {
      return hex(row) + "/" + hex(column);
    }
  }

  private static final byte[] EMPTY = new byte[0];

  private final TreeMap<Key, byte[]> cells = new TreeMap<>();

  CellModel copy() {
    CellModel m = new CellModel();
    m.cells.putAll(cells);
    return m;
  }

  void put(byte[] row, byte[] column, byte[] value) {
    cells.put(new Key(row.clone(), column.clone()), value.clone());
  }

  void delete(byte[] row, byte[] column) {
    cells.remove(new Key(row, column));
  }

  void deleteRow(byte[] row) {
    rowCells(row).clear();
  }

  byte[] get(byte[] row, byte[] column) {
    return cells.get(new Key(row, column));
  }

  /** The live columns of {@code row}, column to value. */
  NavigableMap<Key, byte[]> rowCells(byte[] row) {
    return cells.subMap(
        new Key(row, EMPTY), true, new Key(Arrays.copyOf(row, row.length + 1), EMPTY), false);
  }

  /** Cells with from <= row < to (null: unbounded), described. */
  List<String> scan(byte[] from, byte[] to) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<Key, byte[]> e : cells.entrySet()) {
      byte[] row = e.getKey().row();
      if (from != null && Arrays.compareUnsigned(row, from) < 0) {
        continue;
      }
      if (to != null && Arrays.compareUnsigned(row, to) >= 0) {
        break;
      }
      out.add(describe(row, e.getKey().column(), e.getValue()));
    }
    return out;
  }

  int size() {
    return cells.size();
  }

  /** The live cells in order, for navigating like a cursor. */
  NavigableMap<Key, byte[]> cells() {
    return java.util.Collections.unmodifiableNavigableMap(cells);
  }

  /** Every row that holds a live cell. */
  List<byte[]> rows() {
    List<byte[]> out = new ArrayList<>();
    byte[] last = null;
    for (Key k : cells.keySet()) {
      if (last == null || !Arrays.equals(last, k.row())) {
        out.add(k.row());
        last = k.row();
      }
    }
    return out;
  }

  /** Applies {@code ops} of a batch, in order. */
  void apply(List<Op> ops) {
    for (Op op : ops) {
      op.applyTo(this);
    }
  }

  /** One mutation, as the model and as a batch entry. */
  record Op(Kind kind, byte[] row, byte[] column, byte[] value) {
    enum Kind {
      PUT,
      DELETE,
      DELETE_ROW
    }

    void applyTo(CellModel m) {
      switch (kind) {
        case PUT -> m.put(row, column, value);
        case DELETE -> m.delete(row, column);
        case DELETE_ROW -> m.deleteRow(row);
      }
    }

    void addTo(WriteBatch b) {
      switch (kind) {
        case PUT -> b.put(row, column, value);
        case DELETE -> b.delete(row, column);
        case DELETE_ROW -> b.deleteRow(row);
      }
    }

    void applyTo(Db db) throws IOException {
      switch (kind) {
        case PUT -> db.put(row, column, value);
        case DELETE -> db.delete(row, column);
        case DELETE_ROW -> db.deleteRow(row);
      }
    }

    @Override
    public String toString() {
      return switch (kind) {
        case PUT -> "put " + describe(row, column, value);
        case DELETE -> "delete " + hex(row) + "/" + hex(column);
        case DELETE_ROW -> "deleteRow " + hex(row);
      };
    }
  }

  /** Everything a scan of [from, to) gives, described like {@link #scan}. */
  static List<String> scan(Db db, byte[] from, byte[] to) throws IOException {
    List<String> out = new ArrayList<>();
    try (CellScanner s = db.scan(from, to)) {
      while (s.hasNext()) {
        Cell c = s.next();
        out.add(describe(c.row(), c.column(), c.value()));
      }
    }
    return out;
  }

  /** The row as the model holds it, described column by column. */
  List<String> describeRow(byte[] row) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<Key, byte[]> e : rowCells(row).entrySet()) {
      out.add(describe(row, e.getKey().column(), e.getValue()));
    }
    return out;
  }

  /** The row as {@code getRow} gives it, described column by column. */
  static List<String> describeRow(byte[] row, NavigableMap<byte[], byte[]> columns) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<byte[], byte[]> e : columns.entrySet()) {
      out.add(describe(row, e.getKey(), e.getValue()));
    }
    return out;
  }

  static String describe(byte[] row, byte[] column, byte[] value) {
    return hex(row) + "/" + hex(column) + "=" + describeValue(value);
  }

  static String describeValue(byte[] value) {
    if (value == null) {
      return "null";
    }
    if (value.length <= 24) {
      return hex(value);
    }
    return "len" + value.length + "#" + Integer.toHexString(Arrays.hashCode(value));
  }

  static String hex(byte[] b) {
    return b.length == 0 ? "''" : HexFormat.of().formatHex(b);
  }
}
