package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.testing.CorruptFiles;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.RandomCells;
import dev.strata.sstable.testing.TableModel;
import dev.strata.sstable.testing.Tables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pinning open keeps every filter chunk (and the row-tombstone filter) off the heap, for both
 * filter kinds: the chunks the cache pins are direct memory, every Get answers as the model says,
 * damage to a chunk is counted and answered "maybe", a cut stretch fails the open, and a closed
 * table's chunks leave the cache and its charge (their direct memory then goes with the chunks).
 */
final class PinnedFiltersOffHeapTest {
  @TempDir Path dir;

  private List<Entry> entries;
  private TableModel model;

  private Path write(FilterKind kind) throws IOException {
    entries = new RandomCells(new Random(11)).tombstones(0.3, 0.1).maxValueBytes(40).entries(600);
    model = new TableModel(entries);
    Path file = dir.resolve("000001.sst");
    TableOptions options = new TableOptions(256, FilterType.ROWCOL, 10, 64, BlockCompression.LZ4)
        .withFilterKind(kind);
    Tables.write(file, options, entries);
    return file;
  }

  @ParameterizedTest
  @EnumSource(FilterKind.class)
  void pinnedChunks_lieOffTheHeap_andAnswerEveryGet(FilterKind kind) throws Exception {
    Path file = write(kind);
    TableRegions regions = TableRegions.of(file);
    ClockBlockCache cache = new ClockBlockCache(1 << 20);
    ReadCounters counters = new ReadCounters();
    try (TableReader reader = TableReader.open(file, 1, cache, counters, true)) {
      List<FilterChunk> pinned = pinnedFilters(cache, regions);
      assertTrue(pinned.size() > 3, pinned.size() + " filter blocks");
      for (FilterChunk c : pinned) {
        assertTrue(c.offHeap(), kind + " chunk off the heap");
      }
      assertTrue(pinned.stream().anyMatch(c -> c.kind() == kind), "chunks of " + kind);
      assertEquals(0, counters.snapshot().filterChunksCorrupt());
      checkEveryGet(reader);
    }
  }

  /** A flipped bit in any chunk of either kind, where the open reads it off the heap. */
  @ParameterizedTest
  @EnumSource(FilterKind.class)
  void flippedBit_inAChunk_isCountedAndGetsStayRight(FilterKind kind) throws Exception {
    Path original = write(kind);
    TableRegions regions = TableRegions.of(original);
    int n = 0;
    for (TableRegions.Region r : regions.regions()) {
      if (!isFilter(r)) {
        continue;
      }
      for (long off : new long[] {r.offset(), r.offset() + r.length() / 2, r.end() - 5, r.end() - 1}) {
        Path copy = CorruptFiles.copy(original, dir.resolve(String.format("%06d.sst", 100 + n++)));
        CorruptFiles.flipBit(copy, off, (int) (off % 8));
        String what = kind + " bit flip at " + off + " in " + r.name();
        ReadCounters counters = new ReadCounters();
        try (TableReader reader = TableReader.open(copy, 1, new ClockBlockCache(1 << 20), counters, true)) {
          assertEquals(1, counters.snapshot().filterChunksCorrupt(), what + ": counted as the open pinned it");
          checkEveryGet(reader);
        }
      }
    }
    assertTrue(n >= 16, n + " flips");
  }

  /** A file cut inside or at either end of the stretch of chunks fails the pinning open. */
  @ParameterizedTest
  @EnumSource(FilterKind.class)
  void cutStretch_failsThePinningOpen(FilterKind kind) throws Exception {
    Path original = write(kind);
    TableRegions regions = TableRegions.of(original);
    List<TableRegions.Region> chunks = regions.regions().stream().filter(PinnedFiltersOffHeapTest::isFilter).toList();
    long first = chunks.get(0).offset();
    long last = chunks.get(chunks.size() - 1).end();
    int n = 0;
    for (long cut : new long[] {first, first + 1, (first + last) / 2, last - 1, last}) {
      Path copy = CorruptFiles.copy(original, dir.resolve(String.format("%06d.sst", 300 + n++)));
      CorruptFiles.truncate(copy, cut);
      assertThrows(CorruptTableException.class,
          () -> TableReader.open(copy, 1, new ClockBlockCache(1 << 20), new ReadCounters(), true).close(),
          kind + " cut at " + cut);
    }
  }

  /**
   * Closing the reader unpins its chunks; once the cache lets them go (the file's blocks dropped,
   * as after a compaction) the cache charges nothing for them and neither it nor the reader holds
   * them, so the collector frees their direct memory with the chunks (PinnedFilterReads says why
   * not explicitly).
   */
  @ParameterizedTest
  @EnumSource(FilterKind.class)
  void closedTable_releasesItsPinnedMemory(FilterKind kind) throws Exception {
    Path file = write(kind);
    TableRegions regions = TableRegions.of(file);
    ClockBlockCache cache = new ClockBlockCache(1 << 20);
    TableReader reader = TableReader.open(file, 1, cache, new ReadCounters(), true);
    long chunkBytes = 0;
    for (FilterChunk c : pinnedFilters(cache, regions)) {
      chunkBytes += c.sizeBytes();
    }
    long filterBits = regions.regions().stream().filter(PinnedFiltersOffHeapTest::isFilter).mapToLong(r -> r.length()).sum();
    assertTrue(cache.stats().pinnedBytesHeld() >= chunkBytes, cache.stats() + " charges the pinned chunks");
    assertTrue(chunkBytes >= filterBits * 9 / 10, chunkBytes + " charged for " + filterBits + " stored bytes");

    long held = cache.stats().bytesHeld();
    reader.close();
    assertEquals(0, cache.stats().pinnedBytesHeld(), "unpinned at close");
    cache.evictFiles(Set.of(1L));
    assertTrue(cache.stats().bytesHeld() <= held - chunkBytes, cache.stats() + " no longer charges " + chunkBytes);
    for (TableRegions.Region r : regions.regions()) {
      if (isFilter(r)) {
        assertNull(cache.getIfPresent(new BlockCacheKey(1, r.offset()), BlockKind.FILTER), r.name() + " left the cache");
      }
    }
    assertEquals(0, reader.pinnedBlocks(), "the closed reader holds no pin");
  }

  private static boolean isFilter(TableRegions.Region r) {
    return r.type() == BlockType.FILTER_CHUNK || r.type() == BlockType.ROW_TOMBSTONE_FILTER;
  }

  private static List<FilterChunk> pinnedFilters(ClockBlockCache cache, TableRegions regions) {
    List<FilterChunk> out = new ArrayList<>();
    for (TableRegions.Region r : regions.regions()) {
      if (isFilter(r)) {
        FilterChunk c = cache.getIfPresent(new BlockCacheKey(1, r.offset()), BlockKind.FILTER);
        assertNotNull(c, r.name() + " pinned");
        out.add(c);
      }
    }
    assertFalse(out.isEmpty());
    return out;
  }

  private void checkEveryGet(TableReader reader) throws Exception {
    for (Entry e : entries) {
      TableRoundTripProperties.checkGet(model, reader, e.key().row(), e.key().column(), InternalKey.MAX_SEQUENCE);
      TableRoundTripProperties.checkGet(model, reader, e.key().row(), new byte[] {9, 9, 9}, InternalKey.MAX_SEQUENCE);
    }
  }
}
