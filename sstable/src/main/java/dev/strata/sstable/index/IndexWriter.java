package dev.strata.sstable.index;

import dev.strata.sstable.block.BlockBuilder;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.CompactIndex;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.UnsignedBytes;
import java.io.IOException;

/**
 * Builds a table's two-level index (format versions 5 and 6) while its data blocks are written: one entry
 * per data block, keyed by the shortened separator of {@link IndexSeparators}, collected into index
 * partitions of about a block each, and a top-level index with one entry per partition, all in the
 * compact encoding of {@link CompactIndex}.
 *
 * <p>An entry's key drops its trailer (the cell form) when the separator's cell sorts below the next
 * block's first cell, as it does unless versions of one cell straddle the two blocks; the table's
 * last block always can. A handle's offset is written at restart points and where the block does
 * not start right after the previous entry's (a filter chunk or a partition lies between them).
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
  private final BlockBuilder partition = new BlockBuilder(SstableFormat.COMPACT_INDEX_RESTART_INTERVAL);
  private final BlockBuilder top = new BlockBuilder(SstableFormat.INDEX_RESTART_INTERVAL);
  private final byte[] value = new byte[CompactIndex.MAX_VALUE_BYTES];
  /** The last key of the data block whose entry waits for the next key; null when none waits. */
  private InternalKey pendingLast;
  private BlockHandle pendingHandle;
  /** Where the block of the open partition's last entry ends; -1 when the partition is empty. */
  private long previousEnd = -1;
  /** Whether the open partition's last entry has the cell form (so does its top-level entry). */
  private boolean lastCellForm;
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
    pendingHandle = handle;
  }

  /** True when a finished data block's entry waits for the next key ({@link #beforeKey}). */
  public boolean waitsForNextKey() {
    return pendingLast != null;
  }

  /** The next data block starts at {@code next}: the waiting entry, if any, is added now. */
  public void beforeKey(InternalKey next) throws IOException {
    if (pendingLast != null) {
      add(IndexSeparators.separator(pendingLast, next), next);
    }
  }

  /**
   * Adds the last block's entry, writes the last partition and the top level; returns the top
   * level's handle (the footer's index handle).
   */
  public BlockHandle finish() throws IOException {
    if (pendingLast != null) {
      add(IndexSeparators.successor(pendingLast), null);
    }
    if (!partition.isEmpty()) {
      writePartition();
    }
    BlockHandle h = sink.write(BlockType.COMPACT_INDEX, top.finish(), top.estimatedSize());
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

  /** Adds the waiting block's entry under {@code separator}; {@code next} is the next block's first key, null after the last. */
  private void add(InternalKey separator, InternalKey next) throws IOException {
    boolean cellForm = next == null || compareCells(separator, next) < 0;
    int length = cellForm
        ? KeyCodec.cellKeyLength(separator.row(), separator.column())
        : KeyCodec.internalKeyLength(separator);
    if (keyScratch.length < length) {
      keyScratch = new byte[Math.max(length, keyScratch.length * 2)];
    }
    if (cellForm) {
      KeyCodec.encodeCellKey(separator.row(), separator.column(), keyScratch, 0);
    } else {
      KeyCodec.encodeInternalKey(separator, keyScratch, 0);
    }
    BlockHandle h = pendingHandle;
    boolean offsetStored = partition.nextAddIsRestart() || h.offset() != previousEnd;
    int valueLength = CompactIndex.putValue(value, 0, checkedLength(h), cellForm, offsetStored ? h.offset() : -1);
    partition.add(keyScratch, length, value, 0, valueLength);
    previousEnd = h.offset() + h.storedLength();
    lastCellForm = cellForm;
    pendingLast = null;
    pendingHandle = null;
    if (partition.estimatedSize() >= partitionTargetBytes) {
      writePartition();
    }
  }

  private void writePartition() throws IOException {
    BlockHandle h = sink.write(BlockType.COMPACT_INDEX_PARTITION, partition.finish(), partition.estimatedSize());
    storedBytes += h.storedLength();
    int valueLength = CompactIndex.putValue(value, 0, checkedLength(h), lastCellForm, h.offset());
    top.add(partition.lastKey(), partition.lastKeyLength(), value, 0, valueLength);
    partition.reset();
    previousEnd = -1;
  }

  /** The length of {@code h}, which a compact index can name (a 2^30-byte block it cannot). */
  private static int checkedLength(BlockHandle h) throws IOException {
    if (h.length() > CompactIndex.MAX_LENGTH) {
      throw new IOException("a block of " + h.length() + " bytes is longer than an index entry can name");
    }
    return h.length();
  }

  /** (row, column) of {@code a} against those of {@code b}, unsigned. */
  private static int compareCells(InternalKey a, InternalKey b) {
    int c = UnsignedBytes.compare(a.row(), b.row());
    return c != 0 ? c : UnsignedBytes.compare(a.column(), b.column());
  }
}
