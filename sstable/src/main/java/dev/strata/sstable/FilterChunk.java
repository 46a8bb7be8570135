package dev.strata.sstable;

import dev.strata.bloom.BlockedBloomFilter;

/**
 * A filter chunk as the block cache holds it: the deserialized {@link BlockedBloomFilter}, queried in
 * place (its bits are the chunk's bytes after one copy, in the layout the bloom module chose).
 *
 * <p>Immutable (the filter is never written after load).
 */
final class FilterChunk implements CachedBlock {
  final BlockedBloomFilter filter;
  private final int sizeBytes;

  FilterChunk(BlockedBloomFilter filter, int sizeBytes) {
    this.filter = filter;
    this.sizeBytes = sizeBytes;
  }

  @Override
  public int sizeBytes() {
    return sizeBytes;
  }
}
