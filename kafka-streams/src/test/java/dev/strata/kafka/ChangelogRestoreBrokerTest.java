package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Streams instance on an in-process broker counts events into a Strata store and is stopped for
 * good with its state directory gone (a lost machine); a new instance on an empty state directory
 * must restore the store from its changelog topic with nothing lost, then go on counting.
 */
class ChangelogRestoreBrokerTest {
  private static final long WAIT_MS = 90_000;

  @TempDir Path dir;

  @Test
  void aNewInstanceRestoresTheStoreFromItsChangelog() throws Exception {
    try (KafkaClusterTestKit cluster = BrokerCluster.start(dir.resolve("kafka"), "events", 2)) {
      Map<String, Long> expected = new TreeMap<>();
      produce(cluster.bootstrapServers(), 0, 3000, expected);

      KafkaStreams first = start(cluster.bootstrapServers(), dir.resolve("state-a"));
      try {
        awaitStore(first, "counts", expected);
      } finally {
        first.close(Duration.ofSeconds(30));
        first.cleanUp(); // the machine and its disk are gone
      }

      KafkaStreams second = start(cluster.bootstrapServers(), dir.resolve("state-b"));
      try {
        awaitStore(second, "counts", expected);
        produce(cluster.bootstrapServers(), 3000, 1000, expected);
        awaitStore(second, "counts", expected);
      } finally {
        second.close(Duration.ofSeconds(30));
      }
    }
  }

  /**
   * Produces events {@code from} to {@code from + n - 1} to topic {@code events}, over 401 keys,
   * counting them into {@code expected}.
   */
  static void produce(String bootstrap, int from, int n, Map<String, Long> expected) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, String> producer =
             new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (int i = from; i < from + n; i++) {
        String key = "key-" + (i * 7919 % 401);
        producer.send(new ProducerRecord<>("events", key, "e" + i));
        expected.merge(key, 1L, Long::sum);
      }
      producer.flush();
    }
  }

  private static KafkaStreams start(String bootstrap, Path stateDir) {
    StreamsBuilder b = new StreamsBuilder();
    b.stream("events", Consumed.with(Serdes.String(), Serdes.String()))
        .groupByKey()
        .count(Materialized.<String, Long>as(StrataStores.keyValueStore("counts", Stores.SMALL))
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
    Properties p = BrokerCluster.streamsConfig("strata-restore", bootstrap, stateDir);
    KafkaStreams streams = new KafkaStreams(b.build(), p);
    streams.start();
    return streams;
  }

  /** Waits until the store {@code name} holds exactly {@code expected}; fails with the last seen. */
  static void awaitStore(KafkaStreams streams, String name, Map<String, Long> expected)
      throws InterruptedException {
    awaitStore(streams, name, expected, false);
  }

  /**
   * As above, reading a standby task's store when {@code stale} (Kafka Streams' stale stores),
   * else an active task's.
   */
  static void awaitStore(KafkaStreams streams, String name, Map<String, Long> expected,
      boolean stale) throws InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MS;
    Map<String, Long> seen = Map.of();
    while (System.currentTimeMillis() < deadline) {
      try {
        StoreQueryParameters<ReadOnlyKeyValueStore<String, Long>> query = StoreQueryParameters
            .fromNameAndType(name, QueryableStoreTypes.keyValueStore());
        ReadOnlyKeyValueStore<String, Long> store =
            streams.store(stale ? query.enableStaleStores() : query);
        Map<String, Long> now = new TreeMap<>();
        try (KeyValueIterator<String, Long> it = store.all()) {
          it.forEachRemaining((KeyValue<String, Long> kv) -> now.put(kv.key, kv.value));
        }
        seen = now;
        if (now.equals(expected)) {
          return;
        }
      } catch (RuntimeException notReadyYet) {
        // rebalancing or restoring: the store is not queryable yet
      }
      Thread.sleep(200);
    }
    assertEquals(expected, seen, name + " after " + WAIT_MS + " ms");
  }
}
