package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store restores under a bulk load (StrataStores' restoreLevel0Tables): the flushes of a shuffled
 * changelog stay in level 0 instead of being compacted at the configured trigger, until the first
 * write from processing ends the load and compaction takes them in; every read is right throughout.
 */
final class RestoreBulkLoadTest {
  private static final int KEYS = 20_000;
  private static final int BATCH = 1000;

  @TempDir Path dir;

  private static byte[] key(int k) {
    return String.format("key-%08d", k).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int k) {
    return ByteBuffer.allocate(16).putLong(k).putLong(k % 97).array();
  }

  private long tableFiles() throws IOException {
    // Names only: a listing races with compaction's deletes, a stat of each file would not.
    try (Stream<Path> files = Files.list(dir.resolve("strata").resolve("s"))) {
      return files.filter(f -> f.getFileName().toString().endsWith(".sst")).count();
    }
  }

  @Test
  void aShuffledRestore_leavesItsFlushesInLevelZero_untilProcessingWrites() throws Exception {
    Stores.Restoring r = Stores.openRestoring(dir,
        StrataStores.keyValueStore("s", Stores.SMALL, 1000), StreamsConfig.AT_LEAST_ONCE);
    try {
      restoreThenProcess(r);
    } finally {
      r.store().close();
    }
  }

  private void restoreThenProcess(Stores.Restoring r) throws Exception {
    List<Integer> order = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      order.add(k);
    }
    Collections.shuffle(order, new Random(20261129L));
    List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      int k = order.get(i);
      batch.add(new ConsumerRecord<>("app-s-changelog", 0, i, key(k), value(k)));
      if (batch.size() == BATCH) {
        r.restore().restoreBatch(batch);
        batch = new ArrayList<>();
      }
    }
    // The configured trigger (4) would have merged them; the restore's (1000) keeps each flush.
    long restoredTables = tableFiles();
    assertTrue(restoredTables > 8, "tables after the restore: " + restoredTables);
    for (int k = 0; k < KEYS; k += 7) {
      assertArrayEquals(value(k), r.store().get(Bytes.wrap(key(k))), "key " + k);
    }

    r.store().put(Bytes.wrap(key(0)), value(-1)); // processing starts: the load ends
    for (int i = 0; i < 10_000 && tableFiles() >= restoredTables; i++) {
      Thread.sleep(1);
    }
    assertTrue(tableFiles() < restoredTables, "no compaction after the restore ended");
    assertArrayEquals(value(-1), r.store().get(Bytes.wrap(key(0))));
    for (int k = 1; k < KEYS; k++) {
      assertArrayEquals(value(k), r.store().get(Bytes.wrap(key(k))), "key " + k);
    }
  }

  @Test
  void aRestoreLevelZeroTableCountOutOfRange_isRejected() {
    assertThrows(IllegalArgumentException.class,
        () -> StrataStores.keyValueStore("s", Stores.SMALL, -1));
    assertThrows(IllegalArgumentException.class,
        () -> StrataStores.keyValueStore("s", Stores.SMALL, (1 << 16) + 1));
  }
}
