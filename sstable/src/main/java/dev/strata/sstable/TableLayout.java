package dev.strata.sstable;

import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockLocation;
import dev.strata.sstable.filter.FilterChunkInfo;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.index.IndexCursor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where an open table's blocks lie and what its open holds, for tools ({@code inspect}) and tests,
 * as Pebble's {@code Layout} describes a table: the filter chunks (from the filter index the open
 * holds), the data blocks (walking the index through the block cache), and the sizes of what the
 * open read and keeps. Valid while its reader is open.
 *
 * <p>Thread-safe, as the reader is.
 */
public final class TableLayout {
  private final FilterReader filters;
  private final IndexReader index;
  private final BlockFetcher fetcher;

  TableLayout(FilterReader filters, IndexReader index, BlockFetcher fetcher) {
    this.filters = filters;
    this.index = index;
    this.fetcher = fetcher;
  }

  /** The file's length in bytes. */
  public long fileSize() {
    return fetcher.fileSize();
  }

  /** Each filter chunk's location and last filter key, in key order (from memory). */
  public List<FilterChunkInfo> filterChunks() {
    return filters.chunkInfos();
  }

  /**
   * Each filter chunk's kind (Bloom or Ribbon), in key order: reads every chunk from the file.
   *
   * @throws dev.strata.sstable.format.CorruptTableException when a chunk is damaged
   */
  public List<FilterKind> filterChunkKinds() throws IOException {
    int n = filters.chunkInfos().size();
    List<FilterKind> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(filters.chunkKind(i));
    }
    return out;
  }

  /** Each data block's location, in key order (reads the index through the cache). */
  public List<BlockLocation> dataBlocks() throws IOException {
    List<BlockLocation> out = new ArrayList<>();
    IndexCursor c = index.cursor();
    for (c.seekToFirst(); c.isValid(); c.next()) {
      BlockHandle h = fetcher.handleIn(c.block(), c.valueOffset(), "data block");
      out.add(new BlockLocation(h.offset(), h.length()));
    }
    return out;
  }

  /**
   * Payload bytes of the index block an open reads whole: the top level of a two-level index, or
   * the one index block of an older table. The writer keeps it within its block limit.
   */
  public long indexRootBytes() {
    return index.rootBytes();
  }

  /**
   * Heap bytes the open reader holds for its index: the top level of a two-level index (its
   * partitions are charged to the block cache, like the one index block of an older table, for
   * which this is 0).
   */
  public long pinnedIndexBytes() {
    return index.topLevelBytes();
  }
}
