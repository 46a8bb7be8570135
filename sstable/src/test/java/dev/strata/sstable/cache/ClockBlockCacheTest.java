package dev.strata.sstable.cache;

import static dev.strata.sstable.cache.Blob.cached;
import static dev.strata.sstable.cache.Blob.charge;
import static dev.strata.sstable.cache.Blob.get;
import static dev.strata.sstable.cache.Blob.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ClockBlockCacheTest {

  @Test
  void secondCall_hitsWithTheSameBlock_andChargesItsHeapCostPlusTheEntry() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(1000, 1);
    Blob a = get(cache, 0, BlockKind.DATA, 100);
    assertSame(a, get(cache, 0, BlockKind.DATA, 100));
    CacheStats s = cache.stats();
    assertEquals(new CacheStats.Counts(1, 1, 0), s.data());
    assertEquals(new CacheStats.Counts(0, 0, 0), s.index());
    assertEquals(charge(100), s.bytesHeld());
    assertEquals(0, s.metadataBytesHeld());
    assertEquals(1, s.blocksHeld());
  }

  @Test
  void getIfPresent_hitsWithoutALoader_andCountsNothingWhenAbsent() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(1000, 1);
    assertNull(cache.<Blob>getIfPresent(key(0), BlockKind.FILTER));
    assertEquals(new CacheStats.Counts(0, 0, 0), cache.stats().filter(), "an absent block is no miss");
    Blob a = get(cache, 0, BlockKind.FILTER, 100);
    Blob hit = cache.getIfPresent(key(0), BlockKind.FILTER);
    assertSame(a, hit);
    assertEquals(new CacheStats.Counts(1, 1, 0), cache.stats().filter());
    assertNull(new ClockBlockCache(0, 1).<Blob>getIfPresent(key(0), BlockKind.DATA), "capacity 0");
  }

  /**
   * A batch's lookup answers as getIfPresent of each block, whichever shard and bucket chain it
   * lies on (many blocks in few buckets: chains), counting the hits only.
   */
  @Test
  void getAllIfPresent_answersAsGetIfPresentOfEach_andCountsItsHits() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(1 << 20, 4);
    List<Blob> held = new ArrayList<>();
    for (long off = 0; off < 200; off += 2) {
      held.add(get(cache, off, BlockKind.DATA, 10));
    }
    long[] offsets = {0, 1, 2, 198, 199, 400, 2, 100, 7, 4};
    long[] files = {1, 1, 1, 1, 1, 1, 1, 1, 1, 2}; // the last: another file's block at offset 4
    CachedBlock otherFiles = cache.getOrLoad(new BlockCacheKey(2, 4), BlockKind.DATA, () -> new Blob(10));
    CachedBlock[] out = new CachedBlock[offsets.length + 1];
    out[offsets.length] = held.get(0); // past n: left alone
    CacheStats.Counts before = cache.stats().data();
    cache.getAllIfPresent(files, offsets, offsets.length, BlockKind.DATA, out);
    int hits = 0;
    for (int k = 0; k < offsets.length; k++) {
      CachedBlock expected = files[k] == 2 ? otherFiles
          : offsets[k] < 200 && offsets[k] % 2 == 0 ? held.get((int) offsets[k] / 2) : null;
      assertSame(expected, out[k], "offset " + offsets[k]);
      hits += expected != null ? 1 : 0;
    }
    assertSame(held.get(0), out[offsets.length]);
    assertEquals(new CacheStats.Counts(before.hits() + hits, before.misses(), 0), cache.stats().data());
    cache.getAllIfPresent(new long[] {2, 2, 2}, offsets, 3, BlockKind.DATA, out);
    assertNull(out[0], "another file's blocks");
    new ClockBlockCache(0, 1).getAllIfPresent(files, offsets, 2, BlockKind.DATA, out);
    assertNull(out[1], "capacity 0");
  }

  @Test
  void entry_servesItsBlockAsACountedHit_untilEvicted_thenHoldsNoBlock() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(3 * charge(100), 1);
    Blob a = get(cache, 0, BlockKind.FILTER, 100);
    BlockCache.Entry entry = cache.entryIfPresent(key(0), BlockKind.FILTER);
    assertSame(a, cache.blockOf(entry, BlockKind.FILTER));
    assertEquals(new CacheStats.Counts(1, 1, 0), cache.stats().filter(), "a hit through the entry");
    for (long off = 1; off <= 20; off++) { // laps of the clock past an entry not hit again
      get(cache, off, BlockKind.FILTER, 100);
    }
    assertNull(cache.getIfPresent(key(0), BlockKind.FILTER), "evicted");
    assertNull(cache.blockOf(entry, BlockKind.FILTER), "an evicted block is not served");
    assertNull(((Node) entry).block, "a kept entry keeps no uncharged block alive");
    Blob again = get(cache, 0, BlockKind.FILTER, 100);
    BlockCache.Entry fresh = cache.entryIfPresent(key(0), BlockKind.FILTER);
    assertSame(again, cache.blockOf(fresh, BlockKind.FILTER));
    assertNull(cache.blockOf(entry, BlockKind.FILTER), "the old entry stays dead after a reload");
    cache.close();
    assertNull(cache.blockOf(fresh, BlockKind.FILTER), "closed");
  }

  /** A batch's path: the entry's block without a count, then its hits counted at once. */
  @Test
  void blockOfUncounted_servesTheBlockCountingNothing_countHitsCountsThem() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(3 * charge(100), 1);
    Blob a = get(cache, 0, BlockKind.INDEX, 100);
    BlockCache.Entry entry = cache.entryIfPresent(key(0), BlockKind.INDEX);
    assertSame(a, cache.blockOfUncounted(entry));
    assertSame(a, cache.blockOfUncounted(entry));
    assertEquals(new CacheStats.Counts(0, 1, 0), cache.stats().index(), "no hit counted");
    cache.countHits(BlockKind.INDEX, 2);
    assertEquals(new CacheStats.Counts(2, 1, 0), cache.stats().index());
    for (long off = 1; off <= 20; off++) { // laps of the clock past an entry not hit by a counted path
      get(cache, off, BlockKind.INDEX, 100);
    }
    assertNull(cache.getIfPresent(key(0), BlockKind.INDEX), "evicted");
    assertNull(cache.blockOfUncounted(entry), "an evicted block is not served");
  }

  @Test
  void entryIfPresent_isNullForDataBlocks_absentOrRefusedBlocks_andCapacityZero() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(1000, 1);
    assertNull(cache.entryIfPresent(key(0), BlockKind.INDEX), "absent");
    get(cache, 1, BlockKind.DATA, 100);
    assertNull(cache.entryIfPresent(key(1), BlockKind.DATA), "data blocks may live off the heap");
    get(cache, 2, BlockKind.INDEX, 5000); // larger than the cache: returned, not cached
    assertNull(cache.entryIfPresent(key(2), BlockKind.INDEX), "refused");
    assertEquals(new CacheStats.Counts(0, 1, 0), cache.stats().index(), "looking up an entry counts nothing");
    ClockBlockCache none = new ClockBlockCache(0, 1);
    get(none, 0, BlockKind.FILTER, 10);
    assertNull(none.entryIfPresent(key(0), BlockKind.FILTER), "capacity 0");
  }

  @Test
  void entryBytes_countTheNodeAndItsTableSlots() {
    // 80 node (its key two longs in it, its queue order a third) + 8 table slots: see
    // Node.ENTRY_BYTES. No key object, no map node, no future after the load; an off-heap block
    // has no node but a 64-byte entry of primitive arrays and its buckets (DataEntries.ENTRY_BYTES).
    // MeasuredEntryCostTest checks both totals against the live heap.
    assertEquals(88, ClockBlockCache.ENTRY_BYTES);
    assertEquals(72, DataEntries.ENTRY_BYTES);
  }

  @Test
  void blockLargerThanItsShard_isReturnedButNotCached_andEvictsNothing() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(2000, 2);
    int small = 100;
    int n = 0;
    for (long off = 0; cache.stats().blocksHeld() < 4; off++) {
      get(cache, off, BlockKind.DATA, small);
      n++;
    }
    CacheStats before = cache.stats();
    Blob big = get(cache, 10_000, BlockKind.DATA, 1000); // 1000 + entry > a shard of 1000
    assertEquals(1000, big.sizeBytes());
    CacheStats after = cache.stats();
    assertEquals(before.bytesHeld(), after.bytesHeld());
    assertEquals(before.data().evictions(), after.data().evictions());
    assertFalse(cached(cache, 10_000, BlockKind.DATA));
    assertTrue(n >= 4);
  }

  @Test
  void dataBlocks_neverPushMetadataBelowItsShare_butMetadataMayUseTheRestWhileUsed() throws IOException {
    int block = 100;
    long capacity = 20 * charge(block);
    ClockBlockCache cache = new ClockBlockCache(capacity, 1, 0.5);
    // 14 metadata blocks: 4 more than the share of 10 holds.
    for (int i = 0; i < 14; i++) {
      get(cache, 100 + i, i % 2 == 0 ? BlockKind.FILTER : BlockKind.INDEX, block);
    }
    assertTrue(cache.metadataSegmentBytes() <= capacity / 2);
    assertEquals(14 * charge(block), cache.stats().metadataBytesHeld());
    // A stream of one-shot data blocks: it passes through probation and leaves all metadata alone.
    for (int i = 0; i < 1000; i++) {
      get(cache, 10_000 + i, BlockKind.DATA, block);
    }
    for (int i = 0; i < 14; i++) {
      assertTrue(cached(cache, 100 + i, i % 2 == 0 ? BlockKind.FILTER : BlockKind.INDEX), "metadata " + i);
    }
    cache.checkInvariants();
  }

  @Test
  void metadataAboveItsShare_agesWithData_whileTheShareStays() throws IOException {
    int block = 4000; // large enough a cache for a ghost, so hot data reaches main
    long capacity = 20 * charge(block);
    ClockBlockCache cache = new ClockBlockCache(capacity, 1, 0.5);
    for (int i = 0; i < 14; i++) {
      get(cache, 100 + i, BlockKind.FILTER, block);
    }
    // Hot data blocks: missed again soon after probation let them go, they enter main, where the
    // metadata beyond the share waits unused.
    for (int round = 0; round < 50; round++) {
      for (int i = 0; i < 12; i++) {
        get(cache, 20_000 + i, BlockKind.DATA, block);
      }
    }
    long metadataHeld = cache.stats().metadataBytesHeld();
    assertTrue(metadataHeld >= 9 * charge(block), "metadata held " + metadataHeld);
    assertTrue(metadataHeld < 14 * charge(block), "cold metadata above the share ages out: " + metadataHeld);
    assertTrue(cache.stats().filter().evictions() > 0);
    cache.checkInvariants();
  }

  @Test
  void metadataAboveItsShare_staysWhileItIsUsed() throws IOException {
    int block = 4000;
    long capacity = 20 * charge(block);
    ClockBlockCache cache = new ClockBlockCache(capacity, 1, 0.5);
    for (int round = 0; round < 50; round++) {
      for (int i = 0; i < 14; i++) {
        get(cache, 100 + i, BlockKind.FILTER, block);
      }
      for (int i = 0; i < 3; i++) {
        get(cache, 20_000 + round * 3 + i, BlockKind.DATA, block);
      }
    }
    for (int i = 0; i < 14; i++) {
      assertTrue(cached(cache, 100 + i, BlockKind.FILTER), "hot metadata " + i);
    }
    assertEquals(0, cache.stats().filter().evictions());
  }

  @Test
  void onlyMetadata_mayFillTheWholeCache() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(10 * charge(100), 1);
    for (int i = 0; i < 10; i++) {
      get(cache, i, BlockKind.FILTER, 100);
    }
    assertEquals(10 * charge(100), cache.stats().bytesHeld());
    assertEquals(0, cache.stats().filter().evictions());
  }

  @Test
  void constructor_rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> new ClockBlockCache(-1, 1));
    assertThrows(IllegalArgumentException.class, () -> new ClockBlockCache(10, 0));
    assertThrows(IllegalArgumentException.class, () -> new ClockBlockCache(10, ClockBlockCache.MAX_SHARDS + 1));
    assertThrows(IllegalArgumentException.class, () -> new ClockBlockCache(10, 1, 1.5));
  }
}
