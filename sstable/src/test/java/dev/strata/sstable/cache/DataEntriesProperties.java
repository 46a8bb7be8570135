package dev.strata.sstable.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.testing.Seeded;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The off-heap entries' table against a {@link HashMap} model: random stores, drops, retains and
 * releases, after each of which every key the model holds is found with its bytes and every key it
 * does not is not; a view of a dropped block never retains again, even once its entry number holds
 * another block; and once every reference is gone the arena's slots are all free.
 */
final class DataEntriesProperties {

  private record Key(long file, long offset) {
    long hash() {
      return BlockCacheKey.mixedHash(file, offset);
    }
  }

  /** The bytes of key {@code k}: a length and content that name it. */
  private static byte[] bytesOf(Key k, int salt) {
    int length = 1 + (int) Math.floorMod(k.hash() ^ salt, 3000);
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (k.file * 31 + k.offset + i + salt);
    }
    return b;
  }

  private static byte[] read(DataEntries entries, int i, Key k) {
    OffHeapBlock view = new OffHeapBlock();
    assertTrue(view.aim(entries, i, k.file, k.offset));
    assertTrue(view.retain());
    try {
      byte[] out = new byte[view.length()];
      view.copyTo(out, 0);
      return out;
    } finally {
      view.release();
    }
  }

  @Test
  void storesAndDrops_matchAHashMap_andFreeEverySlot() {
    Seeded.run("data entries against a map", 30, random -> {
      SlabArena arena = new SlabArena(8 << 20);
      DataEntries entries = new DataEntries(arena);
      Map<Key, Integer> model = new HashMap<>();
      Map<Key, byte[]> contents = new HashMap<>();
      List<OffHeapBlock> retained = new ArrayList<>();
      List<OffHeapBlock> stale = new ArrayList<>();
      int keys = 20 + random.nextInt(2000);
      int files = 1 + random.nextInt(5);
      for (int step = 0; step < 5000; step++) {
        Key k = new Key(random.nextInt(files), 4096L * random.nextInt(keys / files + 1));
        Integer held = model.get(k);
        int op = random.nextInt(10);
        if (held == null && op < 6) {
          byte[] b = bytesOf(k, step);
          int i = entries.store(k.file, k.offset, b, b.length, 100, false);
          if (i == DataEntries.NONE) {
            continue; // the arena is full: nothing stored
          }
          entries.link(i, k.hash());
          model.put(k, i);
          contents.put(k, b);
        } else if (held != null && op < 8) {
          OffHeapBlock view = new OffHeapBlock();
          assertTrue(view.aim(entries, held, k.file, k.offset));
          entries.unlink(held, k.hash());
          entries.release(held); // the cache's reference
          model.remove(k);
          contents.remove(k);
          int entry = held;
          if (retained.stream().noneMatch(v -> v.stashed() == entry)) {
            stale.add(view); // released for good: no reader holds it either
          }
        } else if (held != null && op == 8) {
          OffHeapBlock view = new OffHeapBlock();
          assertTrue(view.aim(entries, held, k.file, k.offset));
          assertTrue(view.retain(), "a linked entry is held");
          retained.add(view);
        } else if (!retained.isEmpty()) {
          retained.remove(random.nextInt(retained.size())).release();
        }
        for (OffHeapBlock view : stale) {
          assertFalse(view.retain(), "a dropped block taken again");
        }
        if (step % 97 == 0) {
          assertEquals(model.size(), entries.linked());
          for (Map.Entry<Key, Integer> e : model.entrySet()) {
            Key key = e.getKey();
            assertEquals(e.getValue(), entries.find(key.file, key.offset, key.hash()), "entry of " + key);
            assertArrayEquals(contents.get(key), read(entries, e.getValue(), key), "bytes of " + key);
          }
          Key absent = new Key(files + random.nextInt(3), 4096L * random.nextInt(keys));
          assertEquals(DataEntries.NONE, entries.find(absent.file, absent.offset, absent.hash()));
        }
      }
      for (OffHeapBlock view : retained) {
        view.release();
      }
      for (Map.Entry<Key, Integer> e : model.entrySet()) {
        entries.unlink(e.getValue(), e.getKey().hash());
        entries.release(e.getValue());
      }
      assertEquals(0, entries.linked());
      assertEquals(0, arena.usedBytes(), "slots still in use once every reference went");
    });
  }

  @Test
  void aStaleView_refusesTheBlockItsEntryHoldsNext() {
    DataEntries entries = new DataEntries(new SlabArena(1 << 20));
    byte[] first = {1, 2, 3};
    int i = entries.store(1, 0, first, first.length, 100, false);
    entries.link(i, BlockCacheKey.mixedHash(1, 0));
    OffHeapBlock view = new OffHeapBlock();
    assertTrue(view.aim(entries, i, 1, 0));
    entries.unlink(i, BlockCacheKey.mixedHash(1, 0));
    entries.release(i);
    byte[] second = {4, 5};
    int j = entries.store(2, 0, second, second.length, 100, false);
    assertEquals(i, j, "the freed entry number is reused");
    assertNotEquals(DataEntries.generation(entries.state(i)), 0);
    assertFalse(view.retain(), "a view of the first block retained the second");
    assertFalse(view.held());
  }

  /**
   * Readers find, retain and copy blocks while a writer stores and drops them under a lock, as the
   * shard does: a reader never reads bytes other than those of the key it looked up.
   */
  @Test
  void concurrentReaders_neverReadAnotherKeysBytes() throws Exception {
    Seeded.run("data entries under concurrent readers", 3, random -> {
      DataEntries entries = new DataEntries(new SlabArena(2 << 20));
      int keys = 300;
      Object lock = new Object();
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Future<Integer>> readers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          long seed = random.nextLong();
          readers.add(pool.submit(() -> {
            Random r = new Random(seed);
            OffHeapBlock view = new OffHeapBlock();
            int hits = 0;
            while (!stop.get()) {
              Key k = new Key(r.nextInt(3), 4096L * r.nextInt(keys));
              int i = entries.find(k.file, k.offset, k.hash());
              if (i == DataEntries.NONE || !view.aim(entries, i, k.file, k.offset) || !view.retain()) {
                continue; // absent, or dropped or reused since the lookup: a miss
              }
              try {
                byte[] out = new byte[view.length()];
                view.copyTo(out, 0);
                assertArrayEquals(bytesOf(k, 0), out, "bytes of " + k);
                hits++;
              } finally {
                view.release();
              }
            }
            return hits;
          }));
        }
        Map<Key, Integer> held = new HashMap<>();
        Random w = new Random(random.nextLong());
        for (int step = 0; step < 100_000; step++) {
          Key k = new Key(w.nextInt(3), 4096L * w.nextInt(keys));
          synchronized (lock) {
            Integer i = held.remove(k);
            if (i != null) {
              entries.unlink(i, k.hash());
              entries.release(i);
            } else {
              byte[] b = bytesOf(k, 0);
              int j = entries.store(k.file, k.offset, b, b.length, 100, false);
              if (j != DataEntries.NONE) {
                entries.link(j, k.hash());
                held.put(k, j);
              }
            }
          }
        }
        stop.set(true);
        int hits = 0;
        for (Future<Integer> f : readers) {
          hits += f.get();
        }
        assertTrue(hits > 0, "the readers found nothing");
      } finally {
        stop.set(true);
        pool.shutdownNow();
      }
    });
  }
}
