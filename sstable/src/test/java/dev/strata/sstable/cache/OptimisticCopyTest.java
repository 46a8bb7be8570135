package dev.strata.sstable.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.OffHeapBlockCacheTest.Payload;
import java.io.IOException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The optimistic copy of an off-heap block ({@link OffHeapBlock#tryCopyTo}): the block's exact bytes
 * when nothing changes, and false, never other bytes nor an exception, when the block is dropped, its
 * entry and slots reused, or the cache closed between the view's aim, the copy and the validation
 * (each step taken separately through {@code copyUnvalidated} and {@code validate}).
 */
final class OptimisticCopyTest {
  private static final int[] LENGTHS = {0, 1, 511, 512, 513, 4000, 4096, 9000};

  private static BlockCacheKey key(long k) {
    return new BlockCacheKey(1, k);
  }

  private static void load(ClockBlockCache cache, long k, int length) throws IOException {
    cache.getOrLoad(key(k), BlockKind.DATA, () -> Payload.of(k, length));
  }

  /** A one-shard off-heap cache of 1 MiB holding block {@code k} of {@code length} bytes. */
  private static ClockBlockCache holding(long k, int length) throws IOException {
    ClockBlockCache cache = new ClockBlockCache(1 << 20, 1, true);
    load(cache, k, length);
    return cache;
  }

  private static OffHeapBlock view(ClockBlockCache cache, long k) {
    return assertInstanceOf(OffHeapBlock.class, cache.getIfPresent(key(k), BlockKind.DATA));
  }

  @Test
  void unchanged_copiesTheExactBytes() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(4 << 20, 2, true);
    for (int k = 0; k < LENGTHS.length; k++) {
      load(cache, k, LENGTHS[k]);
    }
    for (int k = 0; k < LENGTHS.length; k++) {
      OffHeapBlock v = view(cache, k);
      byte[] copy = new byte[v.length() + 3];
      assertTrue(v.tryCopyTo(copy, 3), "length " + LENGTHS[k]);
      byte[] expected = Payload.of(k, LENGTHS[k]).bytes();
      assertArrayEquals(expected, java.util.Arrays.copyOfRange(copy, 3, copy.length));
      v.beginUnreferencedRead();
      try {
        if (expected.length > 0) {
          assertEquals(expected[expected.length - 1], v.peek(expected.length - 1));
        }
        byte[] again = new byte[v.length()];
        assertTrue(v.copyUnreferenced(again, 0));
        assertArrayEquals(expected, again);
      } finally {
        v.endUnreferencedRead();
      }
    }
    cache.close();
  }

  @Test
  void dropped_beforeOrDuringTheCopy_fails() throws IOException {
    ClockBlockCache before = holding(1, 4000);
    OffHeapBlock v = view(before, 1);
    before.evictFiles(Set.of(1L));
    assertFalse(v.tryCopyTo(new byte[v.length()], 0));
    before.close();

    ClockBlockCache during = holding(1, 4000);
    OffHeapBlock w = view(during, 1);
    assertTrue(w.copyUnvalidated(new byte[w.length()], 0));
    during.evictFiles(Set.of(1L));
    assertFalse(w.validate(), "validated after its slots were freed");
    during.close();
  }

  @Test
  void reusedByOtherBlocks_beforeOrDuringTheCopy_fails() throws IOException {
    for (int when = 0; when < 2; when++) {
      ClockBlockCache cache = holding(1, 4000);
      OffHeapBlock v = view(cache, 1);
      byte[] copy = new byte[v.length()];
      if (when == 1) {
        assertTrue(v.copyUnvalidated(copy, 0));
      }
      cache.evictFiles(Set.of(1L));
      for (long k = 2; k < 40; k++) { // other content, other lengths: the freed entry and slots reused
        load(cache, k, (int) (k * 997 % 9000));
      }
      boolean reused = false;
      for (long k = 2; k < 40; k++) {
        CachedBlock b = cache.getIfPresent(key(k), BlockKind.DATA);
        reused |= b instanceof OffHeapBlock o && o.stashed() == v.stashed();
      }
      assertTrue(reused, "no block took the dropped block's entry");
      if (when == 0) {
        v.copyUnvalidated(copy, 0); // may follow the new blocks' chains: must not throw
      }
      assertFalse(v.validate(), "validated after its entry was reused (when " + when + ")");
      assertFalse(v.tryCopyTo(new byte[v.length()], 0));
      cache.checkInvariants();
      cache.close();
    }
  }

  @Test
  void closedBeforeTheCopy_failsWithoutReadingAFreedSlab() throws IOException {
    ClockBlockCache cache = holding(1, 9000);
    OffHeapBlock v = view(cache, 1);
    cache.close();
    assertEquals(0, cache.offHeapReservedBytes(), "no reader in: every slab freed");
    assertFalse(v.tryCopyTo(new byte[v.length()], 0));
    v.beginUnreferencedRead();
    try {
      assertEquals(0, v.peek(0));
      assertFalse(v.copyUnvalidated(new byte[v.length()], 0), "the arena is closed");
    } finally {
      v.endUnreferencedRead();
    }
  }

  @Test
  void closedDuringASection_keepsItsSlabsUntilTheSectionEnds() throws IOException {
    ClockBlockCache cache = holding(1, 9000);
    OffHeapBlock v = view(cache, 1);
    byte[] copy = new byte[v.length()];
    v.beginUnreferencedRead();
    try {
      assertTrue(v.copyUnvalidated(copy, 0));
      cache.close();
      assertTrue(cache.offHeapReservedBytes() > 0, "a slab freed under an unreferenced reader");
      assertFalse(v.validate(), "the cache dropped the block");
      assertFalse(v.copyUnreferenced(copy, 0));
    } finally {
      v.endUnreferencedRead();
    }
    assertEquals(0, cache.offHeapReservedBytes(), "the last reader out frees the slabs");
  }

  @Test
  void arena_unreferencedReadsOfGarbageChains_failWithoutThrowing() {
    SlabArena arena = new SlabArena(4L * SlabArena.MAX_SLAB_BYTES);
    byte[] a = Payload.of(1, 3 * SlabArena.SLOT_BYTES).bytes();
    int first = arena.store(a, 0, a.length);
    byte[] dst = new byte[64 * SlabArena.SLOT_BYTES];
    arena.enterReads();
    try {
      int slabSlots = SlabArena.MAX_SLAB_BYTES / SlabArena.SLOT_BYTES;
      for (int bad : new int[] {-1, -7, Integer.MIN_VALUE, slabSlots, 3 * slabSlots + 5, Integer.MAX_VALUE}) {
        assertFalse(arena.readUnreferenced(bad, 100, dst, 0), "slot " + bad);
        assertEquals(0, arena.peekUnreferenced(bad, 0), "slot " + bad);
      }
      // Longer than its chain: the last link is the end (-1), which leads out of the slabs.
      assertFalse(arena.readUnreferenced(first, dst.length, dst, 0));
      assertEquals(0, arena.peekUnreferenced(first, 10 * SlabArena.SLOT_BYTES));
      assertFalse(arena.readUnreferenced(first, 100, dst, dst.length - 50), "past dst's end");
      assertFalse(arena.readUnreferenced(first, -1, dst, 0));
      // Freed and relinked in front of the free list: followed as far as the length, no further.
      arena.free(first, a.length);
      assertTrue(arena.readUnreferenced(first, 5 * SlabArena.SLOT_BYTES, dst, 0));
      assertTrue(arena.readUnreferenced(first, a.length, dst, 0));
      assertArrayEquals(a, java.util.Arrays.copyOf(dst, a.length), "freed, not yet reused");
    } finally {
      arena.exitReads();
    }
    arena.close();
    assertEquals(0, arena.reservedBytes());
    arena.enterReads();
    try {
      assertFalse(arena.readUnreferenced(first, a.length, dst, 0), "closed");
    } finally {
      arena.exitReads();
    }
  }

  @Test
  void arena_closedWithReadersIn_freesItsSlabsWhenTheLastLeaves() {
    SlabArena arena = new SlabArena(2L * SlabArena.MAX_SLAB_BYTES);
    byte[] a = Payload.of(1, 700).bytes();
    int one = arena.store(a, 0, a.length);
    int two = arena.store(a, 0, a.length);
    arena.free(one, a.length);
    arena.enterReads();
    arena.enterReads();
    arena.close();
    assertTrue(arena.reservedBytes() > 0, "freed under two readers");
    arena.free(two, a.length); // the last block out, after the close
    arena.exitReads();
    assertTrue(arena.reservedBytes() > 0, "freed under one reader");
    arena.exitReads();
    assertEquals(0, arena.reservedBytes(), "the last reader out frees");
  }
}
