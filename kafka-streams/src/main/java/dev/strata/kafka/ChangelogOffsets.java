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
 * class fills, in the store's own {@link Db} under {@link StoreKeys#OFFSETS_ROW}: column {@code
 * partition:i32 topic:UTF-8}, value {@code offset:i64}, big-endian.
 *
 * <p>Not thread-safe: the stream thread that owns the store changes it.
 */
final class ChangelogOffsets {
  /**
   * Records an offset may advance before a commit writes it (Kafka's own checkpoint file waits for
   * the same): a commit per record, as the test driver makes, then costs no log write each.
   */
  static final long WRITE_THRESHOLD = 10_000;

  private final Map<TopicPartition, Long> offsets = new HashMap<>();
  /** The offsets as last written to the database. */
  private final Map<TopicPartition, Long> written = new HashMap<>();

  /** The offsets stored in {@code db}. */
  static ChangelogOffsets read(Db db) throws IOException {
    ChangelogOffsets o = new ChangelogOffsets();
    for (Map.Entry<byte[], byte[]> e : db.getRow(StoreKeys.OFFSETS_ROW).entrySet()) {
      ByteBuffer column = ByteBuffer.wrap(e.getKey());
      int partition = column.getInt();
      String topic = StandardCharsets.UTF_8.decode(column).toString();
      o.offsets.put(new TopicPartition(topic, partition), ByteBuffer.wrap(e.getValue()).getLong());
    }
    o.written.putAll(o.offsets);
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
      batch.put(StoreKeys.OFFSETS_ROW, column(partition),
          ByteBuffer.allocate(Long.BYTES).putLong(offset).array());
      written.put(partition, offset);
    }
  }

  /** Writes every offset held in memory into {@code batch}, replacing what the database has. */
  void writeAll(WriteBatch batch) {
    batch.deleteRow(StoreKeys.OFFSETS_ROW);
    written.clear();
    Map<TopicPartition, Long> copy = Map.copyOf(offsets);
    copy.forEach((tp, offset) -> set(tp, offset, batch));
  }

  private static byte[] column(TopicPartition tp) {
    byte[] topic = tp.topic().getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(Integer.BYTES + topic.length).putInt(tp.partition()).put(topic)
        .array();
  }
}
