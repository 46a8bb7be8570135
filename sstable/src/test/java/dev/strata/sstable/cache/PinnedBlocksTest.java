package dev.strata.sstable.cache;

import static dev.strata.sstable.cache.Blob.charge;
import static dev.strata.sstable.cache.Blob.get;
import static dev.strata.sstable.cache.Blob.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Pinned entries ({@link ClockBlockCache#getOrLoadPinned}): never evicted, charged, nested, and
 * back in the clock after the last unpin.
 */
final class PinnedBlocksTest {

  /** Whether the block at {@code offset} is cached, without caching anything on a miss. */
  private static boolean held(ClockBlockCache cache, long offset, BlockKind kind) throws IOException {
    boolean[] loaded = {false};
    cache.getOrLoadPinned(key(offset), kind, () -> {
      loaded[0] = true;
      return new Blob(1);
    });
    cache.unpin(key(offset));
    return !loaded[0];
  }

  private static Blob pin(ClockBlockCache cache, long offset, BlockKind kind, int bytes) throws IOException {
    return cache.getOrLoadPinned(key(offset), kind, () -> new Blob(bytes));
  }

  @Test
  void pinnedMetadata_survivesAFloodOfDataAndMetadata_andIsCharged() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(charge(100) * 40, 1);
    for (int i = 0; i < 10; i++) {
      pin(cache, i, BlockKind.FILTER, 100);
    }
    CacheStats pinned = cache.stats();
    assertEquals(10 * charge(100), pinned.pinnedBytesHeld());
    assertEquals(10 * charge(100), pinned.metadataBytesHeld());
    for (int i = 0; i < 2000; i++) {
      get(cache, 1000 + i, i % 4 == 0 ? BlockKind.INDEX : BlockKind.DATA, 100);
    }
    cache.checkInvariants();
    for (int i = 0; i < 10; i++) {
      assertTrue(held(cache, i, BlockKind.FILTER), "pinned chunk " + i + " evicted");
    }
    assertEquals(10 * charge(100), cache.stats().pinnedBytesHeld());
    assertTrue(cache.stats().bytesHeld() <= charge(100) * 40);
  }

  @Test
  void pinsNest_andTheLastUnpinReturnsTheBlockToTheClock() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(charge(100) * 20, 1);
    Blob a = pin(cache, 1, BlockKind.INDEX, 100);
    assertSame(a, pin(cache, 1, BlockKind.INDEX, 100));
    cache.unpin(key(1));
    for (int i = 0; i < 500; i++) {
      get(cache, 1000 + i, BlockKind.INDEX, 100);
    }
    assertTrue(held(cache, 1, BlockKind.INDEX), "one pin left");
    cache.unpin(key(1));
    assertEquals(0, cache.stats().pinnedBytesHeld());
    for (int i = 0; i < 500; i++) {
      get(cache, 2000 + i, BlockKind.INDEX, 100);
    }
    assertFalse(held(cache, 1, BlockKind.INDEX), "unpinned, it ages out like any block");
    cache.unpin(key(1)); // no pin left: nothing happens
    cache.checkInvariants();
  }

  @Test
  void pinnedBlocksBeyondCapacity_areKept_andEveryUnpinnedBlockGivesWay() throws IOException {
    long capacity = charge(100) * 10;
    ClockBlockCache cache = new ClockBlockCache(capacity, 1);
    for (int i = 0; i < 5; i++) {
      get(cache, 100 + i, BlockKind.DATA, 100);
    }
    for (int i = 0; i < 15; i++) {
      pin(cache, i, BlockKind.FILTER, 100);
    }
    CacheStats s = cache.stats();
    assertEquals(15 * charge(100), s.pinnedBytesHeld());
    assertEquals(15, s.blocksHeld(), "the data blocks gave way");
    Blob data = get(cache, 200, BlockKind.DATA, 100);
    assertEquals(100, data.sizeBytes());
    assertEquals(15, cache.stats().blocksHeld(), "no room for unpinned blocks over capacity");
    cache.checkInvariants();
    for (int i = 0; i < 15; i++) {
      cache.unpin(key(i));
    }
    cache.checkInvariants();
    assertTrue(cache.stats().bytesHeld() <= capacity, "back within capacity once unpinned");
    assertEquals(0, cache.stats().pinnedBytesHeld());
  }

  @Test
  void aBlockLargerThanTheShard_isCachedWhenPinned() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(1000, 1);
    pin(cache, 1, BlockKind.INDEX, 5000);
    assertTrue(held(cache, 1, BlockKind.INDEX));
    assertEquals(charge(5000), cache.stats().pinnedBytesHeld());
    cache.unpin(key(1));
    cache.checkInvariants();
    assertEquals(0, cache.stats().blocksHeld(), "too large once unpinned: shed");
  }

  @Test
  void capacityZero_pinsNothing() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(0, 1);
    pin(cache, 1, BlockKind.FILTER, 100);
    cache.unpin(key(1));
    assertEquals(0, cache.stats().bytesHeld());
    assertEquals(0, cache.stats().pinnedBytesHeld());
  }
}
