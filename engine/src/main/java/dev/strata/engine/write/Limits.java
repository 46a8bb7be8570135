package dev.strata.engine.write;

/**
 * The size limits of rows, columns, values and batches, and the one argument check that every entry
 * point ({@code WriteBatch} and {@code Db}) applies, so both reject exactly the same input with
 * exactly the same messages.
 *
 * <p>The rules: a null argument is a {@link NullPointerException} whose message names the argument;
 * a row that is empty or longer than {@link #MAX_ROW_LENGTH}, a column longer than {@link
 * #MAX_COLUMN_LENGTH} or a value longer than {@link #MAX_VALUE_LENGTH} is an {@link
 * IllegalArgumentException} whose message names the argument and the limit. All null checks of a
 * call run before its length checks.
 *
 * <p>Thread-safe (stateless).
 */
public final class Limits {

  /** Rows are 1 to this many bytes: the length fits the formats' unsigned 16-bit fields. */
  public static final int MAX_ROW_LENGTH = 32767;

  /** Columns are 0 to this many bytes; the empty column is the key-value view's cell. */
  public static final int MAX_COLUMN_LENGTH = 32767;

  /** Values are 0 to this many bytes (64 MiB). */
  public static final int MAX_VALUE_LENGTH = 64 << 20;

  /**
   * The largest encoded size of one batch's operations (1 GiB): a batch is one log record and one
   * in-memory buffer, so it must stay well below the 2 GiB an array can hold.
   */
  public static final long MAX_BATCH_BYTES = 1L << 30;

  /** Commit marker names are 1 to this many bytes. */
  public static final int MAX_COMMIT_MARKER_NAME_LENGTH = 255;

  /** Commit marker values are 0 to this many bytes. */
  public static final int MAX_COMMIT_MARKER_VALUE_LENGTH = 4096;

  /** A batch sets or removes at most this many commit markers (as many as a database holds). */
  public static final int MAX_COMMIT_MARKERS_PER_BATCH = 1024;

  /**
   * A database holds at most this many commit markers: the manifest carries them all in every
   * snapshot and the engine in memory, so they must stay few (a write that would pass the limit
   * fails with IllegalArgumentException and writes nothing).
   */
  public static final int MAX_COMMIT_MARKERS = 1024;

  private Limits() {}

  /** Checks a commit marker's name, and its value unless null (a removal). */
  public static void checkCommitMarker(byte[] name, byte[] value, boolean removal) {
    requireNonNull(name, "name");
    if (!removal) {
      requireNonNull(value, "value");
    }
    if (name.length == 0 || name.length > MAX_COMMIT_MARKER_NAME_LENGTH) {
      throw new IllegalArgumentException(
          "name must be 1 to MAX_COMMIT_MARKER_NAME_LENGTH (" + MAX_COMMIT_MARKER_NAME_LENGTH
              + ") bytes, was " + name.length);
    }
    if (!removal && value.length > MAX_COMMIT_MARKER_VALUE_LENGTH) {
      throw new IllegalArgumentException(
          "value must be 0 to MAX_COMMIT_MARKER_VALUE_LENGTH (" + MAX_COMMIT_MARKER_VALUE_LENGTH
              + ") bytes, was " + value.length);
    }
  }

  /**
   * Checks that a batch holding {@code count} marker updates may take one more.
   *
   * @throws IllegalArgumentException naming {@code MAX_COMMIT_MARKERS_PER_BATCH} when it may not
   */
  public static void checkMarkerCount(int count) {
    if (count >= MAX_COMMIT_MARKERS_PER_BATCH) {
      throw new IllegalArgumentException(
          "batch would hold " + (count + 1) + " commit marker updates, over"
              + " MAX_COMMIT_MARKERS_PER_BATCH (" + MAX_COMMIT_MARKERS_PER_BATCH + ")");
    }
  }

  /**
   * Checks that a database holding {@code held} markers may gain {@code added} names.
   *
   * @throws IllegalArgumentException naming {@code MAX_COMMIT_MARKERS} when it may not
   */
  public static void checkMarkersHeld(int held, int added) {
    if (added > 0 && held + added > MAX_COMMIT_MARKERS) {
      throw new IllegalArgumentException(
          "the write would leave the database with " + (held + added) + " commit markers, over"
              + " MAX_COMMIT_MARKERS (" + MAX_COMMIT_MARKERS + "); remove some first");
    }
  }

  /** Checks the arguments of a wide-row put. */
  public static void checkPut(byte[] row, byte[] column, byte[] value) {
    requireNonNull(row, "row");
    requireNonNull(column, "column");
    requireNonNull(value, "value");
    checkRowLength(row, "row");
    checkColumnLength(column, "column");
    checkValueLength(value, "value");
  }

  /** Checks the arguments of a cell delete or a cell get. */
  public static void checkCell(byte[] row, byte[] column) {
    requireNonNull(row, "row");
    requireNonNull(column, "column");
    checkRowLength(row, "row");
    checkColumnLength(column, "column");
  }

  /** Checks the row of a deleteRow or a getRow. */
  public static void checkRow(byte[] row) {
    requireNonNull(row, "row");
    checkRowLength(row, "row");
  }

  /** Checks the key of a key-value get or delete: a key is a row, under the row's limits. */
  public static void checkKey(byte[] key) {
    requireNonNull(key, "key");
    checkRowLength(key, "key");
  }

  /** Checks the arguments of a key-value put. */
  public static void checkKeyPut(byte[] key, byte[] value) {
    requireNonNull(key, "key");
    requireNonNull(value, "value");
    checkRowLength(key, "key");
    checkValueLength(value, "value");
  }

  /** Throws a {@link NullPointerException} naming {@code name} when {@code arg} is null. */
  public static <T> T requireNonNull(T arg, String name) {
    if (arg == null) {
      throw new NullPointerException(name + " must not be null");
    }
    return arg;
  }

  /**
   * Checks that a batch of {@code currentBytes} encoded bytes may grow by {@code addedBytes}.
   *
   * @throws IllegalArgumentException naming {@code MAX_BATCH_BYTES} when it may not
   */
  public static void checkBatchGrowth(long currentBytes, long addedBytes) {
    if (currentBytes + addedBytes > MAX_BATCH_BYTES) {
      throw new IllegalArgumentException(
          "batch would hold "
              + (currentBytes + addedBytes)
              + " bytes, over MAX_BATCH_BYTES ("
              + MAX_BATCH_BYTES
              + ")");
    }
  }

  private static void checkRowLength(byte[] row, String name) {
    if (row.length == 0 || row.length > MAX_ROW_LENGTH) {
      throw new IllegalArgumentException(
          name + " must be 1 to MAX_ROW_LENGTH (" + MAX_ROW_LENGTH + ") bytes, was " + row.length);
    }
  }

  private static void checkColumnLength(byte[] column, String name) {
    if (column.length > MAX_COLUMN_LENGTH) {
      throw new IllegalArgumentException(
          name
              + " must be 0 to MAX_COLUMN_LENGTH ("
              + MAX_COLUMN_LENGTH
              + ") bytes, was "
              + column.length);
    }
  }

  private static void checkValueLength(byte[] value, String name) {
    if (value.length > MAX_VALUE_LENGTH) {
      throw new IllegalArgumentException(
          name
              + " must be 0 to MAX_VALUE_LENGTH ("
              + MAX_VALUE_LENGTH
              + ") bytes, was "
              + value.length);
    }
  }
}
