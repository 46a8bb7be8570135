package dev.strata.sstable;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.filter.FilterIndex;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.index.IndexCursor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The byte regions of a table file (every block with its trailer, and the footer), found by parsing
 * the file the way a reader does; for corruption tests.
 *
 * <p>Immutable.
 */
record TableRegions(long fileSize, List<Region> regions) {

  /** One region: a block (payload and trailer) or the footer. */
  record Region(String name, BlockType type, long offset, long length) {
    long end() {
      return offset + length;
    }
  }

  static TableRegions of(Path file) throws IOException {
    byte[] all = Files.readAllBytes(file);
    long footerOffset = all.length - SstableFormat.FOOTER_BYTES;
    Footer footer = Footer.decode(Arrays.copyOfRange(all, (int) footerOffset, all.length), file, footerOffset);
    List<Region> out = new ArrayList<>();
    out.add(new Region("footer", null, footerOffset, SstableFormat.FOOTER_BYTES));
    out.add(region("properties", BlockType.PROPERTIES, footer.properties()));
    BlockType topType = TableOpener.topIndexType(footer.version());
    BlockType partitionType = TableOpener.partitionType(footer.version());
    out.add(region("index", topType, footer.index()));
    out.add(region("filter index", BlockType.FILTER_INDEX, footer.filterIndex()));
    if (!footer.rowTombstoneFilter().equals(BlockHandle.NONE)) {
      out.add(region("row-tombstone filter", BlockType.ROW_TOMBSTONE_FILTER, footer.rowTombstoneFilter()));
    }
    Block filterIndex = Block.parse(slice(all, footer.filterIndex()), footer.filterIndex().length(),
        BlockType.FILTER_INDEX, file, 0);
    FilterIndex fi = FilterIndex.from(filterIndex, footerOffset, file);
    for (int i = 0; i < fi.chunkCount(); i++) {
      out.add(region("filter chunk " + i, BlockType.FILTER_CHUNK, fi.handle(i)));
    }
    Block index = Block.parse(slice(all, footer.index()), footer.index().length(),
        footer.version() >= SstableFormat.VERSION_PARTITIONED_INDEX ? topType : BlockType.INDEX, file, 0);
    IndexCursor c;
    if (footer.version() >= SstableFormat.VERSION_PARTITIONED_INDEX) {
      int[] partitions = {0};
      c = IndexCursor.twoLevel(index, top -> {
        BlockHandle h = BlockHandle.decodeOrNull(top.block().data, top.valueOffset(), footerOffset);
        out.add(region("index partition " + partitions[0]++, partitionType, h));
        return Block.parse(slice(all, h), h.length(), partitionType, file, h.offset());
      });
    } else {
      c = IndexCursor.oneLevel(index);
    }
    int i = 0;
    for (c.seekToFirst(); c.isValid(); c.next(), i++) {
      BlockHandle h = BlockHandle.decodeOrNull(c.block().data, c.valueOffset(), footerOffset);
      out.add(region("data block " + i, BlockType.DATA, h));
    }
    out.sort((a, b) -> Long.compare(a.offset, b.offset));
    return new TableRegions(all.length, List.copyOf(out));
  }

  private static Region region(String name, BlockType type, BlockHandle h) {
    return new Region(name, type, h.offset(), h.storedLength());
  }

  private static byte[] slice(byte[] all, BlockHandle h) {
    return Arrays.copyOfRange(all, (int) h.offset(), (int) h.offset() + h.length());
  }
}
