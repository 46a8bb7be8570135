package dev.strata.sstable;

import static dev.strata.sstable.format.SstableFormat.FOOTER_BYTES;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.filter.FilterIndex;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.io.TableFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Opens a table ({@link TableReader#open}): reads and checks what the reader holds for as long as it
 * is open, and builds the reader's parts from it. It reads the file's end in one read first
 * ({@link #TAIL_GUESS_BYTES}, one more when the blocks it needs start before that), and takes the
 * footer, properties, filter index and index root from it. The footer (magic, checksum, version range), the
 * properties (their format version must be the footer's), the filter index (as many chunks as the
 * properties say, none without a filter), the row-tombstone filter's handle (present exactly under
 * {@code ROWCOL} with row tombstones), and the top level of a version-3 index. Reads no data block
 * and no filter chunk, unless asked to pin ({@link MetadataPins}): then every filter chunk, and
 * with {@link MetadataPins#FILTERS_AND_INDEX} every index partition (the one index block of an
 * older table), is loaded into the cache pinned, so a Get never reads them from disk while the
 * table is open. An older table's one index block is otherwise loaded through the cache.
 *
 * <p>Stateless.
 */
final class TableOpener {
  /**
   * Bytes of a table's end the open reads in one read before it looks at the footer: enough for
   * the footer, properties, filter index and index root of a 64 MiB table (about 16 KiB); a larger
   * tail costs one more read ({@link BlockFetcher#coverTail}).
   */
  static final int TAIL_GUESS_BYTES = 32 * 1024;

  private TableOpener() {}

  /** See {@link TableReader#open(Path, long, BlockCache, ReadCounters, MetadataPins, TableReadOptions)}. */
  static TableReader open(Path file, long fileNumber, BlockCache cache, ReadCounters counters,
      MetadataPins pins, TableReadOptions readOptions) throws IOException {
    return open(file, fileNumber, cache, counters, pins, readOptions, TAIL_GUESS_BYTES);
  }

  /** {@link #open(Path, long, BlockCache, ReadCounters, MetadataPins, TableReadOptions)} reading {@code tailGuessBytes} first. */
  static TableReader open(Path file, long fileNumber, BlockCache cache, ReadCounters counters,
      MetadataPins pins, TableReadOptions readOptions, int tailGuessBytes) throws IOException {
    TableFile ch = TableFile.open(file, readOptions.directReads());
    BlockFetcher fetcher = null;
    boolean ok = false;
    try {
      long size = ch.size();
      fetcher = new BlockFetcher(file, fileNumber, ch, size, readOptions.compactionReadaheadBytes(), cache, counters);
      fetcher.readTail(tailGuessBytes);
      Footer footer = fetcher.readFooter();
      fetcher.coverTail(Math.min(footer.properties().offset(),
          Math.min(footer.filterIndex().offset(), footer.index().offset())));
      TableProperties properties = fetcher.readProperties(footer.properties());
      if (properties.formatVersion() != footer.version()) {
        throw new CorruptTableException(file, footer.properties().offset(),
            "properties say format version %d, footer %d", properties.formatVersion(), footer.version());
      }
      long footerOffset = size - FOOTER_BYTES;
      FilterIndex filterIndex = readFilterIndex(fetcher, file, footer, properties, footerOffset);
      BlockHandle rowTombstoneFilter = rowTombstoneFilter(file, footer, properties, footerOffset);
      boolean twoLevel = footer.version() >= SstableFormat.VERSION_PARTITIONED_INDEX;
      Block topIndex = twoLevel ? fetcher.readBlock(footer.index(), topIndexType(footer.version())) : null;
      FilterReader filters = new FilterReader(properties, filterIndex, rowTombstoneFilter, fetcher, cache, counters);
      IndexReader index = new IndexReader(footer.index(), topIndex, fetcher, cache, counters);
      boolean pin = pins != MetadataPins.NONE && fetcher.canPin();
      if (pin) {
        filters.pinAll();
      }
      if (pin && pins == MetadataPins.FILTERS_AND_INDEX) {
        index.pinAll();
      } else {
        index.loadAtOpen();
      }
      counters.countReadAtOpen(FOOTER_BYTES + footer.properties().storedLength()
          + footer.filterIndex().storedLength() + (twoLevel ? footer.index().storedLength() : 0));
      fetcher.dropTail();
      TableReader reader = new TableReader(file, fileNumber, properties, fetcher, filters, index, counters);
      ok = true;
      return reader;
    } finally {
      if (!ok) {
        if (fetcher != null) {
          fetcher.unpinAll(); // a damaged index partition fails the open after some pins
        }
        ch.close();
      }
    }
  }

  /** The block type of the top level of a two-level index of format {@code version}. */
  static BlockType topIndexType(int version) {
    return version >= SstableFormat.VERSION_COMPACT_INDEX ? BlockType.COMPACT_INDEX : BlockType.INDEX;
  }

  /** The block type of the partitions of a two-level index of format {@code version}. */
  static BlockType partitionType(int version) {
    return version >= SstableFormat.VERSION_COMPACT_INDEX ? BlockType.COMPACT_INDEX_PARTITION : BlockType.INDEX_PARTITION;
  }

  /** The filter index, which must list as many chunks as the properties say (none without a filter). */
  private static FilterIndex readFilterIndex(BlockFetcher fetcher, Path file, Footer footer,
      TableProperties properties, long footerOffset) throws IOException {
    FilterIndex filterIndex = FilterIndex.from(fetcher.readBlock(footer.filterIndex(), BlockType.FILTER_INDEX),
        footerOffset, file);
    if (filterIndex.chunkCount() != properties.filterChunkCount()
        || (properties.filterType() == FilterType.NONE && filterIndex.chunkCount() != 0)) {
      throw new CorruptTableException(file, footer.filterIndex().offset(),
          "filter index of %d chunks, properties say %d of type %s",
          filterIndex.chunkCount(), properties.filterChunkCount(), properties.filterType());
    }
    return filterIndex;
  }

  /**
   * The row-tombstone filter's handle, or null: a table has one exactly when it is {@code ROWCOL}
   * and holds row tombstones.
   */
  private static BlockHandle rowTombstoneFilter(Path file, Footer footer, TableProperties properties,
      long footerOffset) throws CorruptTableException {
    boolean wanted = properties.filterType() == FilterType.ROWCOL && properties.rowTombstoneCount() > 0;
    if (wanted == footer.rowTombstoneFilter().equals(BlockHandle.NONE)) {
      throw new CorruptTableException(file, footerOffset, "row-tombstone filter handle %s with %d row"
          + " tombstones under %s", footer.rowTombstoneFilter(), properties.rowTombstoneCount(),
          properties.filterType());
    }
    return wanted ? footer.rowTombstoneFilter() : null;
  }
}
