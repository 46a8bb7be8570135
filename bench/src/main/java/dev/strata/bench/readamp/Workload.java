package dev.strata.bench.readamp;

import dev.strata.bench.common.CompressibleValues;
import dev.strata.bench.common.Mix;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The data and the query keys of one benchmark shape, all derived from a seed, so both engines get
 * byte-identical cells and queries.
 *
 * <p>Rows are 16 ASCII hex digits of {@code mix(i ^ seed)}; {@code mix} ({@link Mix}, the Stafford variant-13
 * finalizer) is a bijection of the longs, so row indices {@code [0, rows)} (loaded) and {@code
 * [rows, ...)} (absent) never collide, and both spread uniformly over the same range: every table
 * covers nearly the whole key space and its row-range check skips nothing. Columns are {@code
 * "c0001"}-style: loaded columns have odd numbers {@code 1, 3, ..., 2 * columns - 1}, absent ones
 * even numbers {@code 0, 2, ..., 2 * columns}, interleaved with them.
 *
 * <p>Values imitate db_bench's {@code --compression_ratio} ({@link CompressibleValues}).
 *
 * <p>Immutable.
 */
final class Workload {
  /** Bytes of every row key (16 hex digits); RocksDB's prefix extractor cuts keys here. */
  static final int ROW_BYTES = 16;

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final Shape shape;
  private final long cells;
  private final int columnsPerRow;
  private final long rows;
  private final long seed;
  private final CompressibleValues values;

  Workload(Shape shape, long cells, int wideColumns, int valueBytes, double compressionRatio, long seed) {
    this.shape = shape;
    this.columnsPerRow = shape.columnsPerRow(wideColumns);
    this.rows = Math.max(1, cells / columnsPerRow);
    this.cells = rows * columnsPerRow;
    this.seed = seed;
    this.values = new CompressibleValues(valueBytes, compressionRatio, seed);
  }

  Shape shape() {
    return shape;
  }

  /** Cells loaded: rows times columns per row. */
  long cells() {
    return cells;
  }

  long rows() {
    return rows;
  }

  int columnsPerRow() {
    return columnsPerRow;
  }

  /** Row key {@code index}: loaded for {@code index < rows()}, absent above. */
  byte[] row(long index) {
    long h = Mix.mix(index ^ seed);
    byte[] row = new byte[ROW_BYTES];
    for (int i = ROW_BYTES - 1; i >= 0; i--) {
      row[i] = HEX[(int) (h & 15)];
      h >>>= 4;
    }
    return row;
  }

  /** Loaded column {@code j} of every row, {@code 0 <= j < columnsPerRow()}. */
  byte[] column(int j) {
    return columnName(2 * j + 1);
  }

  /** Absent column {@code j}, {@code 0 <= j <= columnsPerRow()}: interleaved with the loaded ones. */
  byte[] absentColumn(int j) {
    return columnName(2 * j);
  }

  /** The value of cell {@code cellIndex}: {@code valueBytes} bytes of the compressible pool. */
  byte[] value(long cellIndex) {
    return values.value(cellIndex);
  }

  /**
   * The query keys of one pass: {@code count} (row, column) pairs of {@code kind}, drawn with {@code
   * streamSeed} (warm-up and measured passes use different streams). For {@link QueryKind#GET_ROW}
   * the columns are unused.
   */
  Queries queries(QueryKind kind, int count, long streamSeed) {
    SplittableRandom r = new SplittableRandom(seed ^ Mix.mix(streamSeed * 31 + kind.ordinal()));
    byte[][] qRows = new byte[count][];
    byte[][] qColumns = new byte[count][];
    for (int i = 0; i < count; i++) {
      long rowIndex = kind == QueryKind.ABSENT_ROW ? rows + r.nextLong(Math.max(4 * rows, 1 << 20)) : r.nextLong(rows);
      qRows[i] = row(rowIndex);
      qColumns[i] = switch (kind) {
        case ABSENT_ROW, PRESENT_CELL, GET_ROW -> column(r.nextInt(columnsPerRow));
        case ABSENT_COLUMN -> absentColumn(r.nextInt(columnsPerRow + 1));
      };
    }
    return new Queries(kind, qRows, qColumns);
  }

  /** One pass of query keys. {@code rows[i]} and {@code columns[i]} form query {@code i}. */
  record Queries(QueryKind kind, byte[][] rows, byte[][] columns) {
    int size() {
      return rows.length;
    }

    /** Queries {@code [from, to)} of this pass. */
    Queries slice(int from, int to) {
      return new Queries(kind, Arrays.copyOfRange(rows, from, to), Arrays.copyOfRange(columns, from, to));
    }
  }

  private static byte[] columnName(int n) {
    return String.format("c%04d", n).getBytes(StandardCharsets.US_ASCII);
  }
}
