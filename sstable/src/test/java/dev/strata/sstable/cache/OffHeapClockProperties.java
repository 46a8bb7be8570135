package dev.strata.sstable.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.OffHeapBlockCacheTest.Payload;
import dev.strata.sstable.testing.Seeded;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * One clock over nodes and off-heap entries: random loads, admitted reads, hits, pins, unpins and
 * dropped files of data blocks (held off the heap), index blocks (off the heap as metadata when
 * admitted as read, else nodes) and filter blocks (nodes on the heap) in the same shards, after
 * each of which every shard's accounting, queues and tables agree ({@code checkInvariants}) and
 * every block read back is the one loaded under its key.
 */
final class OffHeapClockProperties {

  private static int lengthOf(long key) {
    return 1 + (int) ((key * 2654435761L) % 6000);
  }

  private static BlockCacheKey key(long k) {
    return new BlockCacheKey(k % 4, 4096 * k);
  }

  private static void assertBlock(long k, CachedBlock b) {
    byte[] want = Payload.of(k, lengthOf(k)).bytes();
    if (b instanceof OffHeapBlock view) {
      byte[] got = OffHeapBlockCacheTest.read(view);
      if (got != null) { // null: dropped and released since the lookup, which a reader takes as a miss
        assertArrayEquals(want, got, "block " + k);
      }
    } else {
      assertArrayEquals(want, ((Payload) b).bytes(), "block " + k);
    }
  }

  @Test
  void mixedKindsPinsAndDroppedFiles_keepEveryShardConsistent() {
    Seeded.run("off-heap clock with metadata and pins", 20, random -> {
      long capacity = (256 << 10) + random.nextInt(2 << 20);
      ClockBlockCache cache = new ClockBlockCache(capacity, 1 + random.nextInt(4), true);
      int keys = 100 + random.nextInt(1500);
      Map<Long, Integer> pins = new HashMap<>();
      for (int step = 0; step < 4000; step++) {
        long k = random.nextInt(keys);
        BlockKind kind = BlockKind.values()[(int) (k % 3)]; // one kind per key
        int op = random.nextInt(20);
        if (op < 9) {
          assertBlock(k, cache.getOrLoad(key(k), kind, () -> Payload.of(k, lengthOf(k))));
        } else if (op < 12) {
          // Read by the caller: index blocks so admitted go off the heap as metadata, as partitions do.
          cache.admitRead(key(k).fileNumber(), key(k).offset(), kind, Payload.of(k, lengthOf(k)));
        } else if (op < 14) {
          CachedBlock b = cache.getIfPresent(key(k), kind);
          if (b != null) {
            assertBlock(k, b);
          }
        } else if (op < 16) {
          assertBlock(k, cache.getOrLoadPinned(key(k), kind, () -> Payload.of(k, lengthOf(k))));
          pins.merge(k, 1, Integer::sum);
        } else if (op < 19) {
          if (pins.getOrDefault(k, 0) > 0) {
            cache.unpin(key(k));
            pins.merge(k, -1, Integer::sum);
          }
        } else {
          cache.evictFiles(Set.of(k % 4));
        }
        cache.checkInvariants();
      }
      for (Map.Entry<Long, Integer> e : pins.entrySet()) {
        for (int i = 0; i < e.getValue(); i++) {
          cache.unpin(key(e.getKey()));
        }
      }
      cache.checkInvariants();
      assertTrue(cache.stats().bytesHeld() <= capacity, "over capacity once unpinned");
      assertEquals(0, cache.stats().pinnedBytesHeld(), "pins left");
      cache.close();
      assertEquals(0, cache.offHeapReservedBytes(), "slabs left after close");
    });
  }
}
