package dev.strata.sstable;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.format.CorruptTableException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Puts a table's metadata into the block cache as its writer writes it (RocksDB's {@code
 * prepopulate_block_cache}, HBase's {@code cacheBloomsOnWrite}): each filter chunk as the filter
 * object it was built as, each index partition parsed from the bytes just written, under the key a
 * reader of the table looks them up by (file number, payload offset) and at metadata priority, so
 * the cache keeps them within its metadata share like any loaded metadata. The first Gets on a
 * new table then read no filter or index block from disk.
 *
 * <p>Not thread-safe: one table writer's.
 */
final class CacheOnWrite {
  private final BlockCache cache;
  private final long fileNumber;
  private final Path path;

  CacheOnWrite(BlockCache cache, long fileNumber, Path path) {
    this.cache = cache;
    this.fileNumber = fileNumber;
    this.path = path;
  }

  /** The filter written at {@code offset}. */
  void filter(long offset, FilterChunk chunk) {
    cache.put(new BlockCacheKey(fileNumber, offset), BlockKind.FILTER, chunk);
  }

  /** The index partition {@code payload[0, length)} written at {@code offset}. */
  void indexPartition(long offset, byte[] payload, int length) throws CorruptTableException {
    // A copy: the index writer reuses its buffer. Parsed as a reader parses it, which also checks
    // what the writer built.
    Block b = Block.parse(Arrays.copyOf(payload, length), length, BlockType.COMPACT_INDEX_PARTITION, path, offset);
    cache.put(new BlockCacheKey(fileNumber, offset), BlockKind.INDEX, b);
  }
}
