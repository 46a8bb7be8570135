package dev.strata.bench.readamp;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The data and the query keys of one benchmark shape, all derived from a seed, so both engines get
 * byte-identical cells and queries.
 *
 * <p>Rows are 16 ASCII hex digits of {@code mix(i ^ seed)}; {@code mix} (the Stafford variant-13
 * finalizer) is a bijection of the longs, so row indices {@code [0, rows)} (loaded) and {@code
 * [rows, ...)} (absent) never collide, and both spread uniformly over the same range: every table
 * covers nearly the whole key space and its row-range check skips nothing. Columns are {@code
 * "c0001"}-style: loaded columns have odd numbers {@code 1, 3, ..., 2 * columns - 1}, absent ones
 * even numbers {@code 0, 2, ..., 2 * columns}, interleaved with them.
 *
 * <p>Values imitate db_bench's {@code --compression_ratio}: they are cut from a 1 MiB pool made of
 * 100-byte pieces, each a random printable string of {@code ratio * 100} bytes repeated to fill the
 * piece, so LZ4 shrinks them to about {@code ratio} of their size.
 *
 * <p>Immutable.
 */
final class Workload {
  /** Bytes of every row key (16 hex digits); RocksDB's prefix extractor cuts keys here. */
  static final int ROW_BYTES = 16;

  /** Size of the value pool, as db_bench's RandomGenerator. */
  private static final int POOL_BYTES = 1 << 20;

  /** Size of one compressible piece of the pool, as db_bench. */
  private static final int PIECE_BYTES = 100;

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final Shape shape;
  private final long cells;
  private final int columnsPerRow;
  private final long rows;
  private final int valueBytes;
  private final long seed;
  private final byte[] pool;

  Workload(Shape shape, long cells, int wideColumns, int valueBytes, double compressionRatio, long seed) {
    this.shape = shape;
    this.columnsPerRow = shape.columnsPerRow(wideColumns);
    this.rows = Math.max(1, cells / columnsPerRow);
    this.cells = rows * columnsPerRow;
    this.valueBytes = valueBytes;
    this.seed = seed;
    this.pool = valuePool(Math.max(POOL_BYTES, valueBytes), compressionRatio, new SplittableRandom(seed ^ 0x76616c7565L));
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
    long h = mix(index ^ seed);
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
    long span = pool.length - valueBytes + 1L;
    int at = (int) ((cellIndex * valueBytes) % span);
    byte[] v = new byte[valueBytes];
    System.arraycopy(pool, at, v, 0, valueBytes);
    return v;
  }

  /**
   * The query keys of one pass: {@code count} (row, column) pairs of {@code kind}, drawn with {@code
   * streamSeed} (warm-up and measured passes use different streams). For {@link QueryKind#GET_ROW}
   * the columns are unused.
   */
  Queries queries(QueryKind kind, int count, long streamSeed) {
    SplittableRandom r = new SplittableRandom(seed ^ mix(streamSeed * 31 + kind.ordinal()));
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

  private static byte[] valuePool(int size, double ratio, SplittableRandom r) {
    byte[] pool = new byte[size];
    int raw = Math.max(1, (int) (PIECE_BYTES * ratio));
    byte[] piece = new byte[raw];
    for (int at = 0; at < size; at += PIECE_BYTES) {
      for (int i = 0; i < raw; i++) {
        piece[i] = (byte) (' ' + r.nextInt(95));
      }
      for (int i = 0; i < PIECE_BYTES && at + i < size; i++) {
        pool[at + i] = piece[i % raw];
      }
    }
    return pool;
  }

  /** Stafford variant 13: a bijection of the longs with good avalanche. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
