package dev.strata.sstable.cache;

import java.io.IOException;

/** A block of a given heap cost, and the calls the cache tests make with it. */
record Blob(int sizeBytes) implements CachedBlock {

  static BlockCacheKey key(long offset) {
    return new BlockCacheKey(1, offset);
  }

  /** The cached block at {@code offset}, loading a blob of {@code bytes} on a miss. */
  static Blob get(BlockCache cache, long offset, BlockKind kind, int bytes) throws IOException {
    return cache.getOrLoad(key(offset), kind, () -> new Blob(bytes));
  }

  /** Whether the block at {@code offset} is cached (a hit); a miss loads and caches a small blob. */
  static boolean cached(BlockCache cache, long offset, BlockKind kind) throws IOException {
    boolean[] loaded = {false};
    cache.getOrLoad(key(offset), kind, () -> {
      loaded[0] = true;
      return new Blob(1);
    });
    return !loaded[0];
  }

  /** Sleeps inside a loader, which may throw only IOException. */
  static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException();
    }
  }

  /** Awaits {@code latch} inside a loader. */
  static void await(java.util.concurrent.CountDownLatch latch) throws IOException {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException();
    }
  }

  /** What the cache charges for a blob of {@code bytes}. */
  static long charge(int bytes) {
    return (long) bytes + ClockBlockCache.ENTRY_BYTES;
  }
}
