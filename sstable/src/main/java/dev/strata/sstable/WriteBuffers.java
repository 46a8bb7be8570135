package dev.strata.sstable;

import dev.strata.bloom.RibbonBuilder;
import dev.strata.sstable.block.BlockBuilder;
import dev.strata.sstable.format.SstableFormat;
import java.nio.ByteBuffer;

/**
 * The buffers a {@link TableWriter} works in, handed from one writer to the next: the data block
 * being built, the compressed copy of a block, the filter-key hashes of the open chunk, the bytes
 * gathered for the file and the Ribbon filter builder's banding arrays (about 29 bytes per key of
 * the largest chunk: 4.4 MB for a 150,000-key chunk at 1%). Each grows to what a table needs (a
 * data block a little over the block size, a chunk's hashes and banding), so a new writer with new
 * buffers grew them again from small, and a compaction writing its output tables one after another
 * made that garbage per table (the banding arrays per chunk); sharing them through one {@code
 * WriteBuffers} it is made once.
 *
 * <p>One writer at a time: a writer takes them at its creation and gives them back when it is
 * finished or aborted; a second writer created on buffers in use is an {@link
 * IllegalStateException}. Not thread-safe.
 */
public final class WriteBuffers {
  /** Bytes gathered before one write to the file. */
  static final int OUTPUT_BYTES = 1 << 16;

  final BlockBuilder dataBlock = new BlockBuilder(SstableFormat.DATA_RESTART_INTERVAL);
  final ByteBuffer output = ByteBuffer.allocate(OUTPUT_BYTES);
  byte[] compressed = new byte[0];
  long[] filterHashes = new long[1024];
  final RibbonBuilder ribbonBuilder = new RibbonBuilder();
  private boolean inUse;

  public WriteBuffers() {}

  /** Takes the buffers for a new writer, emptied. */
  void take() {
    if (inUse) {
      throw new IllegalStateException("write buffers in use by an unfinished writer");
    }
    inUse = true;
    dataBlock.reset();
    output.clear();
  }

  /** Gives the buffers back: the writer is finished or aborted. */
  void giveBack() {
    inUse = false;
  }
}
