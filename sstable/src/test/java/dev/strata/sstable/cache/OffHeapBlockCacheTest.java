package dev.strata.sstable.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.testing.Seeded;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Data blocks held off the heap ({@link OffHeapBlock}, {@link SlabArena}): stored bytes read back
 * identical, a slot is never reused while a reader holds its block, the charge covers the slots, and
 * closing the cache frees every slab.
 */
final class OffHeapBlockCacheTest {

  /** A block whose bytes say which key and length they belong to. */
  record Payload(byte[] bytes) implements CachedBlock {
    static Payload of(long key, int length) {
      byte[] b = new byte[length];
      long h = (key + 1) * 0x9E3779B97F4A7C15L;
      h ^= h >>> 29;
      for (int i = 0; i < length; i++) {
        b[i] = (byte) ((h >>> ((i & 7) << 3)) + (i >>> 3));
      }
      return new Payload(b);
    }

    @Override
    public int sizeBytes() {
      return (int) HeapCost.byteArray(bytes.length) + 16;
    }

    @Override
    public int offHeapLength() {
      return bytes.length;
    }

    @Override
    public byte[] offHeapBytes() {
      return bytes;
    }
  }

  /** The bytes of an off-heap block, copied under a reference; null when released for good. */
  static byte[] read(OffHeapBlock b) {
    if (!b.retain()) {
      return null;
    }
    try {
      byte[] copy = new byte[b.length()];
      b.copyTo(copy, 0);
      return copy;
    } finally {
      b.release();
    }
  }

  /** Stores {@code bytes} in {@code arena}; the first slot of their chain, -1 when it has no room. */
  private static int store(SlabArena arena, byte[] bytes) {
    return arena.store(bytes, 0, bytes.length);
  }

  private static int lengthOf(long key) {
    return (int) (key * 37 % 9000); // 0 to 9 KiB: empty blocks, part slots and many slots
  }

  private static CachedBlock get(ClockBlockCache cache, long key) throws IOException {
    return cache.getOrLoad(Blob.key(key), BlockKind.DATA, () -> Payload.of(key, lengthOf(key)));
  }

  @Test
  void dataBlocks_areStoredOffHeap_andReadBackByteIdentical() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(4 << 20, 2, true);
    for (long k = 0; k < 200; k++) {
      assertInstanceOf(Payload.class, get(cache, k), "the loading caller gets the loaded block");
    }
    for (long k = 0; k < 200; k++) {
      CachedBlock hit = cache.getIfPresent(Blob.key(k), BlockKind.DATA);
      OffHeapBlock s = assertInstanceOf(OffHeapBlock.class, hit);
      assertArrayEquals(Payload.of(k, lengthOf(k)).bytes(), read(s), "block " + k);
      assertEquals(s.sizeBytes() + DataEntries.ENTRY_BYTES, chargeOf(k));
    }
    cache.checkInvariants();
    assertTrue(cache.offHeapReservedBytes() > 0);
    cache.close();
  }

  private static long chargeOf(long k) {
    return SlabArena.slotBytes(lengthOf(k)) + (long) DataEntries.ENTRY_BYTES;
  }

  @Test
  void theArenasBookkeeping_isChargedUpFront() {
    long capacity = 8 << 20;
    ClockBlockCache heap = new ClockBlockCache(capacity, 1, false);
    ClockBlockCache offHeap = new ClockBlockCache(capacity, 1, true);
    long extra = offHeap.stats().bytesHeld() - heap.stats().bytesHeld();
    assertTrue(extra >= 4 * (capacity / SlabArena.SLOT_BYTES), "free-slot stack uncharged: " + extra);
    offHeap.close();
  }

  @Test
  void metadata_staysOnTheHeap() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(1 << 20, 1, true);
    Payload p = Payload.of(7, 4000);
    cache.getOrLoad(Blob.key(7), BlockKind.FILTER, () -> p);
    assertSame(p, cache.getIfPresent(Blob.key(7), BlockKind.FILTER));
    assertEquals(0, cache.offHeapReservedBytes());
    cache.close();
  }

  @Test
  void aRetainedBlock_keepsItsSlotsThroughEviction_andFreesThemOnRelease() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(256 << 10, 1, true);
    get(cache, 1);
    OffHeapBlock held = (OffHeapBlock) cache.getIfPresent(Blob.key(1), BlockKind.DATA);
    assertTrue(held.retain());
    for (int pass = 0; pass < 4; pass++) { // blocks used twice, many times the capacity: 1 goes
      for (long k = 2; k < 2000; k++) {
        get(cache, k);
        get(cache, k);
      }
    }
    assertNull(cache.getIfPresent(Blob.key(1), BlockKind.DATA), "evicted");
    byte[] copy = new byte[held.length()];
    held.copyTo(copy, 0);
    assertArrayEquals(Payload.of(1, lengthOf(1)).bytes(), copy, "slots reused while retained");
    held.release();
    assertFalse(held.held());
    assertFalse(held.retain(), "a released block cannot be taken again");
    cache.checkInvariants();
    cache.close();
    assertEquals(0, cache.offHeapReservedBytes());
  }

  @Test
  void concurrentReadersAndEviction_neverSeeASlotReused() {
    Seeded.run("off-heap slot reuse", 3, random -> {
      long seed = random.nextLong();
      int keys = 200 + random.nextInt(2000);
      ClockBlockCache cache = new ClockBlockCache((64 << 10) + random.nextInt(512 << 10), 1 + random.nextInt(4), true);
      int threads = 4;
      AtomicLong reads = new AtomicLong();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          Random r = new Random(seed + t);
          done.add(pool.submit(() -> {
            for (int i = 0; i < 10_000; i++) {
              long k = r.nextInt(keys);
              CachedBlock b = get(cache, k);
              byte[] bytes = b instanceof OffHeapBlock s ? read(s) : ((Payload) b).bytes();
              if (bytes != null) {
                assertArrayEquals(Payload.of(k, lengthOf(k)).bytes(), bytes, "block " + k);
                reads.incrementAndGet();
              }
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      assertTrue(reads.get() > 0);
      cache.checkInvariants();
      assertTrue(cache.stats().bytesHeld() <= cache.capacityBytes());
      cache.close();
      assertEquals(0, cache.offHeapReservedBytes(), "slabs left after close");
    });
  }

  @Test
  void close_freesEverySlab_andOneStillReadWhenItsReaderIsDone() throws IOException {
    ClockBlockCache cache = new ClockBlockCache(16 << 20, 4, true);
    for (long k = 0; k < 3000; k++) {
      get(cache, k);
    }
    long reserved = cache.offHeapReservedBytes();
    assertTrue(reserved >= 3000 * 4000L, "reserved " + reserved);
    OffHeapBlock held = (OffHeapBlock) cache.getIfPresent(Blob.key(5), BlockKind.DATA);
    assertTrue(held.retain());
    cache.close();
    assertTrue(cache.offHeapReservedBytes() > 0, "the slab a reader uses stays");
    assertTrue(cache.offHeapReservedBytes() <= SlabArena.MAX_SLAB_BYTES);
    byte[] copy = new byte[held.length()];
    held.copyTo(copy, 0);
    assertArrayEquals(Payload.of(5, lengthOf(5)).bytes(), copy);
    held.release();
    assertEquals(0, cache.offHeapReservedBytes());
    assertEquals(0, cache.stats().blocksHeld());
    // A closed cache caches nothing and still loads.
    assertInstanceOf(Payload.class, get(cache, 9));
    assertNull(cache.getIfPresent(Blob.key(9), BlockKind.DATA));
  }

  @Test
  void arena_takesBackEverySlot_ofSlabsAddedWhileFull() {
    int slabSlots = SlabArena.MAX_SLAB_BYTES / SlabArena.SLOT_BYTES;
    SlabArena arena = new SlabArena(3L * SlabArena.MAX_SLAB_BYTES);
    byte[] one = new byte[SlabArena.SLOT_BYTES];
    List<Integer> taken = new ArrayList<>();
    for (int i = 0; i < 3 * slabSlots; i++) { // each slab added with every earlier slot in use
      taken.add(store(arena, one));
    }
    assertEquals(-1, arena.store(one, 0, 1));
    for (int first : taken) {
      arena.free(first, one.length);
    }
    assertEquals(0, arena.usedBytes());
    assertEquals(3L * SlabArena.MAX_SLAB_BYTES, arena.reservedBytes());
    arena.close();
    assertEquals(0, arena.reservedBytes());
  }

  @Test
  void arena_whenDirectMemoryRunsOut_storesNothingMore_andDoesNotThrow() {
    int slabSlots = SlabArena.MAX_SLAB_BYTES / SlabArena.SLOT_BYTES;
    int[] made = {0};
    SlabArena arena = new SlabArena(8L * SlabArena.MAX_SLAB_BYTES, bytes -> {
      if (made[0] == 2) {
        throw new OutOfMemoryError("Direct buffer memory");
      }
      made[0]++;
      return java.nio.ByteBuffer.allocateDirect(bytes);
    });
    byte[] one = new byte[SlabArena.SLOT_BYTES];
    for (int i = 0; i < 2 * slabSlots; i++) {
      assertTrue(store(arena, one) >= 0);
    }
    assertEquals(-1, store(arena, one), "the third slab was refused");
    assertEquals(-1, store(arena, one));
    assertEquals(2, made[0]);
    arena.close();
  }

  @Test
  void arena_chainsThroughFreedSlots_readBackEveryLiveBlock_andCountEverySlot() {
    Seeded.run("arena slot chains", 5, random -> {
      SlabArena arena = new SlabArena((1 + random.nextInt(8)) * (long) SlabArena.MAX_SLAB_BYTES);
      java.util.Map<Integer, byte[]> live = new java.util.HashMap<>();
      long used = 0;
      for (int i = 0; i < 5000; i++) {
        if (!live.isEmpty() && random.nextInt(5) < 2) { // free one: its slots join the free list
          int first = live.keySet().iterator().next();
          byte[] b = live.remove(first);
          arena.free(first, b.length);
          used -= SlabArena.slotBytes(b.length);
        } else {
          byte[] b = Payload.of(i, random.nextInt(6 * SlabArena.SLOT_BYTES)).bytes();
          int first = store(arena, b);
          if (first >= 0) {
            live.put(first, b);
            used += SlabArena.slotBytes(b.length);
          }
        }
        assertEquals(used, arena.usedBytes());
      }
      for (java.util.Map.Entry<Integer, byte[]> e : live.entrySet()) {
        byte[] back = new byte[e.getValue().length];
        arena.read(e.getKey(), back.length, back, 0);
        assertArrayEquals(e.getValue(), back, "block at slot " + e.getKey());
        int i = random.nextInt(Math.max(1, back.length));
        if (back.length > 0) {
          assertEquals(e.getValue()[i], arena.get(e.getKey(), i), "byte " + i + " in place");
        }
      }
      arena.close();
    });
  }

  @Test
  void arena_storesAcrossSlots_andRefusesWhenFull() {
    SlabArena arena = new SlabArena(4 * SlabArena.SLOT_BYTES);
    byte[] a = Payload.of(1, 3 * SlabArena.SLOT_BYTES - 5).bytes();
    int first = store(arena, a);
    assertTrue(first >= 0);
    assertEquals(3L * SlabArena.SLOT_BYTES, arena.usedBytes());
    assertEquals(-1, store(arena, a), "one slot left");
    byte[] back = new byte[a.length];
    arena.read(first, a.length, back, 0);
    assertArrayEquals(a, back);
    arena.free(first, a.length);
    assertEquals(0, arena.usedBytes());
    arena.close();
    assertEquals(0, arena.reservedBytes());
  }
}
