package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.RandomCells;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TableWriter#cacheMetadataIn}: a reader of the finished table, through the same cache,
 * finds every filter chunk and index partition there (Gets read none from disk, whatever the
 * filter kind), the puts count no miss, and {@code evictFiles} gives the memory back.
 */
final class CacheOnWriteTest {
  @TempDir Path dir;

  @Test
  void getsOnATableWrittenThroughTheCache_readNoMetadataFromDisk() throws IOException {
    long seed = new Random().nextLong();
    System.out.println("CacheOnWriteTest seed " + seed);
    List<Entry> entries = new RandomCells(new Random(seed)).entries(3_000);
    long number = 0;
    for (FilterKind kind : FilterKind.values()) {
      number++;
      TableOptions options = new TableOptions(256, FilterType.ROWCOL, 10, 256, BlockCompression.LZ4, 0, kind);
      ClockBlockCache cache = new ClockBlockCache(64 << 20, 4);
      Path file = dir.resolve(SstableFormat.fileName(number));
      try (TableWriter w = TableWriter.create(file, options)) {
        w.cacheMetadataIn(cache, number);
        for (Entry e : entries) {
          w.add(e.key(), e.value());
        }
        w.finish();
      }
      assertEquals(0, cache.stats().filter().misses() + cache.stats().index().misses(), "puts are no misses");
      assertTrue(cache.stats().metadataBytesHeld() > 0);
      ReadCounters counters = new ReadCounters();
      try (TableReader t = TableReader.open(file, number, cache, counters)) {
        for (Entry e : entries) {
          assertNotNull(t.get(FilterProbe.of(e.key().row(), e.key().column()), InternalKey.MAX_SEQUENCE).cell(),
              kind + " seed " + seed);
        }
      }
      TableReadStats s = counters.snapshot();
      assertEquals(0, s.filterChunksRead(), kind + ": " + s);
      assertEquals(0, s.indexBlocksRead(), kind + ": " + s);
      assertTrue(s.filterChunkCacheHits() > 0, kind + ": " + s);
      cache.evictFiles(Set.of(number + 1)); // another table's: nothing goes
      long held = cache.stats().metadataBytesHeld();
      assertTrue(held > 0);
      cache.evictFiles(Set.of(number));
      assertEquals(0, cache.stats().metadataBytesHeld(), "the deleted table's metadata is gone");
      assertEquals(0, cache.stats().blocksHeld());
    }
  }
}
