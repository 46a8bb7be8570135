package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.Db;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The changelog offsets as commit markers: outside the key space, and the old layout migrated. */
class ChangelogOffsetMarkersTest {
  private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 3);

  @TempDir Path dir;

  @Test
  void aStoreOfTheOldLayout_readsItsOffsetsFromRow0Once_andKeepsThemAsMarkersInstead()
      throws Exception {
    Path dbDir = dir.resolve("strata").resolve("old");
    try (Db db = Db.open(dbDir, Stores.SMALL)) { // written as the store did before the markers
      byte[] topic = CHANGELOG.topic().getBytes(StandardCharsets.UTF_8);
      byte[] column = ByteBuffer.allocate(4 + topic.length).putInt(CHANGELOG.partition())
          .put(topic).array();
      db.put(StoreKeys.OFFSETS_ROW, column, ByteBuffer.allocate(8).putLong(41L).array());
      db.put(StoreKeys.row(v("a")), StoreKeys.COLUMN, v("1"));
    }
    KeyValueStore<Bytes, byte[]> store = Stores.open(dir, "old");
    try {
      assertEquals(41L, store.committedOffset(CHANGELOG));
      assertArrayEquals(v("1"), store.get(Bytes.wrap(v("a"))));
    } finally {
      store.close();
    }
    try (Db db = Db.open(dbDir, Stores.SMALL)) {
      assertTrue(db.getRow(StoreKeys.OFFSETS_ROW).isEmpty(), "the old row is deleted");
      assertEquals(1, db.commitMarkers().size(), "and its offset is a marker");
      assertArrayEquals(ByteBuffer.allocate(8).putLong(41L).array(),
          db.commitMarkers().values().iterator().next());
    }
    store = Stores.open(dir, "old");
    try {
      assertEquals(41L, store.committedOffset(CHANGELOG), "read from the marker now");
    } finally {
      store.close();
    }
  }

  @Test
  void restoredBatchesWriteNoRowButTheirData_andTheirOffsetSurvivesReopen() throws Exception {
    Stores.Restoring r = Stores.openRestoring(dir, "s", StreamsConfig.AT_LEAST_ONCE);
    r.restore().restoreBatch(List.of(
        new ConsumerRecord<>(CHANGELOG.topic(), CHANGELOG.partition(), 10L, v("k1"), v("1")),
        new ConsumerRecord<>(CHANGELOG.topic(), CHANGELOG.partition(), 11L, v("k2"), v("2"))));
    r.store().commit(Map.of(CHANGELOG, 11L));
    r.store().close();
    try (Db db = Db.open(dir.resolve("strata").resolve("s"), Stores.SMALL)) {
      assertTrue(db.getRow(StoreKeys.OFFSETS_ROW).isEmpty(), "no offsets in the key space");
      try (var cells = db.scan(null, null)) {
        int rows = 0;
        while (cells.hasNext()) {
          assertEquals(StoreKeys.FIRST[0], cells.next().row()[0], "only data rows");
          rows++;
        }
        assertEquals(2, rows);
      }
    }
    KeyValueStore<Bytes, byte[]> store = Stores.open(dir, "s");
    try {
      assertEquals(11L, store.committedOffset(CHANGELOG));
    } finally {
      store.close();
    }
  }

  private static byte[] v(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
