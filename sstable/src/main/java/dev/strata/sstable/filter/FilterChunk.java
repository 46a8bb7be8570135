package dev.strata.sstable.filter;

import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.bloom.BloomFormat;
import dev.strata.bloom.RibbonFilter;
import dev.strata.sstable.cache.CachedBlock;
import dev.strata.sstable.cache.HeapCost;
import dev.strata.sstable.format.SstableFormat;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A filter chunk (or row-tombstone filter) as the block cache holds it: the deserialized filter of
 * its {@link FilterKind}, queried in place: its bits are the chunk's bytes after one copy into a
 * heap array, in the layout the bloom module chose, or for a chunk a table pins at open, direct
 * memory probed where the open read it ({@link #decodeOffHeap}).
 *
 * <p>Immutable (the filter is never written after load).
 */
public final class FilterChunk implements CachedBlock {
  /** The filter, one of the two: the other is null. */
  private final BlockedBloomFilter bloom;

  private final RibbonFilter ribbon;
  private final int sizeBytes;

  /**
   * The heap objects in front of filter words held off the heap: the words object (a reference)
   * and the direct ByteBuffer (its JDK 17 fields: an address and four position ints, three
   * references and three booleans, about 48 bytes), whose cleaner is shared by every slice of one
   * allocation and is left out.
   */
  private static final long OFF_HEAP_WORDS_OBJECTS =
      HeapCost.object(HeapCost.REFERENCE) + HeapCost.object(8 + 4 * 4 + 3 * HeapCost.REFERENCE + 3);

  /**
   * A chunk of a Bloom filter. Its cost: this object (a reference and an int), the filter object
   * (three references, three ints) and the filter's bits: a long[] on the heap, or for bits read in
   * place off the heap their words object, the direct buffer's object and the stored chunk's bytes
   * the bits lie among (bits, filter trailer, kind byte, block trailer). The step tables it
   * references are shared by all filters.
   */
  public FilterChunk(BlockedBloomFilter filter) {
    this.bloom = filter;
    this.ribbon = null;
    int words = (int) (filter.bitSize() / 64);
    this.sizeBytes = (int) (HeapCost.object(2 * HeapCost.REFERENCE + 4)
        + HeapCost.object(3 * HeapCost.REFERENCE + 3 * 4)
        + (filter.offHeap()
            ? OFF_HEAP_WORDS_OBJECTS + (long) words * Long.BYTES + BloomFormat.TRAILER_BYTES
                + SstableFormat.FILTER_KIND_BYTES + SstableFormat.BLOCK_TRAILER_BYTES
            : HeapCost.longArray(words)));
  }

  /**
   * A chunk of a Ribbon filter. Its cost: this object, the filter object (a reference, five ints
   * and a long) and its solution: a long[] on the heap, or off the heap its words object, the
   * direct buffer's object and the solution's bytes, padding included.
   */
  public FilterChunk(RibbonFilter filter) {
    this.bloom = null;
    this.ribbon = filter;
    this.sizeBytes = (int) (HeapCost.object(2 * HeapCost.REFERENCE + 4)
        + HeapCost.object(HeapCost.REFERENCE + 5 * 4 + 8)
        + (filter.offHeap()
            ? OFF_HEAP_WORDS_OBJECTS + (long) filter.memoryWords() * Long.BYTES
            : HeapCost.longArray((int) (filter.bitSize() / 64))));
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
    FilterKind kind = kindOf(length, length < 1 ? 0 : bytes[offset + length - 1], version);
    int filterLength = filterLength(length, version);
    return switch (kind) {
      case BLOOM -> new FilterChunk(BlockedBloomFilter.fromBytes(bytes, offset, filterLength));
      case RIBBON -> new FilterChunk(RibbonFilter.fromBytes(bytes, offset, filterLength));
    };
  }

  /**
   * {@link #decode(byte[], int, int, int)} of the payload from {@code payload}'s position to its
   * limit, usually direct memory a pinning open read it into, with the chunk's filter off the heap:
   * a Bloom filter's bits are probed where they lie in {@code payload} (which the chunk keeps
   * reachable and which must not change), a Ribbon filter's solution is laid out once into direct
   * memory of its own. The collector frees that memory with the last reference to the chunk.
   *
   * @throws IllegalArgumentException as {@link #decode(byte[], int, int)}
   */
  public static FilterChunk decodeOffHeap(ByteBuffer payload, int version) {
    int length = payload.remaining();
    FilterKind kind = kindOf(length, length < 1 ? 0 : payload.get(payload.limit() - 1), version);
    ByteBuffer filter = payload.slice(payload.position(), filterLength(length, version));
    return switch (kind) {
      case BLOOM -> new FilterChunk(BlockedBloomFilter.inPlace(filter));
      case RIBBON -> new FilterChunk(RibbonFilter.offHeap(filter));
    };
  }

  /** The kind of a payload of {@code length} bytes whose last byte is {@code last}. */
  private static FilterKind kindOf(int length, byte last, int version) {
    if (version < SstableFormat.VERSION_FILTER_KINDS) {
      return FilterKind.BLOOM;
    }
    if (length < 1) {
      throw new IllegalArgumentException("empty filter payload: no kind byte");
    }
    int id = last & 0xff;
    FilterKind kind = FilterKind.fromIdOrNull(id);
    if (kind == null) {
      throw new IllegalArgumentException("unknown filter kind " + id);
    }
    return kind;
  }

  /** Bytes of the filter itself in a payload of {@code length}: all but the kind byte, if any. */
  private static int filterLength(int length, int version) {
    return version < SstableFormat.VERSION_FILTER_KINDS ? length : length - SstableFormat.FILTER_KIND_BYTES;
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

  /** Whether the filter's words lie off the heap ({@link #decodeOffHeap}). */
  public boolean offHeap() {
    return bloom != null ? bloom.offHeap() : ribbon.offHeap();
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
