package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.DbOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's contract case by case: reopen, offsets, queries, errors. */
class StrataKeyValueStoreTest {
  private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);

  @TempDir Path dir;

  private static Bytes b(String s) {
    return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] v(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theSupplierNamesItsStores() {
    KeyValueBytesStoreSupplier s = StrataStores.keyValueStore("counts", DbOptions.defaults());
    assertEquals("counts", s.name());
    assertEquals("strata", s.metricsScope());
    KeyValueStore<Bytes, byte[]> store = s.get();
    assertEquals("counts", store.name());
    assertTrue(store.persistent());
    assertFalse(store.isOpen());
    assertThrows(NullPointerException.class, () -> StrataStores.keyValueStore(null));
  }

  @Test
  void aRestoredBatch_ofInterleavedPartitions_recordsEachPartitionsLastOffset() {
    TopicPartition other = new TopicPartition("app-store-changelog", 1);
    Stores.Restoring r = Stores.openRestoring(dir, "s", StreamsConfig.AT_LEAST_ONCE);
    r.restore().restoreBatch(List.of(
        new ConsumerRecord<>(CHANGELOG.topic(), 0, 7L, v("a"), v("1")),
        new ConsumerRecord<>(other.topic(), 1, 3L, v("b"), v("2")),
        new ConsumerRecord<>(CHANGELOG.topic(), 0, 8L, v("a"), v("3")),
        new ConsumerRecord<>(other.topic(), 1, 4L, v("c"), null)));
    r.store().close();
    KeyValueStore<Bytes, byte[]> store = Stores.open(dir, "s");
    try {
      assertEquals(8L, store.committedOffset(CHANGELOG));
      assertEquals(4L, store.committedOffset(other));
      assertArrayEquals(v("3"), store.get(b("a")));
      assertArrayEquals(v("2"), store.get(b("b")));
      assertNull(store.get(b("c")));
    } finally {
      store.close();
    }
  }

  @Test
  void aClosedStoreReopensFromItsDirectoryWithItsDataAndOffsets() {
    KeyValueStore<Bytes, byte[]> store = Stores.open(dir, "s");
    store.put(b("a"), v("1"));
    store.putAll(List.of(KeyValue.pair(b("b"), v("2")), KeyValue.pair(b("c"), v("3"))));
    assertArrayEquals(v("3"), store.delete(b("c")));
    store.commit(Map.of(CHANGELOG, 41L));
    assertEquals(41L, store.committedOffset(CHANGELOG));
    store.close();
    store.close(); // idempotent
    assertFalse(store.isOpen());

    store = Stores.open(dir, "s");
    try {
      assertTrue(store.isOpen());
      assertArrayEquals(v("1"), store.get(b("a")));
      assertArrayEquals(v("2"), store.get(b("b")));
      assertNull(store.get(b("c")));
      assertEquals(41L, store.committedOffset(CHANGELOG));
      store.commit(Map.of()); // Kafka Streams' "forget every offset"
      assertNull(store.committedOffset(CHANGELOG));
    } finally {
      store.close();
    }
    store = Stores.open(dir, "s");
    try {
      assertNull(store.committedOffset(CHANGELOG));
    } finally {
      store.close();
    }
  }

  @Test
  void underExactlyOnceACleanCloseWritesTheOffsets() {
    KeyValueStore<Bytes, byte[]> store = Stores.open(dir, "eos", StreamsConfig.EXACTLY_ONCE_V2);
    store.put(b("a"), v("1"));
    store.commit(Map.of(CHANGELOG, 7L));
    assertEquals(7L, store.committedOffset(CHANGELOG));
    store.close();
    store = Stores.open(dir, "eos", StreamsConfig.EXACTLY_ONCE_V2);
    assertEquals(7L, store.committedOffset(CHANGELOG));
    store.put(b("a"), v("2"));
    store.commit(Map.of(CHANGELOG, 8L));
    store.close();
    store = Stores.open(dir, "eos", StreamsConfig.EXACTLY_ONCE_V2);
    try {
      assertEquals(8L, store.committedOffset(CHANGELOG), "a clean close writes them back");
      assertArrayEquals(v("2"), store.get(b("a")));
    } finally {
      store.close();
    }
  }

  @Test
  void putIfAbsentAndDeleteReturnWhatWasThere() {
    KeyValueStore<Bytes, byte[]> store = Stores.open(dir, "s");
    try {
      assertNull(store.putIfAbsent(b("k"), v("1")));
      assertArrayEquals(v("1"), store.putIfAbsent(b("k"), v("2")));
      assertArrayEquals(v("1"), store.get(b("k")));
      assertNull(store.delete(b("missing")));
      store.put(b("k"), null);
      assertNull(store.get(b("k")));
      store.put(Bytes.wrap(new byte[0]), v("empty key"));
      assertArrayEquals(v("empty key"), store.get(Bytes.wrap(new byte[0])));
      try (KeyValueIterator<Bytes, byte[]> it = store.range(b("z"), b("a"))) {
        assertFalse(it.hasNext(), "from after to: nothing");
      }
    } finally {
      store.close();
    }
  }

  @Test
  void interactiveQueriesAreAnsweredByTheStore() {
    KeyValueStore<Bytes, byte[]> store = Stores.open(dir, "s");
    try {
      store.put(b("a"), v("1"));
      store.put(b("b"), v("2"));
      store.put(b("c"), v("3"));
      QueryResult<byte[]> one = store.query(KeyQuery.withKey(b("b")), PositionBound.unbounded(),
          new QueryConfig(true));
      assertTrue(one.isSuccess());
      assertArrayEquals(v("2"), one.getResult());
      QueryResult<KeyValueIterator<Bytes, byte[]>> range = store.query(
          RangeQuery.<Bytes, byte[]>withRange(b("b"), null).withDescendingKeys(),
          PositionBound.unbounded(), new QueryConfig(false));
      List<String> keys = new ArrayList<>();
      try (KeyValueIterator<Bytes, byte[]> it = range.getResult()) {
        it.forEachRemaining(kv -> keys.add(new String(kv.key.get(), StandardCharsets.UTF_8)));
      }
      assertEquals(List.of("c", "b"), keys);
      QueryResult<?> unknown = store.query(WindowKeyQuery.withKeyAndWindowStartRange(b("a"),
          java.time.Instant.EPOCH, java.time.Instant.EPOCH), PositionBound.unbounded(),
          new QueryConfig(false));
      assertTrue(unknown.isFailure());
      QueryResult<byte[]> ahead = store.query(KeyQuery.withKey(b("a")),
          PositionBound.at(Position.emptyPosition().withComponent("input", 0, 100)),
          new QueryConfig(false));
      assertTrue(ahead.isFailure(), "a bound the store has not reached");
    } finally {
      store.close();
    }
  }

  @Test
  void flushAndAnOffsetsCommit_forceTheLog_withoutWritingATable() throws Exception {
    KeyValueStore<Bytes, byte[]> store = Stores.open(dir, "s");
    try {
      for (int i = 0; i < 100; i++) {
        store.put(b("k" + i), v("v" + i));
      }
      store.flush();
      store.commit(Map.of(CHANGELOG, 99L)); // a partition not yet written: the offsets are
      assertEquals(List.of(), tables(dir.resolve("strata").resolve("s")),
          "a flush or commit wrote a table");
    } finally {
      store.close();
    }
  }

  private static List<Path> tables(Path db) throws java.io.IOException {
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(db)) {
      return files.filter(f -> f.toString().endsWith(".sst")).toList();
    }
  }

  @Test
  void aClosedStoreAndNullKeysFailClearly() {
    KeyValueStore<Bytes, byte[]> store = Stores.open(dir, "s");
    store.put(b("a"), v("1"));
    assertThrows(NullPointerException.class, () -> store.put(null, v("x")));
    assertThrows(NullPointerException.class, () -> store.get(null));
    assertThrows(NullPointerException.class, () -> store.delete(null));
    assertThrows(NullPointerException.class,
        () -> store.putAll(List.of(KeyValue.pair(null, v("x")))));
    KeyValueIterator<Bytes, byte[]> open = store.all();
    store.close();
    assertThrows(InvalidStateStoreException.class, open::hasNext, "closing the store closed it");
    open.close();
    assertThrows(InvalidStateStoreException.class, () -> store.get(b("a")));
    assertThrows(InvalidStateStoreException.class, () -> store.put(b("a"), v("2")));
    assertThrows(InvalidStateStoreException.class, store::all);
    assertThrows(InvalidStateStoreException.class, () -> store.range(b("a"), b("b")));
    assertThrows(InvalidStateStoreException.class, () -> store.commit(Map.of(CHANGELOG, 1L)));
  }
}
