package dev.strata.engine;

import dev.strata.engine.log.LogFormat;
import dev.strata.engine.write.Limits;
import dev.strata.engine.write.Mutation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A group of puts and deletes that {@link Db#write(WriteBatch)} applies all or nothing, also across
 * a crash: the batch is one log record. Operations apply in the order they were added, so a later
 * put of the same cell wins and a {@code deleteRow} hides the row's cells added before it.
 *
 * <p>Arguments are checked exactly as {@code Db} checks them: a null argument is a {@link
 * NullPointerException} naming it; an empty row, or a row, column or value over {@link
 * Db#MAX_ROW_LENGTH}, {@link Db#MAX_COLUMN_LENGTH} or {@link Db#MAX_VALUE_LENGTH}, is an {@link
 * IllegalArgumentException} naming the limit, and so is a batch that would grow past {@link
 * Limits#MAX_BATCH_BYTES}. A rejected call leaves the batch as it was. The batch copies the arrays
 * it is given, so the caller may reuse them at once.
 *
 * <p>Not thread-safe.
 */
public final class WriteBatch {

  /** The operations in the order they were added. */
  private final List<Mutation> mutations = new ArrayList<>();

  /** The encoded size of {@link #mutations} in a log record. */
  private long approximateBytes;

  /** An empty batch. */
  public WriteBatch() {}

  /** Adds a put of {@code value} into the cell (row, column). */
  public WriteBatch put(byte[] row, byte[] column, byte[] value) {
    Limits.checkPut(row, column, value);
    return add(Mutation.put(row.clone(), copy(column), copy(value)));
  }

  /** Adds a delete of the cell (row, column). */
  public WriteBatch delete(byte[] row, byte[] column) {
    Limits.checkCell(row, column);
    return add(Mutation.delete(row.clone(), copy(column)));
  }

  /** Adds a delete of every cell of {@code row} written before it. */
  public WriteBatch deleteRow(byte[] row) {
    Limits.checkRow(row);
    return add(Mutation.deleteRow(row.clone()));
  }

  /** The number of operations added. */
  public int size() {
    return mutations.size();
  }

  /** True when no operation was added. */
  public boolean isEmpty() {
    return mutations.isEmpty();
  }

  /**
   * The bytes the operations take in the log record: the batch's size as the write path accounts
   * for it (the memtable charges its own per-entry overhead on top).
   */
  public long approximateBytes() {
    return approximateBytes;
  }

  /** Removes every operation, so the batch can be reused. */
  public WriteBatch clear() {
    mutations.clear();
    approximateBytes = 0;
    return this;
  }

  /** The operations in order, for the engine; an unmodifiable view. */
  List<Mutation> mutations() {
    return Collections.unmodifiableList(mutations);
  }

  @Override
  public String toString() {
    return "WriteBatch[" + mutations.size() + " ops, " + approximateBytes + " bytes]";
  }

  private WriteBatch add(Mutation m) {
    long bytes = LogFormat.encodedSize(m);
    Limits.checkBatchGrowth(approximateBytes, bytes);
    mutations.add(m);
    approximateBytes += bytes;
    return this;
  }

  private static byte[] copy(byte[] bytes) {
    return bytes.length == 0 ? Mutation.EMPTY : bytes.clone();
  }
}
