package dev.strata.sstable;

import static dev.strata.sstable.StoredBlocks.loadFilter;
import static dev.strata.sstable.StoredBlocks.readBlock;
import static dev.strata.sstable.StoredBlocks.readFully;
import static dev.strata.sstable.format.SstableFormat.FOOTER_BYTES;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockCursor;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.filter.FilterIndex;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.index.IndexCursor;
import dev.strata.sstable.io.TableFile;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Checks a whole open table against its checksums and its own statements ({@link
 * TableReader#verifyChecksums}): every block read from disk past the cache, so a damaged block the
 * cache holds a good copy of is still found. One check and done; holds what the reader pinned at
 * open (footer, filter index, top index level) and reads the rest.
 */
final class TableVerifier {
  private final TableReader reader;
  private final TableFile channel;
  private final Path path;
  private final Footer footer;
  private final TableProperties properties;
  private final FilterIndex filterIndex;
  /** The reader's pinned top index level; null for a one-level index. */
  private final Block topIndex;

  TableVerifier(TableReader reader, TableFile channel, Footer footer, FilterIndex filterIndex, Block topIndex) {
    this.reader = reader;
    this.channel = channel;
    this.path = reader.path();
    this.footer = footer;
    this.properties = reader.properties();
    this.filterIndex = filterIndex;
    this.topIndex = topIndex;
  }

  /**
   * Reads every block from disk and checks it, as {@link TableReader#verifyChecksums} says.
   *
   * @throws CorruptTableException at the first damaged block, including a filter chunk
   */
  void verify() throws IOException {
    long footerOffset = reader.fileSize() - FOOTER_BYTES;
    Footer.decode(readFully(channel, path, footerOffset, FOOTER_BYTES), path, footerOffset);
    for (int i = 0; i < filterIndex.chunkCount(); i++) {
      loadFilter(channel, path, filterIndex.handle(i), BlockType.FILTER_CHUNK, footer.version());
      if (i > 0 && compareCellKeys(filterIndex.lastKey(i - 1), filterIndex.lastKey(i)) >= 0) {
        throw new CorruptTableException(path, footer.filterIndex().offset(), "filter index keys out of order at %d", i);
      }
    }
    if (!footer.rowTombstoneFilter().equals(BlockHandle.NONE)) {
      loadFilter(channel, path, footer.rowTombstoneFilter(), BlockType.ROW_TOMBSTONE_FILTER, footer.version());
    }
    IndexCursor ic = topIndex == null
        ? IndexCursor.oneLevel(readBlock(channel, path, footer.index(), BlockType.INDEX))
        : IndexCursor.twoLevel(topIndex, this::verifiedPartition);
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
      BlockHandle h = reader.dataHandle(ic.block(), ic.valueOffset());
      Block data = readBlock(channel, path, h, BlockType.DATA);
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
  private Block verifiedPartition(BlockCursor top) throws IOException {
    BlockHandle h = reader.handleIn(top.block(), top.valueOffset(), "index partition");
    Block partition = readBlock(channel, path, h, BlockType.INDEX_PARTITION);
    BlockCursor last = new BlockCursor();
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
