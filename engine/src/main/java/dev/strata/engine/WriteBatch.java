package dev.strata.engine;

import dev.strata.engine.log.LogFormat;
import dev.strata.engine.write.Limits;
import dev.strata.engine.write.MarkerCodec;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.engine.write.Mutation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A group of puts and deletes that {@link Db#write(WriteBatch)} applies all or nothing, also across
 * a crash: the batch is one log record. Operations apply in the order they were added, so a later
 * put of the same cell wins and a {@code deleteRow} hides the row's cells added before it.
 *
 * <p><b>Commit markers.</b> A batch may also set or remove named <i>commit markers</i>: small values
 * kept outside the key space ({@link Db#commitMarkers()}, {@link Db#commitMarker}) and applied
 * atomically with the batch's data, as MyRocks keeps its replication position with the data it
 * covers, or a Kafka Streams store its changelog offsets. After any crash or power loss a marker is
 * never ahead of the data written with it, and a batch's markers survive whenever its data does.
 * They take no key, so they never widen a memtable's or a table's key range, and no read or scan
 * sees them. Names are 1 to {@link Limits#MAX_COMMIT_MARKER_NAME_LENGTH} bytes, values 0 to {@link
 * Limits#MAX_COMMIT_MARKER_VALUE_LENGTH}; a batch sets or removes at most {@link
 * Limits#MAX_COMMIT_MARKERS_PER_BATCH} of them, and a database holds at most {@link
 * Limits#MAX_COMMIT_MARKERS} (a write that would pass it fails with IllegalArgumentException and
 * writes nothing). A later update of the same name in a batch wins.
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

  /** The commit marker updates in the order they were added. */
  private final List<MarkerUpdate> markers = new ArrayList<>();

  /** The encoded size of {@link #mutations} and {@link #markers} in a log record. */
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

  /**
   * Adds setting the commit marker {@code name} to {@code value}, applied with the batch's data.
   *
   * @throws IllegalArgumentException when the name is empty or too long, the value too long, or
   *     the batch holds {@link Limits#MAX_COMMIT_MARKERS_PER_BATCH} marker updates already
   */
  public WriteBatch putCommitMarker(byte[] name, byte[] value) {
    Limits.checkCommitMarker(name, value, false);
    return addMarker(new MarkerUpdate(name.clone(), copy(value)));
  }

  /** Adds removing the commit marker {@code name} (nothing when there is none), with the data. */
  public WriteBatch deleteCommitMarker(byte[] name) {
    Limits.checkCommitMarker(name, null, true);
    return addMarker(MarkerUpdate.remove(name.clone()));
  }

  /** The number of puts and deletes added (commit marker updates not counted). */
  public int size() {
    return mutations.size();
  }

  /** The number of commit marker updates added. */
  public int commitMarkerCount() {
    return markers.size();
  }

  /** True when no operation and no commit marker update was added. */
  public boolean isEmpty() {
    return mutations.isEmpty() && markers.isEmpty();
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
    markers.clear();
    approximateBytes = 0;
    return this;
  }

  /** The operations in order, for the engine; an unmodifiable view. */
  List<Mutation> mutations() {
    return Collections.unmodifiableList(mutations);
  }

  /** The commit marker updates in order, for the engine; an unmodifiable view. */
  List<MarkerUpdate> markerUpdates() {
    return Collections.unmodifiableList(markers);
  }

  @Override
  public String toString() {
    return "WriteBatch[" + mutations.size() + " ops, " + markers.size() + " commit markers, "
        + approximateBytes + " bytes]";
  }

  private WriteBatch addMarker(MarkerUpdate u) {
    Limits.checkMarkerCount(markers.size());
    long bytes = MarkerCodec.size(u) + (markers.isEmpty() ? 2 : 0); // the section's count
    Limits.checkBatchGrowth(approximateBytes, bytes);
    markers.add(u);
    approximateBytes += bytes;
    return this;
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
