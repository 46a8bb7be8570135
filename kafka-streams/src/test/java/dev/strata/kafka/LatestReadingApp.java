package dev.strata.kafka;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * A Kafka Streams application that keeps, per key of topic {@link #TOPIC}, the largest reading seen
 * (a reduce into the Strata store {@link #STORE}), with {@link BrokerCluster#streamsConfig}.
 * Replaying readings changes nothing (the largest stays the largest), so after a crash its state
 * must equal the largest reading of each key exactly, however much it processed twice. It sleeps a
 * millisecond every {@link #SLEEP_EVERY} readings, so that a test can kill it half way.
 *
 * <p>Run as a main (a child JVM that {@code KilledInstanceBrokerTest} kills with SIGKILL):
 * {@code LatestReadingApp <bootstrap servers> <state dir>}; it runs until killed.
 *
 * <p>Not thread-safe: each instance is one application.
 */
final class LatestReadingApp {
  static final String APPLICATION_ID = "strata-latest";
  static final String TOPIC = "readings";
  static final String STORE = "latest";
  static final String CHANGELOG = APPLICATION_ID + "-" + STORE + "-changelog";
  static final int SLEEP_EVERY = 10;

  private LatestReadingApp() {}

  public static void main(String[] args) throws InterruptedException {
    KafkaStreams streams = start(args[0], Path.of(args[1]), null);
    System.out.println("started");
    Thread.sleep(Long.MAX_VALUE);
    streams.close();
  }

  /**
   * Starts the application on {@code bootstrap} with its state under {@code stateDir}, telling
   * {@code restores} (when not null) of every restore.
   */
  static KafkaStreams start(String bootstrap, Path stateDir, StateRestoreListener restores) {
    StreamsBuilder b = new StreamsBuilder();
    b.stream(TOPIC, Consumed.with(Serdes.String(), Serdes.Long()))
        .peek((key, reading) -> pace(reading))
        .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
        .reduce(Math::max, Materialized.<String, Long>as(
                StrataStores.keyValueStore(STORE, Stores.SMALL))
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
    Properties p = BrokerCluster.streamsConfig(APPLICATION_ID, bootstrap, stateDir);
    KafkaStreams streams = new KafkaStreams(b.build(), p);
    if (restores != null) {
      streams.setGlobalStateRestoreListener(restores);
    }
    streams.start();
    return streams;
  }

  private static void pace(long reading) {
    if (reading % SLEEP_EVERY == 0) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
