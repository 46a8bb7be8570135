package dev.strata.sstable.filter;

import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.HeapCost;

/**
 * A filter chunk as the block cache holds it: the deserialized {@link BlockedBloomFilter}, queried in
 * place (its bits are the chunk's bytes after one copy, in the layout the bloom module chose).
 *
 * <p>Immutable (the filter is never written after load).
 */
public final class FilterChunk implements CachedBlock {
  public final BlockedBloomFilter filter;
  private final int sizeBytes;

  /**
   * A chunk whose filter holds the bits of a {@code payloadBytes} payload. Its heap cost: this object
   * (a reference and an int), the filter object (three references, three ints) and the filter's long[]
   * of bits; the step tables it references are shared by all filters.
   */
  public FilterChunk(BlockedBloomFilter filter, int payloadBytes) {
    this.filter = filter;
    this.sizeBytes = (int) (HeapCost.object(HeapCost.REFERENCE + 4)
        + HeapCost.object(3 * HeapCost.REFERENCE + 3 * 4)
        + HeapCost.longArray((int) (filter.bitSize() / 64)));
    assert filter.bitSize() / 8 <= payloadBytes : filter.bitSize() + " bits in " + payloadBytes + " bytes";
  }

  @Override
  public int sizeBytes() {
    return sizeBytes;
  }
}
