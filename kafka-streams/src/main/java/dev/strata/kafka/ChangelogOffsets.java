package dev.strata.kafka;

import dev.strata.engine.Db;
import dev.strata.engine.WriteBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The changelog offsets a store has applied, one per changelog partition: the offset of the last
 * changelog record whose write the store holds. Kept in memory and, through the write batches this
 * class fills, as commit markers of the store's own {@link Db} (outside its key space, applied
 * atomically with the batch's data): name {@code 'c' partition:i32 topic:UTF-8}, value {@code
 * offset:i64}, big-endian. Kafka's topic names are at most 249 ASCII characters, so a name fits
 * the engine's 255 bytes.
 *
 * <p>Stores written before the markers kept the offsets in the row {@link StoreKeys#OFFSETS_ROW}
 * (column {@code partition:i32 topic:UTF-8}); {@link #open} reads that row once and deletes it in
 * the batch that writes the same offsets as markers ({@link #read} only reads either).
 *
 * <p>Not thread-safe: the stream thread that owns the store changes it.
 */
final class ChangelogOffsets {
  /**
   * Records an offset may advance before a commit writes it (Kafka's own checkpoint file waits for
   * the same): a commit per record, as the test driver makes, then costs no log write each.
   */
  static final long WRITE_THRESHOLD = 10_000;

  /** The first byte of every offset marker's name. */
  private static final byte MARKER_PREFIX = 'c';

  private final Map<TopicPartition, Long> offsets = new HashMap<>();
  /** The offsets as last written to the database. */
  private final Map<TopicPartition, Long> written = new HashMap<>();

  /** Whether the offsets were read from the old layout's row, which {@link #open} replaces. */
  private boolean fromLegacyRow;

  /**
   * The offsets stored in {@code db}, as markers or (a store of the old layout) in its row of
   * offsets; writes nothing, so a read-only database serves too.
   */
  static ChangelogOffsets read(Db db) throws IOException {
    ChangelogOffsets o = new ChangelogOffsets();
    for (Map.Entry<byte[], byte[]> e : db.commitMarkers().entrySet()) {
      byte[] name = e.getKey();
      if (name.length > 1 && name[0] == MARKER_PREFIX) {
        o.offsets.put(partition(ByteBuffer.wrap(name, 1, name.length - 1)), offset(e.getValue()));
      }
    }
    o.written.putAll(o.offsets);
    for (Map.Entry<byte[], byte[]> e : db.getRow(StoreKeys.OFFSETS_ROW).entrySet()) {
      o.offsets.put(partition(ByteBuffer.wrap(e.getKey())), offset(e.getValue()));
      o.fromLegacyRow = true;
    }
    return o;
  }

  /**
   * The offsets stored in {@code db}; a store of the old layout has its row of offsets replaced by
   * markers first, in one write batch (so a crash leaves either layout, whole).
   */
  static ChangelogOffsets open(Db db) throws IOException {
    ChangelogOffsets o = read(db);
    if (o.fromLegacyRow) {
      WriteBatch batch = new WriteBatch().deleteRow(StoreKeys.OFFSETS_ROW);
      o.writeAll(batch);
      db.write(batch);
      o.fromLegacyRow = false;
    }
    return o;
  }

  /** The offset of {@code partition}, or null when none is known. */
  Long get(TopicPartition partition) {
    return offsets.get(partition);
  }

  boolean isEmpty() {
    return offsets.isEmpty();
  }

  /**
   * Applies Kafka Streams' commit semantics in memory (an empty map forgets every offset, a null
   * offset forgets its partition, any other sets it) and, when {@code batch} is not null and the
   * offsets differ from those last written in more than {@link #WRITE_THRESHOLD} records of a
   * partition, in the partitions they name, or in a partition's offset becoming known, adds them
   * all to {@code batch}.
   */
  void apply(Map<TopicPartition, Long> changes, WriteBatch batch) {
    if (changes.isEmpty()) {
      offsets.clear();
    }
    for (Map.Entry<TopicPartition, Long> e : changes.entrySet()) {
      if (e.getValue() == null) {
        offsets.remove(e.getKey());
      } else {
        offsets.put(e.getKey(), e.getValue());
      }
    }
    if (batch != null && writeNeeded()) {
      writeAll(batch);
    }
  }

  private boolean writeNeeded() {
    if (!offsets.keySet().equals(written.keySet())) {
      return true;
    }
    for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
      long now = e.getValue();
      long was = written.get(e.getKey());
      // A negative offset is Kafka's "unknown" (-4, a changelog not yet written to): the first
      // known one is written at once, or a crash before 10,000 records would restore them all.
      if ((now < 0) != (was < 0) || Math.abs(now - was) >= WRITE_THRESHOLD) {
        return true;
      }
    }
    return false;
  }

  /** Sets the offset of {@code partition} in memory and, when not null, in {@code batch}. */
  void set(TopicPartition partition, long offset, WriteBatch batch) {
    offsets.put(partition, offset);
    if (batch != null) {
      batch.putCommitMarker(
          markerName(partition), ByteBuffer.allocate(Long.BYTES).putLong(offset).array());
      written.put(partition, offset);
    }
  }

  /** Writes every offset held in memory into {@code batch}, replacing what the database has. */
  void writeAll(WriteBatch batch) {
    for (TopicPartition gone : written.keySet()) {
      if (!offsets.containsKey(gone)) {
        batch.deleteCommitMarker(markerName(gone));
      }
    }
    written.clear();
    Map<TopicPartition, Long> copy = Map.copyOf(offsets);
    copy.forEach((tp, offset) -> set(tp, offset, batch));
  }

  /**
   * Removes every offset written to the database through {@code batch}, keeping them in memory:
   * under exactly-once the database holds none between an open and a clean close.
   */
  void removeWritten(WriteBatch batch) {
    written.keySet().forEach(tp -> batch.deleteCommitMarker(markerName(tp)));
    written.clear();
  }

  private static byte[] markerName(TopicPartition tp) {
    byte[] topic = tp.topic().getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(1 + Integer.BYTES + topic.length)
        .put(MARKER_PREFIX).putInt(tp.partition()).put(topic).array();
  }

  /** The partition encoded as {@code partition:i32 topic:UTF-8} in {@code b}. */
  private static TopicPartition partition(ByteBuffer b) {
    int partition = b.getInt();
    return new TopicPartition(StandardCharsets.UTF_8.decode(b).toString(), partition);
  }

  private static long offset(byte[] value) {
    return ByteBuffer.wrap(value).getLong();
  }
}
