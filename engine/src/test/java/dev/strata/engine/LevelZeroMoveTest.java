package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load in key order flushes level-0 tables whose rows are disjoint; compacting level 0 then moves
 * them to level 1 by a manifest edit, without rewriting them: no compaction runs (its hook never
 * fires), every table file flushed is still the file listed, and the move survives a reopen.
 */
final class LevelZeroMoveTest {
  private static final byte[] VALUE = new byte[100];
  private static final int FLUSHES = 12;
  private static final int KEYS_PER_FLUSH = 20;

  @TempDir Path dir;

  private static byte[] key(int i) {
    return String.format("k%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i) {
    byte[] v = VALUE.clone();
    v[0] = (byte) i;
    v[1] = (byte) (i >> 8);
    return v;
  }

  private Set<String> tableFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".sst"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static void awaitQuiet(Db db) throws InterruptedException {
    for (int i = 0; i < 30_000 && db.backgroundWorkPending(); i++) {
      Thread.sleep(1);
    }
    assertTrue(!db.backgroundWorkPending(), "background work never ended");
  }

  @Test
  void aLoadInKeyOrderIsMovedToLevelOne_notRewritten_withSnapshotsAndTombstonesIntact()
      throws Exception {
    DbOptions options =
        DbOptions.builder().memtableBytes(64 << 10).level0CompactionTrigger(2).build();
    AtomicInteger compactions = new AtomicInteger();
    TreeMap<Integer, byte[]> atSnapshot = new TreeMap<>();
    TreeMap<Integer, byte[]> latest = new TreeMap<>();
    Set<String> flushed = new TreeSet<>();
    List<Integer> levels;
    try (Db db = Db.open(dir, options)) {
      db.seams().beforeEachCompaction(compactions::incrementAndGet);
      Snapshot snapshot = null;
      for (int f = 0; f < FLUSHES; f++) {
        for (int k = 0; k < KEYS_PER_FLUSH; k++) {
          int i = f * KEYS_PER_FLUSH + k;
          db.put(key(i), value(i));
          latest.put(i, value(i));
          if (k % 5 == 4) {
            db.delete(key(i - 2)); // a tombstone in the same table as the put it deletes
            latest.remove(i - 2);
          }
        }
        db.flush();
        flushed.addAll(tableFiles());
        if (f == FLUSHES / 2) {
          snapshot = db.snapshot();
          atSnapshot.putAll(latest);
        }
      }
      awaitQuiet(db);
      levels = db.tablesPerLevel();
      assertEquals(0, compactions.get(), "a compaction rewrote tables: " + levels);
      assertTrue(levels.get(0) < 2 && levels.get(1) >= FLUSHES - 1, "not moved: " + levels);
      assertEquals(flushed, tableFiles(), "the files flushed are the files listed");

      for (int i = 0; i < FLUSHES * KEYS_PER_FLUSH; i++) {
        assertArrayEquals(latest.get(i), db.get(key(i)), "key " + i);
        assertArrayEquals(
            atSnapshot.get(i), db.get(snapshot, key(i), new byte[0]), "at snapshot " + i);
      }
      snapshot.close();
    }
    try (Db db = Db.open(dir, options)) {
      assertEquals(levels, db.tablesPerLevel(), "the manifest records the move");
      for (int i = 0; i < FLUSHES * KEYS_PER_FLUSH; i++) {
        byte[] got = db.get(key(i));
        if (latest.containsKey(i)) {
          assertArrayEquals(latest.get(i), got, "key " + i);
        } else {
          assertNull(got, "deleted key " + i);
        }
      }
    }
  }

  /** Tables that share rows are merged as before: the move is for disjoint tables only. */
  @Test
  void overlappingLevelZeroTablesAreStillMerged() throws Exception {
    DbOptions options =
        DbOptions.builder().memtableBytes(64 << 10).level0CompactionTrigger(2).build();
    AtomicInteger compactions = new AtomicInteger();
    try (Db db = Db.open(dir, options)) {
      db.seams().beforeEachCompaction(compactions::incrementAndGet);
      for (int f = 0; f < 4; f++) {
        for (int k = 0; k < KEYS_PER_FLUSH; k++) {
          db.put(key(k * 4 + f), value(f)); // every flush spans the same rows
        }
        db.flush();
      }
      awaitQuiet(db);
      assertTrue(compactions.get() > 0, "no compaction merged them: " + db.tablesPerLevel());
      for (int f = 0; f < 4; f++) {
        for (int k = 0; k < KEYS_PER_FLUSH; k++) {
          assertArrayEquals(value(f), db.get(key(k * 4 + f)));
        }
      }
    }
  }
}
