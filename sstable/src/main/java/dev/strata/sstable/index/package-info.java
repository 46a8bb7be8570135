/**
 * A table's index: which data block can hold a key. {@link dev.strata.sstable.index.IndexWriter}
 * builds the two-level index of format versions 5 and 6 while the data blocks are written (an entry per
 * data block, collected into partitions of about a block, and a top level with an entry per
 * partition, in the compact encoding of {@code block.CompactIndex}); {@link dev.strata.sstable.index.IndexSeparators} shortens each entry's key to the
 * shortest internal key that still separates its block from the next; {@link
 * dev.strata.sstable.index.IndexCursor} is a position among the index entries over either shape, the
 * one index block of versions 1 and 2 or the two levels of versions 3 to 5 (partitions loaded on demand
 * through an {@link dev.strata.sstable.index.IndexCursor.PartitionSource}).
 *
 * <p>Invariants: for a block ending at key L followed by one starting at N, its entry's key S has
 * {@code L <= S < N} (a version-5 key without its trailer stands for the last key of its cell, and
 * is written only when N lies in a later cell); a partition's top-level key is its last entry's
 * key; searches binary-search the restart points' stored keys (every entry before version 5, every
 * 16th in a version-5 partition, then a scan). A target between L and S costs one block read,
 * never a wrong answer.
 *
 * <p>Layering: depends on {@code block}, {@code key} and {@code format}; the root's {@code
 * TableWriter} drives the writer (it owns the file, so partitions go out through an {@link
 * dev.strata.sstable.index.IndexWriter.BlockSink}), and {@code TableReader} and {@code TableCursor}
 * the cursor (the reader loads partitions through the block cache). The Get path does not use the
 * cursor: it searches index blocks in place with {@code block.PointSearch}. Internal to the storage
 * core, not part of the embedding API.
 *
 * <pre>{@code
 * IndexWriter w = new IndexWriter(partitionTargetBytes, sink);
 * w.blockFinished(lastKeyOfBlock, handle);
 * w.beforeKey(firstKeyOfNextBlock);         // the separator needs both sides
 * BlockHandle topLevel = w.finish();
 * IndexCursor c = IndexCursor.twoLevel(topLevelBlock, partitionSource);
 * c.seek(target);                            // c.block(), c.valueOffset(): the data block's handle
 * }</pre>
 *
 * <p>Concurrency: a writer belongs to its table writer, a cursor to one thread.
 */
package dev.strata.sstable.index;
