package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.CacheStats;
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
    return writeRows(TableOptions.defaults().withFilterChunkBytes(1024));
  }

  private Path writeRows(TableOptions options) throws IOException {
    Path file = dir.resolve(SstableFormat.fileName(1));
    byte[] value = new byte[8];
    try (TableWriter w = TableWriter.create(file, options)) {
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

  /**
   * A batch takes its kept chunks and partitions without an atomic add each, then counts them
   * together: the reader and the cache count what the same keys one by one count.
   */
  @Test
  void aBatchesHitsThroughKeptEntries_areCountedAsTheGetsOneByOneCountThem() throws IOException {
    ReadCounters counters = new ReadCounters();
    ClockBlockCache cache = new ClockBlockCache(64 << 20, 1);
    // Blocks of 256 bytes: an index of over 64 partitions, which a batch searches in lock step.
    Path file = writeRows(TableOptions.defaults().withFilterChunkBytes(1024).withBlockSizeBytes(256));
    try (TableReader t = TableReader.open(file, 1, cache, counters)) {
      long[] rows = {3, 5, 4_000, 4_001, 12_000, 19_999};
      FilterProbe[] probes = new FilterProbe[rows.length];
      CellLookup[] out = new CellLookup[rows.length];
      for (int k = 0; k < rows.length; k++) {
        probes[k] = FilterProbe.of(row(rows[k]), EMPTY);
        out[k] = new CellLookup();
        get(t, counters, rows[k]); // loads, then keeps, every chunk and partition
        get(t, counters, rows[k]);
      }
      TableReadStats before = counters.snapshot();
      CacheStats cacheBefore = cache.stats();
      for (long r : rows) {
        get(t, counters, r);
      }
      TableReadStats oneByOne = counters.snapshot().minus(before);
      long filterHits = cache.stats().filter().hits() - cacheBefore.filter().hits();
      long indexHits = cache.stats().index().hits() - cacheBefore.index().hits();
      before = counters.snapshot();
      cacheBefore = cache.stats();
      t.getAll(probes, probes.length, InternalKey.MAX_SEQUENCE, out);
      TableReadStats batch = counters.snapshot().minus(before);
      for (int k = 0; k < rows.length; k++) {
        assertEquals(rows[k] + 1, out[k].toResult(probes[k].row(), EMPTY).cell().sequence());
      }
      // The batch fetches a chunk or partition once for the keys in it: no more hits than Gets.
      assertTrue(batch.filterChunkCacheHits() > 0 && batch.indexBlockCacheHits() > 0, "" + batch);
      assertTrue(batch.filterChunkCacheHits() <= oneByOne.filterChunkCacheHits(), "" + batch);
      assertEquals(0, batch.filterChunksRead() + batch.indexBlocksRead(), "all kept: " + batch);
      assertEquals(batch.filterChunkCacheHits(), cache.stats().filter().hits() - cacheBefore.filter().hits(),
          "the cache counts the reader's filter hits");
      assertEquals(batch.indexBlockCacheHits(), cache.stats().index().hits() - cacheBefore.index().hits(),
          "the cache counts the reader's index hits");
      assertEquals(oneByOne.filterChunkCacheHits(), filterHits, "and so do Gets");
      assertEquals(oneByOne.indexBlockCacheHits(), indexHits, "and so do Gets");
    }
  }

  @Test
  void evictedChunksAndPartitions_areReadAgain_notServedFromAKeptEntry() throws IOException {
    ReadCounters counters = new ReadCounters();
    ClockBlockCache cache = new ClockBlockCache(8 << 10, 1); // a few chunks of 1 KiB
    // Blocks of 256 bytes: an index of many partitions, which the cache cannot all hold either (with
    // two, it may keep the one every Get hits for good).
    Path file = writeRows(TableOptions.defaults().withFilterChunkBytes(1024).withBlockSizeBytes(256));
    try (TableReader t = TableReader.open(file, 1, cache, counters)) {
      assertTrue(t.properties().filterChunkCount() > 10 && t.properties().indexBytes() > 8 << 10);
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
