package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Streams instance in a child JVM, at-least-once on an in-process broker, is killed with SIGKILL
 * part way through its input ({@link LatestReadingApp}). Its Strata stores, opened as it left them,
 * must hold every changelog record up to the offset they record (the offsets never run ahead of the
 * data); a new instance on the same state directory must restore only from those offsets on, and end
 * with exactly the largest reading of every key: nothing acknowledged lost.
 */
class KilledInstanceBrokerTest {
  private static final int PARTITIONS = 2;
  private static final int READINGS = 20_000;

  @TempDir Path dir;

  @Test
  void anInstanceKilledMidStream_resumesFromItsOwnStores_withNothingLost() throws Exception {
    try (KafkaClusterTestKit cluster =
             BrokerCluster.start(dir.resolve("kafka"), LatestReadingApp.TOPIC, PARTITIONS)) {
      String bootstrap = cluster.bootstrapServers();
      Map<String, Long> expected = produce(bootstrap);
      Path state = dir.resolve("state");
      Path output = dir.resolve("child.log");
      Process child = new ProcessBuilder(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
          "-cp", System.getProperty("java.class.path"), LatestReadingApp.class.getName(),
          bootstrap, state.toString())
          .redirectErrorStream(true).redirectOutput(output.toFile()).start();
      long committed;
      try {
        committed = awaitCommitted(cluster, READINGS / PARTITIONS / 5, child, output);
      } finally {
        child.destroyForcibly(); // SIGKILL: no close, no flush, no last commit
        child.waitFor(30, TimeUnit.SECONDS);
      }
      assertEquals(128 + 9, child.exitValue(), "the child died of SIGKILL");
      assertTrue(committed < READINGS, "killed after the last commit: " + committed);

      Map<Integer, Long> offsets = new HashMap<>();
      for (int p = 0; p < PARTITIONS; p++) {
        offsets.put(p, checkNoOffsetAheadOfData(bootstrap, state, p));
      }

      Map<Integer, Long> restoreStarts = new ConcurrentHashMap<>();
      KafkaStreams next = LatestReadingApp.start(bootstrap, state, new StateRestoreListener() {
        @Override
        public void onRestoreStart(TopicPartition tp, String store, long start, long end) {
          restoreStarts.put(tp.partition(), start);
        }

        @Override
        public void onBatchRestored(TopicPartition tp, String store, long end, long n) {}

        @Override
        public void onRestoreEnd(TopicPartition tp, String store, long restored) {}
      });
      try {
        ChangelogRestoreBrokerTest.awaitStore(next, LatestReadingApp.STORE, expected);
      } finally {
        next.close(Duration.ofSeconds(30));
      }
      assertFalse(restoreStarts.isEmpty(), "nothing restored: the stores were up to date");
      restoreStarts.forEach((p, start) -> assertEquals(offsets.get(p) + 1, start,
          "partition " + p + " restored from its store's own offset on"));
    }
  }

  /** Produces the readings: each key's are spread over the run; returns each key's largest. */
  private static Map<String, Long> produce(String bootstrap) {
    Map<String, Long> largest = new TreeMap<>();
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, Long> producer =
             new KafkaProducer<>(p, new StringSerializer(), new LongSerializer())) {
      for (long i = 0; i < READINGS; i++) {
        String key = "sensor-" + (i * 7919 % 600);
        producer.send(new ProducerRecord<>(LatestReadingApp.TOPIC, key, i));
        largest.merge(key, i, Math::max);
      }
      producer.flush();
    }
    return largest;
  }

  /**
   * Waits until the group committed at least {@code atLeast} readings of every partition (so
   * that each store has applied some); returns how many of all partitions.
   */
  private static long awaitCommitted(KafkaClusterTestKit cluster, long atLeast, Process child,
      Path output) throws Exception {
    long deadline = System.currentTimeMillis() + 90_000;
    try (Admin admin = cluster.admin()) {
      while (System.currentTimeMillis() < deadline) {
        assertTrue(child.isAlive(), () -> "the child died: " + read(output));
        long committed = 0;
        int partitionsPast = 0;
        Map<TopicPartition, OffsetAndMetadata> offsets = admin
            .listConsumerGroupOffsets(LatestReadingApp.APPLICATION_ID)
            .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
          if (e.getKey().topic().equals(LatestReadingApp.TOPIC) && e.getValue() != null) {
            committed += e.getValue().offset();
            partitionsPast += e.getValue().offset() >= atLeast ? 1 : 0;
          }
        }
        if (partitionsPast == PARTITIONS) {
          return committed;
        }
        Thread.sleep(20);
      }
    }
    throw new AssertionError("the child committed too little in 90 s: " + read(output));
  }

  /**
   * Opens partition {@code p}'s store as the killed instance left it (read-only) and checks that
   * every key holds at least the value of its last changelog record up to the offset the store
   * records; returns that offset.
   */
  private static long checkNoOffsetAheadOfData(String bootstrap, Path state, int p)
      throws Exception {
    Path storeDir = state.resolve(LatestReadingApp.APPLICATION_ID).resolve("0_" + p)
        .resolve("strata").resolve(LatestReadingApp.STORE);
    TopicPartition changelog = new TopicPartition(LatestReadingApp.CHANGELOG, p);
    try (Db db = Db.open(storeDir, DbOptions.builder().readOnly(true).build())) {
      Long offset = ChangelogOffsets.read(db).get(changelog);
      assertNotNull(offset, "the store of partition " + p + " recorded no offset");
      assertTrue(offset >= 0, "the store of partition " + p + " recorded offset " + offset);
      Map<String, Long> covered = new HashMap<>();
      for (ConsumerRecord<byte[], byte[]> r : changelogUpTo(bootstrap, changelog, offset)) {
        covered.put(new String(r.key(), StandardCharsets.UTF_8), lastLong(r.value()));
      }
      for (Map.Entry<String, Long> e : covered.entrySet()) {
        byte[] v = db.get(StoreKeys.row(e.getKey().getBytes(StandardCharsets.UTF_8)),
            StoreKeys.COLUMN);
        assertNotNull(v, e.getKey() + " is in the changelog up to " + offset + " but not stored");
        assertTrue(lastLong(v) >= e.getValue(), e.getKey() + ": stored " + lastLong(v)
            + ", the changelog up to offset " + offset + " has " + e.getValue());
      }
      return offset;
    }
  }

  /** The records of {@code tp} at offsets up to {@code last}, inclusive. */
  private static List<ConsumerRecord<byte[], byte[]>> changelogUpTo(String bootstrap,
      TopicPartition tp, long last) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
             new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.assign(List.of(tp));
      consumer.seekToBeginning(List.of(tp));
      long deadline = System.currentTimeMillis() + 30_000;
      while (consumer.position(tp) <= last) {
        assertTrue(System.currentTimeMillis() < deadline, "changelog " + tp + " ends before " + last);
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.offset() <= last) {
            records.add(r);
          }
        }
      }
    }
    return records;
  }

  /** The reading in a value: its last eight bytes (a plain or a timestamped Long). */
  private static long lastLong(byte[] value) {
    return ByteBuffer.wrap(value, value.length - Long.BYTES, Long.BYTES).getLong();
  }

  private static String read(Path output) {
    try {
      return Files.readString(output);
    } catch (java.io.IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
