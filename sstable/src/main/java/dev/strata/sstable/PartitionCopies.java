package dev.strata.sstable;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockType;
import java.util.Arrays;

/**
 * The reusable blocks a batch copies the index partitions it finds off the heap into, one per
 * partition it holds, reused batch after batch: a batch holds each of its keys' partitions until it
 * has read their data blocks, so they cannot share the thread's one reusable partition (a Get's),
 * and a new array per partition copied would make the batch allocate per block.
 *
 * <p>Not thread-safe: one batch's at a time (its thread's scratch).
 */
final class PartitionCopies {
  private Block[] plain = new Block[0];
  private Block[] compact = new Block[0];
  private int plainUsed;
  private int compactUsed;

  /** A reusable partition of {@code type} that no copy of this batch holds yet. */
  Block next(BlockType type) {
    if (type == BlockType.COMPACT_INDEX_PARTITION) {
      compact = grown(compact, compactUsed, type);
      return compact[compactUsed++];
    }
    assert type == BlockType.INDEX_PARTITION : type;
    plain = grown(plain, plainUsed, type);
    return plain[plainUsed++];
  }

  /** Lets the next batch reuse every block: the batch is done with its partitions. */
  void reset() {
    plainUsed = 0;
    compactUsed = 0;
  }

  private static Block[] grown(Block[] blocks, int used, BlockType type) {
    if (used < blocks.length) {
      return blocks;
    }
    Block[] more = Arrays.copyOf(blocks, Math.max(4, 2 * blocks.length));
    for (int i = used; i < more.length; i++) {
      more[i] = Block.reusable(type);
    }
    return more;
  }
}
