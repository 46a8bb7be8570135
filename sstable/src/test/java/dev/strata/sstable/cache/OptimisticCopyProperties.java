package dev.strata.sstable.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.OffHeapBlockCacheTest.Payload;
import dev.strata.sstable.testing.Seeded;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Optimistic copies under concurrent change: readers copy blocks out without references ({@link
 * OffHeapBlock#tryCopyTo}, and a batch's section with {@link OffHeapBlock#peek}) while a writer
 * loads blocks into a cache far smaller than them, dropping whole files now and then, so entries
 * and slots are reused by blocks of other keys and lengths under the readers; and the cache is
 * closed while they still read. Each block's bytes derive from its key: no reader ever accepts
 * bytes that are not its key's, nothing throws, and the closed cache frees every slab.
 */
final class OptimisticCopyProperties {
  private static final int READERS = 3;

  @Test
  void aReaderNeverAcceptsAnotherBlocksBytes() {
    Seeded.run("optimistic copies under eviction", 4, random -> {
      long seed = random.nextLong();
      int keys = 50 + random.nextInt(400);
      int maxLength = 1 + random.nextInt(6 * SlabArena.SLOT_BYTES);
      int[] lengths = new int[keys];
      Arrays.setAll(lengths, k -> new Random(seed + k).nextInt(maxLength + 1));
      byte[][] expected = new byte[keys][];
      Arrays.setAll(expected, k -> Payload.of(k, lengths[k]).bytes());
      ClockBlockCache cache =
          new ClockBlockCache((32 << 10) + random.nextInt(256 << 10), 1 + random.nextInt(2), true);
      AtomicBoolean writing = new AtomicBoolean(true);
      AtomicLong accepted = new AtomicLong();
      AtomicLong refused = new AtomicLong();
      ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < READERS; t++) {
          Random r = new Random(seed + 1000 + t);
          done.add(pool.submit(() -> {
            OffHeapBlock view = new OffHeapBlock();
            OffHeapBlock[] batch = {new OffHeapBlock(), new OffHeapBlock(), new OffHeapBlock()};
            byte[] dst = new byte[maxLength + 8];
            long rounds = 0;
            while (writing.get() || rounds++ < 2000) { // and on, past the close
              if (r.nextBoolean()) {
                int k = r.nextInt(keys);
                if (cache.getIfPresent(1, k, BlockKind.DATA, view) instanceof OffHeapBlock o) {
                  check(o.tryCopyTo(dst, 4), o, dst, 4, k, expected, accepted, refused);
                }
              } else {
                copyBatch(cache, r, keys, batch, dst, expected, accepted, refused);
              }
            }
            return null;
          }));
        }
        done.add(pool.submit(() -> {
          Random r = new Random(seed);
          for (int i = 0; i < 30_000; i++) {
            int k = r.nextInt(keys);
            cache.getOrLoad(new BlockCacheKey(1, k), BlockKind.DATA, () -> Payload.of(k, lengths[k]));
            if (r.nextInt(500) == 0) {
              cache.evictFiles(Set.of(1L));
            }
          }
          cache.close();
          writing.set(false);
          return null;
        }));
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      assertTrue(accepted.get() > 0, "no copy accepted (" + refused.get() + " refused)");
      assertEquals(0, cache.offHeapReservedBytes(), "slabs left after close and the readers' exit");
    });
  }

  /** Copies up to three blocks in one section, as a batch does, their first bytes touched first. */
  private static void copyBatch(ClockBlockCache cache, Random r, int keys, OffHeapBlock[] views,
      byte[] dst, byte[][] expected, AtomicLong accepted, AtomicLong refused) {
    long[] files = {1, 1, 1};
    long[] offsets = {r.nextInt(keys), r.nextInt(keys), r.nextInt(keys)};
    CachedBlock[] out = new CachedBlock[3];
    cache.getAllIfPresent(files, offsets, 3, BlockKind.DATA, out, views);
    List<OffHeapBlock> open = new ArrayList<>();
    try {
      for (CachedBlock b : out) {
        if (b instanceof OffHeapBlock o) {
          o.beginUnreferencedRead();
          open.add(o);
        }
      }
      for (OffHeapBlock o : open) {
        o.peek(0); // any byte, or 0: it must only not throw
      }
      for (int j = 0; j < 3; j++) {
        if (out[j] instanceof OffHeapBlock o) {
          check(o.copyUnreferenced(dst, 0), o, dst, 0, (int) offsets[j], expected, accepted, refused);
        }
      }
    } finally {
      open.forEach(OffHeapBlock::endUnreferencedRead);
    }
  }

  private static void check(boolean ok, OffHeapBlock o, byte[] dst, int at, int k, byte[][] expected,
      AtomicLong accepted, AtomicLong refused) {
    if (!ok) {
      refused.incrementAndGet();
      return;
    }
    assertEquals(expected[k].length, o.length(), "block " + k + "'s length");
    assertArrayEquals(expected[k], Arrays.copyOfRange(dst, at, at + o.length()), "block " + k + "'s bytes");
    accepted.incrementAndGet();
  }
}
