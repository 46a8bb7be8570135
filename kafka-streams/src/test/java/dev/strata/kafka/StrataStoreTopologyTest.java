package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka Streams DSL topologies on Strata stores, driven by {@link TopologyTestDriver}. */
class StrataStoreTopologyTest {
  @TempDir Path dir;

  private Properties config() {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "strata-topology");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9");
    p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
    return p;
  }

  /** Word count: lines in, one count per word out, counts kept in a Strata store. */
  private static Topology wordCount() {
    StreamsBuilder b = new StreamsBuilder();
    b.stream("lines", Consumed.with(Serdes.String(), Serdes.String()))
        .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+")))
        .groupBy((k, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
        .count(Materialized.<String, Long>as(StrataStores.keyValueStore("word-counts"))
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()))
        .toStream().to("counts", Produced.with(Serdes.String(), Serdes.Long()));
    return b.build();
  }

  @Test
  void wordCountKeepsItsCountsInStrata() throws java.io.IOException {
    try (TopologyTestDriver driver = new TopologyTestDriver(wordCount(), config())) {
      TestInputTopic<String, String> in = driver.createInputTopic("lines",
          new StringSerializer(), new StringSerializer());
      TestOutputTopic<String, Long> out = driver.createOutputTopic("counts",
          new StringDeserializer(), Serdes.Long().deserializer());
      in.pipeInput("the quick brown fox");
      in.pipeInput("the lazy dog and the fox");
      Map<String, Long> last = out.readKeyValuesToMap();
      assertEquals(Map.of("the", 3L, "quick", 1L, "brown", 1L, "fox", 2L, "lazy", 1L,
          "dog", 1L, "and", 1L), last);
      KeyValueStore<String, Long> counts = driver.getKeyValueStore("word-counts");
      assertEquals(3L, counts.get("the"));
      assertEquals(null, counts.get("cat"));
      try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
        assertTrue(files.anyMatch(f -> f.endsWith(Path.of("strata", "word-counts"))
            && Files.isDirectory(f)), "the store lives under the task's directory");
      }
    }
  }

  /** Sums per "region:store" key, read back by range and by prefix. */
  private static Topology salesByStore() {
    StreamsBuilder b = new StreamsBuilder();
    b.stream("sales", Consumed.with(Serdes.String(), Serdes.Long()))
        .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
        .reduce(Long::sum, Materialized.<String, Long>as(StrataStores.keyValueStore("sales"))
            .withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
    return b.build();
  }

  @Test
  void anAggregationReadsBackThroughRangeAndPrefix() {
    try (TopologyTestDriver driver = new TopologyTestDriver(salesByStore(), config())) {
      TestInputTopic<String, Long> in = driver.createInputTopic("sales",
          new StringSerializer(), Serdes.Long().serializer());
      Map<String, Long> expected = new TreeMap<>();
      for (int i = 0; i < 300; i++) {
        String key = (i % 3 == 0 ? "east" : i % 3 == 1 ? "north" : "west") + ":" + (i % 17);
        in.pipeInput(key, (long) i);
        expected.merge(key, (long) i, Long::sum);
      }
      KeyValueStore<String, ValueAndTimestamp<Long>> sales =
          driver.getTimestampedKeyValueStore("sales");
      assertEquals(expected, drain(sales.all()));
      Map<String, Long> north = new TreeMap<>(expected);
      north.keySet().removeIf(k -> !k.startsWith("north:"));
      assertEquals(north, drain(sales.prefixScan("north:", new StringSerializer())));
      Map<String, Long> range = new TreeMap<>(expected.entrySet().stream()
          .filter(e -> e.getKey().compareTo("east:5") >= 0 && e.getKey().compareTo("north:3") <= 0)
          .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
      assertEquals(range, drain(sales.range("east:5", "north:3")));
      List<String> reversed = new ArrayList<>();
      try (KeyValueIterator<String, ValueAndTimestamp<Long>> it =
               sales.reverseRange("east:5", "north:3")) {
        it.forEachRemaining(kv -> reversed.add(kv.key));
      }
      List<String> forward = new ArrayList<>(range.keySet());
      java.util.Collections.reverse(forward);
      assertEquals(forward, reversed);
      long estimate = sales.approximateNumEntries(); // an estimate: every key at least once
      assertTrue(estimate >= expected.size(), estimate + " < " + expected.size());
    }
  }

  private static Map<String, Long> drain(
      KeyValueIterator<String, ValueAndTimestamp<Long>> iterator) {
    Map<String, Long> m = new TreeMap<>();
    try (KeyValueIterator<String, ValueAndTimestamp<Long>> it = iterator) {
      it.forEachRemaining((KeyValue<String, ValueAndTimestamp<Long>> kv) ->
          m.put(kv.key, kv.value.value()));
    }
    return m;
  }
}
