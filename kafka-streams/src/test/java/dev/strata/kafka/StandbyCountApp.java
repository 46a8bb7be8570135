package dev.strata.kafka;

import dev.strata.engine.DbOptions;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

/**
 * A Kafka Streams application that counts the events of topic {@link #TOPIC} per key into the
 * Strata store {@link #STORE}, exactly-once (v2, so a commit every 100 ms) with one standby replica
 * of each task, on {@link BrokerCluster#streamsConfig}'s settings otherwise.
 *
 * <p>Run as a main (the active instance that {@code StandbyBrokerTest} kills with SIGKILL): {@code
 * StandbyCountApp <bootstrap servers> <state dir>}; it runs until killed.
 *
 * <p>Not thread-safe: each instance is one application.
 */
final class StandbyCountApp {
  static final String APPLICATION_ID = "strata-standby";
  static final String TOPIC = "events";
  static final String STORE = "counts";
  /**
   * Memtables large enough that the test's changelog never fills one: every table a store holds
   * then comes from a flush that something other than a full memtable asked for.
   */
  static final DbOptions OPTIONS =
      DbOptions.builder().memtableBytes(8 << 20).blockCacheBytes(256 << 10).build();

  private StandbyCountApp() {}

  public static void main(String[] args) throws InterruptedException {
    start(args[0], Path.of(args[1]), StrataStores.keyValueStore(STORE, OPTIONS));
    System.out.println("started");
    Thread.sleep(Long.MAX_VALUE);
  }

  /** Starts the application on {@code bootstrap} with its state under {@code stateDir}. */
  static KafkaStreams start(String bootstrap, Path stateDir, KeyValueBytesStoreSupplier store) {
    StreamsBuilder b = new StreamsBuilder();
    b.stream(TOPIC, Consumed.with(Serdes.String(), Serdes.String()))
        .groupByKey()
        .count(Materialized.<String, Long>as(store)
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
    Properties p = BrokerCluster.streamsConfig(APPLICATION_ID, bootstrap, stateDir);
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100); // exactly-once's default, said outright
    p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
    // Only an instance holding the whole store counts as caught up: the active task stays where
    // it runs when another instance joins, and the newcomer gets the standby.
    p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, 0L);
    // A killed instance's open transaction blocks its partitions' readers until it times out.
    p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), 3_000);
    KafkaStreams streams = new KafkaStreams(b.build(), p);
    streams.start();
    return streams;
  }
}
