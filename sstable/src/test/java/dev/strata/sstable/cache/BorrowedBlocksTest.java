package dev.strata.sstable.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A loader's {@link CachedBlock#borrowed} block (over its thread's reused buffers) reaches its
 * loading caller alone: the cache keeps a copy (off the heap, or {@link CachedBlock#owned}), and the
 * waiters of the load get that copy or look again, never the borrowed block. Each test overwrites
 * the borrowed buffer after the load, as its thread's next miss would.
 */
final class BorrowedBlocksTest {
  private static final BlockCacheKey KEY = new BlockCacheKey(7, 4096);

  /** A data block over a buffer its "thread" reuses: owned() copies it into a plain block. */
  static final class Borrowed implements CachedBlock {
    final byte[] buffer;
    /** How many times the cache copied this block into arrays of its own. */
    int copies;

    Borrowed(byte[] buffer) {
      this.buffer = buffer;
    }

    @Override
    public boolean borrowed() {
      return true;
    }

    @Override
    public CachedBlock owned() {
      copies++;
      return new OffHeapBlockCacheTest.Payload(buffer.clone());
    }

    @Override
    public int sizeBytes() {
      return (int) HeapCost.byteArray(buffer.length) + 16;
    }

    @Override
    public int offHeapLength() {
      return buffer.length;
    }

    @Override
    public byte[] offHeapBytes() {
      return buffer;
    }
  }

  private static byte[] bytes(int seed) {
    byte[] b = new byte[3000];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (seed * 31 + i);
    }
    return b;
  }

  /** The bytes the cache holds for {@code block}, however it holds them. */
  private static byte[] bytesOf(CachedBlock block) {
    if (block instanceof OffHeapBlock o) {
      return OffHeapBlockCacheTest.read(o);
    }
    return assertInstanceOf(OffHeapBlockCacheTest.Payload.class, block).bytes();
  }

  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void theCacheKeepsACopy_notTheBorrowedBuffer(boolean offHeap) throws IOException {
    ClockBlockCache cache = new ClockBlockCache(1 << 20, 1, offHeap);
    try {
      assertTrue(cache.takesBorrowedBlocks());
      Borrowed mine = new Borrowed(bytes(1));
      CachedBlock got = cache.getOrLoad(KEY, BlockKind.DATA, () -> mine);
      assertSame(mine, got, "the loading caller gets its own block");
      Arrays.fill(mine.buffer, (byte) 0); // the thread's next miss reuses the buffer

      CachedBlock held = cache.getIfPresent(KEY, BlockKind.DATA);
      assertNotSame(mine, held);
      assertFalse(held.borrowed());
      assertArrayEquals(bytes(1), bytesOf(held));
      assertEquals(offHeap ? 0 : 1, mine.copies, "off the heap the bytes go to the slots, else one copy");
      cache.checkInvariants();
    } finally {
      cache.close();
    }
  }

  /**
   * {@link ClockBlockCache#admitData}, a Get's miss read without a loader: the cache keeps a copy
   * (off the heap, or owned), counts the miss, and keeps the first block admitted under a key.
   */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void admitData_keepsACopy_andTheFirstAdmitted(boolean offHeap) {
    ClockBlockCache cache = new ClockBlockCache(1 << 20, 1, offHeap);
    try {
      Borrowed mine = new Borrowed(bytes(3));
      cache.admitData(KEY.fileNumber(), KEY.offset(), mine);
      Arrays.fill(mine.buffer, (byte) 0); // the thread's next miss reuses the buffer
      assertEquals(1, cache.stats().data().misses());
      assertEquals(offHeap ? 0 : 1, mine.copies, "off the heap the bytes go to the slots, else one copy");

      Borrowed second = new Borrowed(bytes(4)); // another thread's read of the same block
      cache.admitData(KEY.fileNumber(), KEY.offset(), second);
      assertEquals(0, second.copies, "a block the cache holds is not copied again");
      CachedBlock held = cache.getIfPresent(KEY, BlockKind.DATA);
      assertFalse(held.borrowed());
      assertArrayEquals(bytes(3), bytesOf(held));
      cache.checkInvariants();
    } finally {
      cache.close();
    }
  }

  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void waitersOfABorrowedLoad_getACopyOrLookAgain(boolean offHeap) throws Exception {
    ClockBlockCache cache = new ClockBlockCache(1 << 20, 1, offHeap);
    Borrowed mine = new Borrowed(bytes(2));
    CountDownLatch loading = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread loader = new Thread(() -> {
      try {
        CachedBlock got = cache.getOrLoad(KEY, BlockKind.DATA, () -> {
          loading.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            throw new IOException(e);
          }
          return mine;
        });
        assertSame(mine, got);
        Arrays.fill(mine.buffer, (byte) 0); // reused before the waiters read what they got
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      }
    });
    try {
      loader.start();
      loading.await();
      List<Thread> waiters = new ArrayList<>();
      List<CachedBlock> seen = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int i = 0; i < 4; i++) {
        Thread w = new Thread(() -> {
          try {
            CachedBlock b = cache.getOrLoad(KEY, BlockKind.DATA, () -> {
              throw new AssertionError("a waiter loaded: the load's block was not cached");
            });
            seen.add(b);
            // Read before the test ends, as a reader would: an off-heap view only under a reference.
            assertArrayEquals(bytes(2), bytesOf(b));
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          }
        });
        waiters.add(w);
        w.start();
      }
      for (Thread w : waiters) { // each parked on the load's future before the load completes
        while (w.getState() != Thread.State.WAITING) {
          assertTrue(w.isAlive(), "a waiter ended before the load completed");
          Thread.onSpinWait();
        }
      }
      release.countDown();
      loader.join();
      for (Thread w : waiters) {
        w.join();
      }
      if (failure.get() != null) {
        throw new AssertionError(failure.get());
      }
      assertEquals(4, seen.size());
      for (CachedBlock b : seen) {
        assertNotSame(mine, b);
        assertFalse(b.borrowed());
      }
      assertEquals(1, cache.stats().data().misses());
    } finally {
      release.countDown();
      cache.close();
    }
  }

  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void aPinnedBorrowedBlock_isPinnedAsACopy(boolean offHeap) throws IOException {
    ClockBlockCache cache = new ClockBlockCache(1 << 20, 1, offHeap);
    try {
      Borrowed mine = new Borrowed(bytes(3));
      cache.getOrLoadPinned(KEY, BlockKind.INDEX, () -> mine); // metadata stays on the heap
      Arrays.fill(mine.buffer, (byte) 0);
      CachedBlock held = cache.getIfPresent(KEY, BlockKind.INDEX);
      assertNotSame(mine, held);
      assertArrayEquals(bytes(3), bytesOf(held));
      cache.checkInvariants();
    } finally {
      cache.close();
    }
  }

  /**
   * Pinned metadata fills the cache, so a data block finds no room above it: refused, and never
   * copied (a copy per refused miss was garbage at the rate of the misses), whether loaded or
   * offered ({@link ClockBlockCache#admitData}).
   */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void aBorrowedBlockTheCacheRefuses_isNeverCopied(boolean offHeap) throws IOException {
    ClockBlockCache cache = new ClockBlockCache(64 << 10, 1, offHeap);
    try {
      for (int i = 0; i < 8; i++) {
        OffHeapBlockCacheTest.Payload filter = OffHeapBlockCacheTest.Payload.of(i, 8 << 10);
        cache.getOrLoadPinned(new BlockCacheKey(9, 8192L * i), BlockKind.FILTER, () -> filter);
      }
      Borrowed mine = new Borrowed(bytes(4));
      assertSame(mine, cache.getOrLoad(KEY, BlockKind.DATA, () -> mine));
      assertNull(cache.getIfPresent(KEY, BlockKind.DATA), "no room for data: not cached");
      assertEquals(0, mine.copies, "a refused block is never copied");
      Borrowed read = new Borrowed(bytes(5)); // a Get's miss, read without a loader
      cache.admitData(KEY.fileNumber(), KEY.offset(), read);
      assertNull(cache.getIfPresent(KEY, BlockKind.DATA));
      assertEquals(0, read.copies, "nor is one offered by admitData");
      cache.checkInvariants();
    } finally {
      cache.close();
    }
  }

  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void aBorrowedBlockTooLargeToCache_isNotKept(boolean offHeap) throws IOException {
    ClockBlockCache cache = new ClockBlockCache(8 << 10, 1, offHeap);
    try {
      Borrowed mine = new Borrowed(new byte[64 << 10]);
      assertSame(mine, cache.getOrLoad(KEY, BlockKind.DATA, () -> mine));
      assertNull(cache.getIfPresent(KEY, BlockKind.DATA));
      cache.checkInvariants();
    } finally {
      cache.close();
    }
  }
}
