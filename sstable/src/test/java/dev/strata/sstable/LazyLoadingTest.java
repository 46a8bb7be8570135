package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Opening a table reads no filter chunk and no data block; a Get reads at most one chunk; and on a
 * table of millions of keys the first Get reads one chunk's worth of filter, not the whole filter.
 */
final class LazyLoadingTest {
  private static final byte[] EMPTY = new byte[0];

  @TempDir Path dir;

  private static byte[] row(long i) {
    return String.format("row%09d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private Path writeRows(long rows, TableOptions options) throws IOException {
    Path file = dir.resolve(SstableFormat.fileName(1));
    byte[] value = new byte[8];
    try (TableWriter w = TableWriter.create(file, options)) {
      for (long i = 0; i < rows; i++) {
        w.add(new InternalKey(row(i), EMPTY, i + 1, ValueKind.PUT), value);
      }
      w.finish();
    }
    return file;
  }

  @Test
  void open_readsNoChunkAndNoDataBlock_getReadsAtMostOneChunk() throws IOException {
    Path file = writeRows(20_000, TableOptions.defaults().withFilterChunkBytes(1024));
    ReadCounters counters = new ReadCounters();
    ClockBlockCache cache = new ClockBlockCache(64 << 20);
    try (TableReader t = TableReader.open(file, 1, cache, counters)) {
      assertTrue(t.properties().filterChunkCount() > 10);
      TableReadStats afterOpen = counters.snapshot();
      assertEquals(0, afterOpen.filterChunksRead());
      assertEquals(0, afterOpen.dataBlocksRead());
      assertEquals(0, afterOpen.indexBlocksRead(), "the top level is pinned, no partition read");
      for (int i = 0; i < 200; i++) {
        TableReadStats before = counters.snapshot();
        t.get(FilterProbe.of(row(i * 97L), EMPTY), InternalKey.MAX_SEQUENCE);
        TableReadStats d = counters.snapshot().minus(before);
        assertTrue(d.filterChunksRead() + d.filterChunkCacheHits() == 1, "one chunk per Get: " + d);
        assertTrue(d.dataBlocksRead() + d.dataBlockCacheHits() == 1, "one data block per Get: " + d);
        assertTrue(d.indexBlocksRead() + d.indexBlockCacheHits() == 1, "one index partition per Get: " + d);
      }
      assertEquals(0, cache.stats().filter().evictions());
    }
  }

  @Test
  void pinnedOpen_loadsEveryChunkAndPartitionPinned_andCloseUnpinsThem() throws IOException {
    Path file = writeRows(20_000, TableOptions.defaults().withFilterChunkBytes(1024).withBlockSizeBytes(1024));
    ReadCounters counters = new ReadCounters();
    ClockBlockCache cache = new ClockBlockCache(64 << 20);
    TableReader t = TableReader.open(file, 1, cache, counters, true);
    long chunks = t.properties().filterChunkCount();
    TableReadStats afterOpen = counters.snapshot();
    assertEquals(chunks, afterOpen.filterChunksRead());
    assertTrue(afterOpen.indexBlocksRead() > 1, "every partition: " + afterOpen);
    assertEquals(0, afterOpen.bytesRead(), "the open's reads are not a Get's");
    assertEquals(chunks + afterOpen.indexBlocksRead(), t.pinnedBlocks());
    assertEquals(cache.stats().metadataBytesHeld(), cache.stats().pinnedBytesHeld());
    for (int i = 0; i < 200; i++) {
      t.get(FilterProbe.of(row(i * 97L), EMPTY), InternalKey.MAX_SEQUENCE);
    }
    TableReadStats d = counters.snapshot().minus(afterOpen);
    assertEquals(0, d.filterChunksRead() + d.indexBlocksRead(), "all pinned: " + d);
    t.close();
    t.close(); // idempotent: unpins once
    assertEquals(0, cache.stats().pinnedBytesHeld());
    assertTrue(cache.stats().metadataBytesHeld() > 0, "unpinned blocks stay cached, evictable");
  }

  /**
   * Filters pinned, index not: every chunk stays in a cache that data blocks and index partitions
   * churn through, so absent Gets whose filter says no read nothing at all (no chunk, no index
   * partition, no data block), and present Gets read their partition and block, never a chunk.
   */
  @Test
  void filtersPinned_absentGetsReadNothing_presentGetsNoChunk_underCachePressure() throws IOException {
    Path file = writeRows(20_000, TableOptions.defaults().withFilterChunkBytes(1024).withBlockSizeBytes(1024));
    ReadCounters counters = new ReadCounters();
    ClockBlockCache cache = new ClockBlockCache(64 << 10, 1); // far smaller than the index and data
    try (TableReader t = TableReader.open(file, 1, cache, counters, MetadataPins.FILTERS,
        TableReadOptions.defaults())) {
      long chunks = t.properties().filterChunkCount();
      TableReadStats afterOpen = counters.snapshot();
      assertEquals(chunks, afterOpen.filterChunksRead());
      assertEquals(0, afterOpen.indexBlocksRead(), "no partition pinned: " + afterOpen);
      assertEquals(chunks, t.pinnedBlocks());
      long pinnedBytes = cache.stats().pinnedBytesHeld();
      assertTrue(pinnedBytes >= t.properties().filterBytes(), "the chunks, charged: " + pinnedBytes);
      for (int i = 0; i < 2_000; i++) {
        long k = i * 7_919L % 20_000;
        GetResult r = t.get(FilterProbe.of(row(k), EMPTY), InternalKey.MAX_SEQUENCE);
        assertEquals(k + 1, r.cell().sequence());
      }
      TableReadStats present = counters.snapshot().minus(afterOpen);
      assertEquals(0, present.filterChunksRead(), "every chunk pinned: " + present);
      assertTrue(present.dataBlocksRead() > 1_000, "the cache churns: " + present);
      assertEquals(pinnedBytes, cache.stats().pinnedBytesHeld());
      int negatives = 0;
      for (int i = 0; i < 2_000; i++) {
        TableReadStats before = counters.snapshot();
        byte[] absent = String.format("row%09dx", i * 7L).getBytes(StandardCharsets.US_ASCII);
        t.get(FilterProbe.of(absent, EMPTY), InternalKey.MAX_SEQUENCE);
        TableReadStats d = counters.snapshot().minus(before);
        assertEquals(0, d.filterChunksRead(), d.toString());
        if (d.dataBlocksRead() + d.dataBlockCacheHits() == 0) { // the filter said no
          negatives++;
          assertEquals(0, d.indexBlocksRead() + d.indexBlockCacheHits(),
              "a filter's no touches no index partition: " + d);
          assertEquals(0, d.bytesRead(), d.toString());
        }
      }
      assertTrue(negatives > 1_900, "at 10 bits per key about 1 % pass: " + negatives);
    }
    assertEquals(0, cache.stats().pinnedBytesHeld(), "close unpins");
  }

  @Test
  void firstGet_onMillionsOfKeys_readsOneChunkNotTheWholeFilter() throws IOException {
    long rows = 2_000_000;
    TableOptions options = TableOptions.defaults().withBlockSizeBytes(16 << 10);
    Path file = writeRows(rows, options);
    ReadCounters counters = new ReadCounters();
    try (TableReader t = TableReader.open(file, 1, new ClockBlockCache(64 << 20), counters)) {
      TableProperties p = t.properties();
      assertEquals(rows, p.filterKeyCount());
      assertTrue(p.filterChunkCount() >= 15, "chunks: " + p.filterChunkCount());
      long openBytes = counters.snapshot().bytesRead();
      GetResult r = t.get(FilterProbe.of(row(1_234_567), EMPTY), InternalKey.MAX_SEQUENCE);
      assertEquals(1_234_568, r.cell().sequence());
      TableReadStats d = counters.snapshot();
      assertEquals(1, d.filterChunksRead());
      assertEquals(1, d.dataBlocksRead());
      assertEquals(1, d.indexBlocksRead(), "one index partition");
      long getBytes = d.bytesRead() - openBytes;
      long chunkBound = options.filterChunkBytes() + 64 + 16 + SstableFormat.BLOCK_TRAILER_BYTES;
      // One chunk, one index partition and one data block, each about its target size.
      assertTrue(getBytes <= chunkBound + 2 * (16 << 10) + 4096,
          "first Get read " + getBytes + " bytes; filter is " + p.filterBytes());
      assertTrue(getBytes * 10 < p.filterBytes(), "first Get read " + getBytes + " of a " + p.filterBytes() + " byte filter");
    }
  }
}
