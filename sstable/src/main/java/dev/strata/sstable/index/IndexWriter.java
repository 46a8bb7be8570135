package dev.strata.sstable.index;

import dev.strata.sstable.block.BlockBuilder;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import java.io.IOException;

/**
 * Builds a table's two-level index (format version 3) while its data blocks are written: one entry
 * per data block, keyed by the shortened separator of {@link IndexSeparators}, collected into index
 * partitions of about a block each, and a top-level index with one entry per partition.
 *
 * <p>A data block's entry waits until the first key of the next block is known ({@link #beforeKey}):
 * the separator needs both sides. The table's last block gets a short successor of its last key
 * ({@link #finish}). A partition is written as soon as it reaches its target size, between data
 * blocks, so the writer never holds more than one partition and the top level in memory; the top
 * level is written by {@link #finish}. A partition's top-level key is its last entry's key, so a
 * seek in the top level for the first entry {@code >= target} names the one partition to search.
 *
 * <p>Not thread-safe: one table writer owns it.
 */
public final class IndexWriter {
  /** Writes one uncompressed block of the table and returns its handle. */
  public interface BlockSink {
    BlockHandle write(BlockType type, byte[] payload, int length) throws IOException;
  }

  private final BlockSink sink;
  private final int partitionTargetBytes;
  private final BlockBuilder partition = new BlockBuilder(SstableFormat.INDEX_RESTART_INTERVAL);
  private final BlockBuilder top = new BlockBuilder(SstableFormat.INDEX_RESTART_INTERVAL);
  private final byte[] pendingHandle = new byte[SstableFormat.HANDLE_BYTES];
  private final byte[] partitionHandle = new byte[SstableFormat.HANDLE_BYTES];
  /** The last key of the data block whose entry waits for the next key; null when none waits. */
  private InternalKey pendingLast;
  private byte[] keyScratch = new byte[64];
  private long storedBytes;

  public IndexWriter(int partitionTargetBytes, BlockSink sink) {
    this.partitionTargetBytes = partitionTargetBytes;
    this.sink = sink;
  }

  /** A data block ending at {@code lastKey} was written at {@code handle}; its entry waits. */
  public void blockFinished(InternalKey lastKey, BlockHandle handle) {
    assert pendingLast == null;
    pendingLast = lastKey;
    handle.encodeTo(pendingHandle, 0);
  }

  /** True when a finished data block's entry waits for the next key ({@link #beforeKey}). */
  public boolean waitsForNextKey() {
    return pendingLast != null;
  }

  /** The next data block starts at {@code next}: the waiting entry, if any, is added now. */
  public void beforeKey(InternalKey next) throws IOException {
    if (pendingLast != null) {
      add(IndexSeparators.separator(pendingLast, next));
    }
  }

  /**
   * Adds the last block's entry, writes the last partition and the top level; returns the top
   * level's handle (the footer's index handle).
   */
  public BlockHandle finish() throws IOException {
    if (pendingLast != null) {
      add(IndexSeparators.successor(pendingLast));
    }
    if (!partition.isEmpty()) {
      writePartition();
    }
    BlockHandle h = sink.write(BlockType.INDEX, top.finish(), top.estimatedSize());
    storedBytes += h.storedLength();
    return h;
  }

  /** Bytes the top level would take now. */
  public long topLevelSize() {
    return top.estimatedSize();
  }

  /** Bytes the open partition would take now. */
  public long partitionSize() {
    return partition.estimatedSize();
  }

  /** Bytes of every partition and the top level in the file, trailers included (after {@link #finish}). */
  public long storedBytes() {
    return storedBytes;
  }

  private void add(InternalKey separator) throws IOException {
    int length = KeyCodec.internalKeyLength(separator);
    if (keyScratch.length < length) {
      keyScratch = new byte[Math.max(length, keyScratch.length * 2)];
    }
    KeyCodec.encodeInternalKey(separator, keyScratch, 0);
    partition.add(keyScratch, length, pendingHandle, 0, pendingHandle.length);
    pendingLast = null;
    if (partition.estimatedSize() >= partitionTargetBytes) {
      writePartition();
    }
  }

  private void writePartition() throws IOException {
    BlockHandle h = sink.write(BlockType.INDEX_PARTITION, partition.finish(), partition.estimatedSize());
    storedBytes += h.storedLength();
    h.encodeTo(partitionHandle, 0);
    top.add(partition.lastKey(), partition.lastKeyLength(), partitionHandle, 0, partitionHandle.length);
    partition.reset();
  }
}
