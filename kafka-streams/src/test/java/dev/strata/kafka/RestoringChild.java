package dev.strata.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;

/**
 * A child JVM that restores a store from an endless changelog until it is killed: record {@code i}
 * has the key {@link #key key(i % KEYS)} and the value {@code i} (8 bytes), in batches of {@link
 * #BATCH} through the restore callback the store registers, as Kafka Streams' changelog reader
 * would. After each batch returns it prints the offset of the batch's last record: that batch is
 * acknowledged. Arguments: the state directory.
 *
 * <p>Not thread-safe: a process's main.
 */
final class RestoringChild {
  static final String STORE = "restoring";
  static final String CHANGELOG = "restore-test-changelog";
  static final int KEYS = 20_000;
  static final int BATCH = 1_000;

  private RestoringChild() {}

  static byte[] key(long i) {
    return ("key-" + (i % KEYS)).getBytes(StandardCharsets.UTF_8);
  }

  /** Changelog record {@code i}. */
  static ConsumerRecord<byte[], byte[]> record(long i) {
    return new ConsumerRecord<>(CHANGELOG, 0, i, key(i),
        ByteBuffer.allocate(Long.BYTES).putLong(i).array());
  }

  public static void main(String[] args) {
    RecordBatchingStateRestoreCallback restore =
        Stores.openRestoring(Path.of(args[0]), STORE, StreamsConfig.AT_LEAST_ONCE).restore();
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(BATCH);
    for (long i = 0; ; i++) {
      records.add(record(i));
      if (records.size() == BATCH) {
        restore.restoreBatch(records);
        records.clear();
        System.out.println(i);
        System.out.flush();
      }
    }
  }
}
