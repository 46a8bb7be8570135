package dev.strata.sstable.cache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cache's charge is what its entries really cost on the heap: it fills a cache with data blocks
 * and compares the live heap they added (the JVM's class histogram after a full collection, what
 * {@code jcmd <pid> GC.class_histogram} prints) with the bytes the cache charged for it, less the
 * off-heap slots. Counts objects, times nothing.
 */
final class MeasuredEntryCostTest {
  private static final int BLOCKS = 20_000;
  private static final int LENGTH = 4000;

  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void theChargeCoversTheLiveHeapOfItsEntries_andLittleMore(boolean offHeap) throws Exception {
    // Half as many blocks again as fit: the cache is full, and what it charges up front (the ghost,
    // the arena's links and slabs) has all been allocated.
    long capacity = (long) BLOCKS * (SlabArena.slotBytes(LENGTH) + ClockBlockCache.ENTRY_BYTES);
    long before = liveHeapBytes();
    ClockBlockCache cache = new ClockBlockCache(capacity, 4, offHeap);
    for (long k = 0; k < BLOCKS * 3 / 2; k++) {
      OffHeapBlockCacheTest.Payload p = OffHeapBlockCacheTest.Payload.of(k, LENGTH);
      cache.getOrLoad(Blob.key(k * LENGTH), BlockKind.DATA, () -> p);
    }
    long grown = liveHeapBytes() - before;
    CacheStats s = cache.stats();
    long blocks = s.blocksHeld();
    assertTrue(blocks > BLOCKS / 2 && blocks < BLOCKS * 3 / 2, "held " + blocks);
    // Off the heap: the slots and the slot links the shards charge up front, both direct memory.
    long slots = offHeap ? blocks * SlabArena.slotBytes(LENGTH) + cache.offHeapLinkBytes() : 0;
    long chargedHeap = s.bytesHeld() - slots;
    String what = String.format("heap per block: measured %.1f, charged %.1f", grown / (double) blocks,
        chargedHeap / (double) blocks);
    // What the JVM itself adds while the test runs (class loading, JIT) is far under a byte a block.
    assertTrue(grown <= chargedHeap + blocks, "undercharged: " + what);
    assertTrue(chargedHeap - grown <= chargedHeap / 20, "overcharged by over 5%: " + what);
    cache.close();
  }

  /** Bytes of live objects, after the full collection the histogram runs first. */
  static long liveHeapBytes() throws Exception {
    String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
        new Object[] {new String[0]}, new String[] {String[].class.getName()});
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 3 && f[0].equals("Total")) {
        return Long.parseLong(f[2]);
      }
    }
    throw new IOException("no total in the class histogram");
  }
}
