package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.LevelStats;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A standby task's store, fed as Kafka Streams 4.4 feeds one: its state updater hands each batch
 * of changelog records to the restore callback and, every commit interval, commits the store with
 * the offset of the last record applied ({@code ProcessorStateManager.commit}); it never ends the
 * restore. The store stays under the restore's bulk load, but a commit must cut no level-0 table
 * (under either guarantee), and level 0 must still be compacted at the load's table count.
 */
final class StandbyCommitTest {
  private static final TopicPartition CHANGELOG = new TopicPartition("app-s-changelog", 0);
  private static final int KEYS = 3_000;
  private static final int BATCH = 50;

  @TempDir Path dir;

  /** The store, with memtables larger than any test here fills: only a flush asked for cuts one. */
  private Stores.Restoring openLarge(String guarantee) {
    DbOptions large = DbOptions.builder().memtableBytes(8 << 20).build();
    return Stores.openRestoring(dir, StrataStores.keyValueStore("s", large, 64), guarantee);
  }

  private static byte[] key(int k) {
    return String.format("key-%06d", k).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(long offset) {
    return ByteBuffer.allocate(Long.BYTES).putLong(offset).array();
  }

  /**
   * Applies {@code batches} batches of random keys, each followed by a commit; returns each key's
   * last value, and checks {@code afterCommit} after every commit.
   */
  private static byte[][] feed(Stores.Restoring r, int batches, Runnable afterCommit) {
    Random random = new Random(20261129L);
    byte[][] last = new byte[KEYS][];
    long offset = 0;
    for (int b = 0; b < batches; b++) {
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      for (int i = 0; i < BATCH; i++, offset++) {
        int k = random.nextInt(KEYS);
        last[k] = value(offset);
        records.add(new ConsumerRecord<>(CHANGELOG.topic(), 0, offset, key(k), last[k]));
      }
      r.restore().restoreBatch(records);
      r.store().commit(Map.of(CHANGELOG, offset - 1));
      afterCommit.run();
    }
    return last;
  }

  private static void checkEveryKey(Stores.Restoring r, byte[][] last) {
    for (int k = 0; k < KEYS; k++) {
      assertArrayEquals(last[k], r.store().get(Bytes.wrap(key(k))), "key " + k);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2})
  void commitsOfAStandby_cutNoTable(String guarantee) {
    Stores.Restoring r = openLarge(guarantee);
    StrataKeyValueStore store = (StrataKeyValueStore) r.store();
    try {
      byte[][] last = feed(r, 200, () -> { });
      assertEquals(0, store.db().stats().tableCount(), "200 commits wrote tables");
      assertTrue(store.underRestoreLoad(), "a standby's store left the restore's load");
      assertEquals(200L * BATCH - 1, store.committedOffset(CHANGELOG));
      checkEveryKey(r, last);
    } finally {
      r.store().close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2})
  void aStandbysLevelZero_isCompactedAtTheLoadsTableCount(String guarantee) {
    int loadTables = 6;
    int stopTrigger = 8;
    DbOptions small = DbOptions.builder().memtableBytes(16 << 10).blockCacheBytes(256 << 10)
        .level0CompactionTrigger(2).level0SlowdownTrigger(4).level0StopTrigger(stopTrigger)
        .build();
    Stores.Restoring r =
        Stores.openRestoring(dir, StrataStores.keyValueStore("s", small, loadTables), guarantee);
    StrataKeyValueStore store = (StrataKeyValueStore) r.store();
    int[] most = new int[1];
    try {
      byte[][] last = feed(r, 400, () -> most[0] = Math.max(most[0], level0(store.db())));
      // Writes stop at the stop trigger raised by the load's excess over the configured trigger.
      assertTrue(most[0] <= stopTrigger + loadTables - 2, "level 0 reached " + most[0]);
      assertTrue(store.db().levelStats().stream().anyMatch(l -> l.level() > 0),
          "level 0 never compacted: " + store.db().levelStats());
      assertTrue(store.underRestoreLoad(), "a standby's store left the restore's load");
      checkEveryKey(r, last);
    } finally {
      r.store().close();
    }
  }

  /**
   * Promoted, a standby's task keeps its store open (Kafka Streams recycles the task's state
   * manager) and restores what the changelog gained since; its first write from processing ends
   * the load, with every restored batch in a table.
   */
  @ParameterizedTest
  @ValueSource(strings = {StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2})
  void aPromotedStandbysFirstWrite_endsTheLoad(String guarantee) {
    Stores.Restoring r = openLarge(guarantee);
    StrataKeyValueStore store = (StrataKeyValueStore) r.store();
    try {
      byte[][] last = feed(r, 100, () -> { });
      assertTrue(store.underRestoreLoad());
      r.store().put(Bytes.wrap(key(0)), value(-1));
      last[0] = value(-1);
      assertFalse(store.underRestoreLoad(), "processing did not end the load");
      assertTrue(store.db().stats().tableCount() > 0, "the restored batches were not flushed");
      checkEveryKey(r, last);
    } finally {
      r.store().close();
    }
  }

  /**
   * A store closed during its restore (its task moved away in a rebalance, or a standby closed)
   * flushes the restored batches: opened again, it holds them all and the offset of the last.
   */
  @ParameterizedTest
  @ValueSource(strings = {StreamsConfig.AT_LEAST_ONCE, StreamsConfig.EXACTLY_ONCE_V2})
  void aStoreClosedMidRestore_keepsEveryBatchAndItsOffset(String guarantee) {
    Stores.Restoring r = openLarge(guarantee);
    byte[][] last = feed(r, 100, () -> { });
    r.store().close();
    Stores.Restoring reopened = openLarge(guarantee);
    try {
      assertEquals(100L * BATCH - 1, reopened.store().committedOffset(CHANGELOG));
      assertFalse(((StrataKeyValueStore) reopened.store()).underRestoreLoad());
      checkEveryKey(reopened, last);
    } finally {
      reopened.store().close();
    }
  }

  private static int level0(Db db) {
    return db.levelStats().stream().filter(l -> l.level() == 0)
        .mapToInt(LevelStats::tables).sum();
  }
}
