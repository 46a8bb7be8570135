package dev.strata.sstable.filter;

import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.bloom.RibbonFilter;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.HeapCost;
import dev.strata.sstable.format.SstableFormat;
import java.util.Arrays;

/**
 * A filter chunk (or row-tombstone filter) as the block cache holds it: the deserialized filter of
 * its {@link FilterKind}, queried in place (its bits are the chunk's bytes after one copy, in the
 * layout the bloom module chose).
 *
 * <p>Immutable (the filter is never written after load).
 */
public final class FilterChunk implements CachedBlock {
  /** The filter, one of the two: the other is null. */
  private final BlockedBloomFilter bloom;

  private final RibbonFilter ribbon;
  private final int sizeBytes;

  /**
   * A chunk of a Bloom filter. Its heap cost: this object (a reference and an int), the filter
   * object (three references, three ints) and the filter's long[] of bits; the step tables it
   * references are shared by all filters.
   */
  public FilterChunk(BlockedBloomFilter filter) {
    this.bloom = filter;
    this.ribbon = null;
    this.sizeBytes = (int) (HeapCost.object(2 * HeapCost.REFERENCE + 4)
        + HeapCost.object(3 * HeapCost.REFERENCE + 3 * 4)
        + HeapCost.longArray((int) (filter.bitSize() / 64)));
  }

  /**
   * A chunk of a Ribbon filter. Its heap cost: this object, the filter object (a reference, five
   * ints and a long) and its long[] of solution words.
   */
  public FilterChunk(RibbonFilter filter) {
    this.bloom = null;
    this.ribbon = filter;
    this.sizeBytes = (int) (HeapCost.object(2 * HeapCost.REFERENCE + 4)
        + HeapCost.object(HeapCost.REFERENCE + 5 * 4 + 8)
        + HeapCost.longArray((int) (filter.bitSize() / 64)));
  }

  /**
   * The chunk stored as the filter payload {@code payload[0, length)} of a table of format {@code
   * version}: from version {@link SstableFormat#VERSION_FILTER_KINDS} on, the filter's bytes then
   * its kind's id; before, a Bloom filter's bytes alone.
   *
   * @throws IllegalArgumentException when the payload is no filter of its kind (a message naming why)
   */
  public static FilterChunk decode(byte[] payload, int length, int version) {
    return decode(payload, 0, length, version);
  }

  /**
   * {@link #decode(byte[], int, int)} of the payload at {@code bytes[offset, offset + length)}.
   *
   * @throws IllegalArgumentException as {@link #decode(byte[], int, int)}
   */
  public static FilterChunk decode(byte[] bytes, int offset, int length, int version) {
    if (version < SstableFormat.VERSION_FILTER_KINDS) {
      return new FilterChunk(BlockedBloomFilter.fromBytes(bytes, offset, length));
    }
    if (length < 1) {
      throw new IllegalArgumentException("empty filter payload: no kind byte");
    }
    int id = bytes[offset + length - 1] & 0xff;
    FilterKind kind = FilterKind.fromIdOrNull(id);
    if (kind == null) {
      throw new IllegalArgumentException("unknown filter kind " + id);
    }
    return switch (kind) {
      case BLOOM -> new FilterChunk(BlockedBloomFilter.fromBytes(bytes, offset, length - 1));
      case RIBBON -> new FilterChunk(RibbonFilter.fromBytes(bytes, offset, length - 1));
    };
  }

  /**
   * The chunk as a table of the current format stores it: the filter's bytes, then its kind's id
   * (the inverse of {@link #decode} from {@link SstableFormat#VERSION_FILTER_KINDS} on).
   */
  public byte[] toPayload() {
    byte[] filter = bloom != null ? bloom.toByteArray() : ribbon.toByteArray();
    byte[] payload = Arrays.copyOf(filter, filter.length + SstableFormat.FILTER_KIND_BYTES);
    payload[filter.length] = (byte) kind().id();
    return payload;
  }

  /** The kind of filter this chunk holds. */
  public FilterKind kind() {
    return bloom != null ? FilterKind.BLOOM : FilterKind.RIBBON;
  }

  /** Whether the filter may hold {@code hash64}; false means it certainly does not. */
  public boolean mightContainHash(long hash64) {
    return bloom != null ? bloom.mightContainHash(hash64) : ribbon.mightContainHash(hash64);
  }

  /**
   * Reads the memory a probe of {@code hash64} would read, answering nothing: a batch touches all
   * its probes' lines before probing, so their cache misses overlap. Returns a value of the bytes
   * read, for the caller to keep.
   */
  public long touch(long hash64) {
    return bloom != null ? bloom.touch(hash64) : ribbon.touch(hash64);
  }

  /** Bits of the filter. */
  public long bitSize() {
    return bloom != null ? bloom.bitSize() : ribbon.bitSize();
  }

  @Override
  public int sizeBytes() {
    return sizeBytes;
  }
}
