package dev.strata.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;

/**
 * A child JVM that restores a store from an endless changelog until it is killed: record {@code i}
 * has the key {@link #key key(i % KEYS)} and the value {@code i} (8 bytes), in batches of {@link
 * #BATCH} through the restore callback the store registers, as Kafka Streams' changelog reader
 * would. After each batch returns it prints the offset of the batch's last record: that batch is
 * acknowledged. Arguments: the state directory; optionally a number of batches, after which the
 * child ends the restore with a write from processing ({@link #PROCESSED}), or with the third
 * argument {@code flush} calls the store's {@code flush()} instead, prints {@code processed} once
 * that returned and waits to be killed.
 *
 * <p>Not thread-safe: a process's main.
 */
final class RestoringChild {
  static final String STORE = "restoring";
  static final String CHANGELOG = "restore-test-changelog";
  static final int KEYS = 20_000;
  static final int BATCH = 1_000;
  /** The key the optional write from processing puts, outside the changelog's keys. */
  static final byte[] PROCESSED = "processed".getBytes(StandardCharsets.UTF_8);

  private RestoringChild() {}

  static byte[] key(long i) {
    return ("key-" + (i % KEYS)).getBytes(StandardCharsets.UTF_8);
  }

  /** Changelog record {@code i}. */
  static ConsumerRecord<byte[], byte[]> record(long i) {
    return new ConsumerRecord<>(CHANGELOG, 0, i, key(i),
        ByteBuffer.allocate(Long.BYTES).putLong(i).array());
  }

  @SuppressWarnings("deprecation") // StateStore.flush: an application may still call it
  public static void main(String[] args) throws InterruptedException {
    Stores.Restoring r =
        Stores.openRestoring(Path.of(args[0]), STORE, StreamsConfig.AT_LEAST_ONCE);
    long batches = args.length > 1 ? Long.parseLong(args[1]) : Long.MAX_VALUE;
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(BATCH);
    for (long i = 0; i / BATCH < batches; i++) {
      records.add(record(i));
      if (records.size() == BATCH) {
        r.restore().restoreBatch(records);
        records.clear();
        System.out.println(i);
        System.out.flush();
      }
    }
    if (args.length > 2 && args[2].equals("flush")) {
      r.store().flush();
    } else {
      r.store().put(Bytes.wrap(PROCESSED), new byte[] {1});
    }
    System.out.println("processed");
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
