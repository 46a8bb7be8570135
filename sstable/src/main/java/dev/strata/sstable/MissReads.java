package dev.strata.sstable;

import static dev.strata.sstable.format.SstableFormat.BLOCK_TRAILER_BYTES;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.OffHeapCopy;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.io.BulkBuffers;
import dev.strata.sstable.io.TableFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One table's cache misses read by the reader itself and then offered to the cache ({@link
 * BlockCache#admitRead}), for a cache that copies what it keeps ({@link
 * BlockCache#takesBorrowedBlocks}): read from the file, verified, parsed, admitted, counted. A Get's
 * miss reads into its thread's buffers and a reusable block ({@link Block#borrowed}), so it makes
 * nothing of the block's size, nor a loader, loading node or future; the cache copies the block
 * only when it keeps it.
 *
 * <p>Why no single flight (the cache's {@link BlockCache#getOrLoad}, one load per key, the others
 * waiting): it costs a loader, a node and a future per miss, and buys nothing a reader needs. Every
 * reader verifies the bytes it reads itself, and the first block admitted stays, so concurrent misses
 * of one block cost at most one read each (RocksDB's block reads are not single-flight either). The
 * herd it would save is small: data blocks and index partitions are a few KiB each, and even a hot
 * partition missed by every thread at once costs one read per thread, once. What stays single-flight
 * is where a herd would be costly: a one-level index (a whole table's index in one block), the
 * row-tombstone filter, filter chunks, and the blocks an open pins; and a cursor's index
 * partitions, which a scan meets once each, so their loaders are few.
 *
 * <p>Thread-safe: the file reads positionally, the cache is thread-safe, and the buffers and
 * reusable blocks are per thread.
 */
final class MissReads {
  /**
   * Each thread's buffers and reusable partitions for its Gets' index partition misses: apart from
   * the data blocks' ({@link StoredBlocks#readDataBorrowed}), because a partition must stay whole
   * while the data block it names is read.
   */
  private static final ThreadLocal<PartitionScratch> PARTITIONS = ThreadLocal.withInitial(PartitionScratch::new);

  private final TableFile file;
  private final Path path;
  private final long fileNumber;
  private final BlockCache cache;
  private final ReadCounters counters;

  MissReads(TableFile file, Path path, long fileNumber, BlockCache cache, ReadCounters counters) {
    this.file = file;
    this.path = path;
    this.fileNumber = fileNumber;
    this.cache = cache;
    this.counters = counters;
  }

  /**
   * The block (offset, length) of {@code type}, a miss: with {@code scratch} in this thread's buffers
   * and reusable block (valid until the thread's next miss of a block of the same kind), for a Get,
   * which is done with a block before it misses the next of its kind; else in arrays of its own, for
   * a caller that keeps it (a batch's index partitions, a cursor's data blocks), which the cache then
   * keeps as it is rather than copying.
   */
  Block read(long offset, int length, BlockKind kind, BlockType type, boolean scratch) throws IOException {
    if (kind != BlockKind.DATA) {
      checkNoDataBlockAt(offset, type);
    }
    Block b;
    if (!scratch) {
      b = StoredBlocks.readBlock(file, path, new BlockHandle(offset, length), type);
    } else if (kind == BlockKind.DATA) {
      b = StoredBlocks.readDataBorrowed(file, path, offset, length, OffHeapCopy.scratch());
    } else {
      PartitionScratch p = PARTITIONS.get();
      b = StoredBlocks.readBorrowed(file, path, offset, length, p.block(type), p.buffers);
    }
    admit(offset, length, kind, b);
    return b;
  }

  /**
   * The data block (offset, length), a batch's miss, read in this thread's buffers and kept in
   * {@code into} (a reusable block of the batch's, {@link OffHeapCopy#reusableBlock}): the batch
   * holds many blocks at once, so they cannot all lie in the thread's buffers, but its own blocks'
   * arrays serve batch after batch.
   */
  Block readInto(long offset, int length, Block into) throws IOException {
    Block b = read(offset, length, BlockKind.DATA, BlockType.DATA, true);
    return b.borrowed() ? b.copyInto(into) : b; // a block too large to borrow has an array of its own
  }

  /**
   * Refuses to read an index block at {@code offset} where the cache holds a data block off the
   * heap, which a lookup of index metadata does not see: the cache keys blocks by offset alone, so
   * the two at one offset mean a damaged handle, corruption (as a loader's read through the cache
   * would find: {@link BlockFetcher#asEntries}), not a partition to read past it. No allocation:
   * the lookup goes through this thread's view.
   */
  private void checkNoDataBlockAt(long offset, BlockType type) throws CorruptTableException {
    if (cache.getIfPresent(fileNumber, offset, BlockKind.DATA, OffHeapCopy.lookupView()) instanceof OffHeapBlock o
        && !o.metadata()) { // an index partition there is the one sought, admitted meanwhile
      throw new CorruptTableException(path, offset, "a handle of a %s block names a data block at offset %d",
          type, offset);
    }
  }

  /**
   * This thread's reusable partition of {@code type}: where its Gets' partition misses are read and
   * their hits on partitions held off the heap copied, valid until its next partition of either.
   */
  static Block partitionScratch(BlockType type) {
    return PARTITIONS.get().block(type);
  }

  private void admit(long offset, int length, BlockKind kind, Block b) {
    cache.admitRead(fileNumber, offset, kind, b);
    counters.countRead(kind, (long) length + BLOCK_TRAILER_BYTES);
  }

  /** One thread's buffers for its partition misses and a reusable block per partition type. */
  private static final class PartitionScratch {
    final BulkBuffers buffers = new BulkBuffers();
    private final Block partition = Block.reusable(BlockType.INDEX_PARTITION);
    private final Block compact = Block.reusable(BlockType.COMPACT_INDEX_PARTITION);

    Block block(BlockType type) {
      if (type == BlockType.INDEX_PARTITION) {
        return partition;
      }
      assert type == BlockType.COMPACT_INDEX_PARTITION : type;
      return compact;
    }
  }
}
