package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader keeps the cache entries of the filter chunks and index partitions it read, and a hit
 * goes through them; a block the cache evicted or dropped on close is read again, never served from
 * a kept entry.
 */
final class KeptEntriesTest {
  private static final byte[] EMPTY = new byte[0];
  private static final int ROWS = 20_000;

  @TempDir Path dir;

  private static byte[] row(long i) {
    return String.format("row%09d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private Path writeRows() throws IOException {
    Path file = dir.resolve(SstableFormat.fileName(1));
    byte[] value = new byte[8];
    try (TableWriter w = TableWriter.create(file, TableOptions.defaults().withFilterChunkBytes(1024))) {
      for (long i = 0; i < ROWS; i++) {
        w.add(new InternalKey(row(i), EMPTY, i + 1, ValueKind.PUT), value);
      }
      w.finish();
    }
    return file;
  }

  private static TableReadStats get(TableReader t, ReadCounters counters, long i) throws IOException {
    TableReadStats before = counters.snapshot();
    GetResult r = t.get(FilterProbe.of(row(i), EMPTY), InternalKey.MAX_SEQUENCE);
    assertNotNull(r.cell(), "row " + i);
    assertEquals(i + 1, r.cell().sequence());
    return counters.snapshot().minus(before);
  }

  @Test
  void hitsGoThroughKeptEntries_countedByCacheAndReader() throws IOException {
    ReadCounters counters = new ReadCounters();
    ClockBlockCache cache = new ClockBlockCache(64 << 20, 1);
    try (TableReader t = TableReader.open(writeRows(), 1, cache, counters)) {
      assertEquals(1, get(t, counters, 7).filterChunksRead());
      long cacheHits = cache.stats().filter().hits();
      for (int n = 1; n <= 3; n++) {
        TableReadStats d = get(t, counters, 7);
        assertEquals(0, d.filterChunksRead() + d.indexBlocksRead(), "cached: " + d);
        assertEquals(1, d.filterChunkCacheHits());
        assertEquals(1, d.indexBlockCacheHits());
        assertEquals(cacheHits + n, cache.stats().filter().hits(), "the cache counts the hit too");
      }
    }
  }

  @Test
  void evictedChunksAndPartitions_areReadAgain_notServedFromAKeptEntry() throws IOException {
    ReadCounters counters = new ReadCounters();
    ClockBlockCache cache = new ClockBlockCache(8 << 10, 1); // a few chunks of 1 KiB
    try (TableReader t = TableReader.open(writeRows(), 1, cache, counters)) {
      assertTrue(t.properties().filterChunkCount() > 10);
      get(t, counters, 0);
      get(t, counters, 0); // kept now
      for (long i = 0; i < ROWS; i += 97) { // every chunk and partition: the first ones are evicted
        get(t, counters, i);
      }
      assertTrue(cache.stats().filter().evictions() > 0 && cache.stats().index().evictions() > 0);
      TableReadStats d = get(t, counters, 0);
      assertEquals(1, d.filterChunksRead(), "the evicted chunk is read again: " + d);
      assertEquals(1, d.indexBlocksRead(), "the evicted partition is read again: " + d);
      cache.close(); // drops every block: a kept entry must not serve one
      d = get(t, counters, ROWS - 1);
      assertEquals(1, d.filterChunksRead(), "after the cache closed: " + d);
      assertEquals(1, d.indexBlocksRead(), "after the cache closed: " + d);
    }
  }
}
