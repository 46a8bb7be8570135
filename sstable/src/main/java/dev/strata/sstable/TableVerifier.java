package dev.strata.sstable;

import static dev.strata.sstable.format.SstableFormat.FOOTER_BYTES;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockCursor;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.CompactCursor;
import dev.strata.sstable.block.EntryCursor;
import dev.strata.sstable.filter.FilterIndex;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.index.IndexCursor;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Checks a whole open table against its checksums and its own statements ({@link
 * TableReader#verifyChecksums}): every block read from the file past the cache, the footer, filter
 * index and top index level too, so a damaged block is found even where the cache or the open
 * reader holds a good copy. One check and done.
 */
final class TableVerifier {
  private final BlockFetcher fetcher;
  private final Path path;
  private final TableProperties properties;

  TableVerifier(BlockFetcher fetcher, Path path, TableProperties properties) {
    this.fetcher = fetcher;
    this.path = path;
    this.properties = properties;
  }

  /**
   * Reads every block from the file and checks it: footer, properties, filter index and every
   * chunk, row-tombstone filter, index and every data block, entry order, and the counts and keys
   * the properties state.
   *
   * @throws CorruptTableException at the first damaged block, including a filter chunk
   */
  void verify() throws IOException {
    Footer footer = fetcher.readFooter();
    fetcher.readProperties(footer.properties());
    FilterIndex filterIndex = FilterIndex.from(fetcher.readBlock(footer.filterIndex(), BlockType.FILTER_INDEX),
        fetcher.fileSize() - FOOTER_BYTES, path);
    for (int i = 0; i < filterIndex.chunkCount(); i++) {
      fetcher.readFilter(filterIndex.handle(i), BlockType.FILTER_CHUNK, footer.version());
      if (i > 0 && compareCellKeys(filterIndex.lastKey(i - 1), filterIndex.lastKey(i)) >= 0) {
        throw new CorruptTableException(path, footer.filterIndex().offset(), "filter index keys out of order at %d", i);
      }
    }
    if (!footer.rowTombstoneFilter().equals(BlockHandle.NONE)) {
      fetcher.readFilter(footer.rowTombstoneFilter(), BlockType.ROW_TOMBSTONE_FILTER, footer.version());
    }
    boolean twoLevel = footer.version() >= SstableFormat.VERSION_PARTITIONED_INDEX;
    IndexCursor ic = twoLevel
        ? IndexCursor.twoLevel(fetcher.readBlock(footer.index(), TableOpener.topIndexType(footer.version())),
            top -> verifiedPartition(top, TableOpener.partitionType(footer.version())))
        : IndexCursor.oneLevel(fetcher.readBlock(footer.index(), BlockType.INDEX));
    BlockCursor dc = new BlockCursor();
    InternalKey previous = null;
    InternalKey previousIndexKey = null;
    long entries = 0;
    long blocks = 0;
    for (ic.seekToFirst(); ic.isValid(); ic.next(), blocks++) {
      InternalKey indexKey = KeyCodec.decodeInternalKey(ic.keyBytes(), 0, ic.keyLength());
      if (previousIndexKey != null && InternalKey.compare(previousIndexKey, indexKey) >= 0) {
        throw new CorruptTableException(path, ic.block().fileOffset, "index key %s out of order after %s",
            indexKey, previousIndexKey);
      }
      BlockHandle h = fetcher.handleIn(ic.block(), ic.valueOffset(), "data block");
      Block data = fetcher.readBlock(h, BlockType.DATA);
      dc.reset(data);
      for (dc.seekToFirst(); dc.isValid(); dc.next()) {
        InternalKey k = KeyCodec.decodeInternalKey(dc.keyBytes(), 0, dc.keyLength());
        if (previous != null ? InternalKey.compare(previous, k) >= 0 : !k.equals(properties.smallestKey())) {
          throw new CorruptTableException(path, h.offset(), "key %s out of order after %s", k, previous);
        }
        if (InternalKey.compare(k, indexKey) > 0
            || (previousIndexKey != null && InternalKey.compare(k, previousIndexKey) <= 0)) {
          throw new CorruptTableException(path, h.offset(), "key %s outside its block's index range", k);
        }
        previous = k;
        entries++;
      }
      previousIndexKey = indexKey;
    }
    if (entries != properties.entryCount() || blocks != properties.dataBlockCount()
        || previous == null || !previous.equals(properties.largestKey())) {
      throw new CorruptTableException(path, footer.index().offset(), "%d entries in %d blocks ending at %s,"
          + " properties say %d in %d ending at %s", entries, blocks, previous,
          properties.entryCount(), properties.dataBlockCount(), properties.largestKey());
    }
  }

  /**
   * An index partition read from disk past the cache, for {@link #verify}: its last key
   * must be the top-level key that names it, or a seek could pass over its entries.
   */
  private Block verifiedPartition(EntryCursor top, BlockType type) throws IOException {
    BlockHandle h = fetcher.handleIn(top.block(), top.valueOffset(), "index partition");
    Block partition = fetcher.readBlock(h, type);
    EntryCursor last = partition.isCompactIndex() ? new CompactCursor() : new BlockCursor();
    last.reset(partition);
    last.seekToLast();
    if (!last.isValid()
        || !Arrays.equals(last.keyBytes(), 0, last.keyLength(), top.keyBytes(), 0, top.keyLength())) {
      throw new CorruptTableException(path, h.offset(), "index partition's last key is not its top-level key");
    }
    return partition;
  }

  private static int compareCellKeys(byte[] a, byte[] b) {
    int ra = Bytes.getU16(a, 0);
    byte[] row = Arrays.copyOfRange(a, SstableFormat.ROW_LENGTH_BYTES, SstableFormat.ROW_LENGTH_BYTES + ra);
    byte[] column = Arrays.copyOfRange(a, SstableFormat.ROW_LENGTH_BYTES + ra, a.length);
    return KeyCodec.compareCell(row, column, b, 0, b.length);
  }
}
