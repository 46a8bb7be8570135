package dev.strata.bloom;

import dev.strata.checksum.Checksums;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A cache-line-blocked, sectorized Bloom filter: every key's probes fall in one 64-byte block, so a
 * query costs one cache miss, and a negative query usually stops at its first word.
 *
 * <p>{@code false} from {@code mightContain*} means the key is definitely absent; {@code true} means
 * it may be present. A key that was put is always reported as possibly present, however the filter
 * was built, serialized and reloaded.
 */
/*
 * Design.
 *
 * Layout. The bit array is numBlocks blocks of 512 bits (8 longs, one cache line). A key's 64-bit
 * hash h (KeyHash) is split in two halves that are used independently:
 *   - block = (int) (((h >>> 32) * numBlocks) >>> 32): multiply-high range reduction [3] of the
 *     high half; any block count works, there is no modulo and no power-of-two rounding, so the
 *     filter is within one block of the requested bits/key;
 *   - the low half x0 = (int) h drives z = numProbes / 2 steps. Step s uses x_s = x0 * 0x9e3779b9^s
 *     (a multiplicative remix instead of a second hash). It tests 2 bits of one word: bits
 *     (x_s >>> 23) & 63 and (x_s >>> 17) & 63 (Java's long shift uses the low 6 bits of its count,
 *     which is exactly the "& 63"). Step 0's word is w0 = x0 >>> 29; step s > 0 uses word
 *     (w0 + low_s + (((x_s & 0xffff) * range_s) >>> 16)) & 7, where the ranges [low_s, low_s +
 *     range_s) split the offsets 1..7 between the later steps (BloomSizing.stepOffsetLow), so a
 *     key's steps always land in distinct words.
 * This is the cache-sectorized filter of Lang et al. [2] with z words of 2 bits each. A lookup
 * tests one word at a time and returns at the first word missing a bit (early exit): a negative
 * query usually reads one word, a positive one z words of the same line. Distinct words matter:
 * steps that may collide in one word set fewer distinct bits per key and raise the rate, while
 * keeping them apart costs a few ALU operations on a line already loaded.
 *
 * Why this layout (total cost, as [2] argues: probe cost + FPR x cost of a wasted data-block read).
 * At equal bits per key the 2-bits-per-word sectors have a slightly higher rate than RocksDB's
 * probe sequence (k bits anywhere in the line) or a classic filter, but a negative query reads one
 * word of one line and stops, which makes it markedly cheaper than either on a filter larger than
 * the cache. A false positive in Strata costs an index-block and a data-block read, and the rate
 * difference times that cost is of the same order as the probe time saved on every query; at
 * equal rate the sector layout needs only a fraction of a bit per key more. It wins on the Get
 * path, which is dominated by negative probes (a Get probes every overlapping table and at most
 * one of them holds the key). The comparison's figures are in docs/PERFORMANCE.md, "The filter".
 *
 * Probe count. Chosen per bits/key by BloomSizing from the exact model of this layout (the textbook
 * k = ln2 * bits/key overshoots for blocked filters); 6 probes at 10 bits/key.
 *
 * Memory. The bits are words (FilterWords) queried in place: a heap long[], where loading a chunk
 * from disk is one read and one copy (fromByteArray), never a rebuild; or the little-endian bytes
 * a table's pinning open read into direct memory, probed where they lie (inPlace), no copy. A
 * large long[] starts 16 bytes past a line boundary, so a block can straddle two lines; a
 * line-aligned layout was not faster beyond noise (the figures are in docs/PERFORMANCE.md): a
 * misaligned block touches a second line only when a probe lands in its last 16 bytes, and that
 * line is the adjacent one the prefetcher fetches anyway. The
 * persisted form puts the bits first so a 64-byte-aligned file offset keeps them aligned for a
 * future mmap.
 *
 * References. [1] Putze, Sanders, Singler, "Cache-, Hash- and Space-Efficient Bloom Filters" (2007).
 * [2] Lang, Neumann, Kemper, Boncz, "Performance-Optimal Filtering: Bloom Overtakes Cuckoo at High
 * Throughput" (VLDB 2019). [3] Lemire, "A fast alternative to the modulo reduction" (2016). RocksDB
 * util/bloom_impl.h (FastLocalBloomImpl) and the Parquet split-block Bloom filter spec for the same
 * family.
 *
 * Thread-safety: put* is not thread-safe; mightContain* is safe from many threads once no more keys
 * are being put (the array is only read).
 */
public final class BlockedBloomFilter {
  /** Multiplier of the step remix: 2^32 / golden ratio, odd, so each step is a bijection. */
  private static final int STEP_MULTIPLIER = 0x9e3779b9;

  /** STEP_LOW[z][s], STEP_RANGE[z][s]: the word offsets step s of a z-step probe draws from. */
  private static final int[][] STEP_LOW = new int[BloomFormat.MAX_PROBES / 2 + 1][];

  private static final int[][] STEP_RANGE = new int[BloomFormat.MAX_PROBES / 2 + 1][];

  static {
    for (int z = 1; z < STEP_LOW.length; z++) {
      STEP_LOW[z] = new int[z];
      STEP_RANGE[z] = new int[z];
      for (int s = 0; s < z; s++) {
        STEP_LOW[z][s] = BloomSizing.stepOffsetLow(z, s);
        STEP_RANGE[z][s] = BloomSizing.stepOffsetRange(z, s);
      }
    }
  }

  /** The bits: a heap array, or the little-endian bytes a table read them into (probed in place). */
  private final FilterWords words;

  private final int numBlocks;
  private final int numProbes;
  private final int steps;
  private final int[] stepLow;
  private final int[] stepRange;

  private BlockedBloomFilter(FilterWords words, int numBlocks, int numProbes) {
    this.words = words;
    this.numBlocks = numBlocks;
    this.numProbes = numProbes;
    this.steps = numProbes / BloomFormat.BITS_PER_STEP;
    this.stepLow = STEP_LOW[steps];
    this.stepRange = STEP_RANGE[steps];
  }

  /**
   * An empty filter sized for {@code expectedKeys} keys at {@code bitsPerKey} bits each, rounded up
   * to whole blocks (at least one), with the probe count that minimises its false-positive rate.
   *
   * @throws IllegalArgumentException if {@code expectedKeys < 0}, {@code bitsPerKey} is not in [1,
   *     64], or the filter would exceed {@link BloomFormat#MAX_BLOCKS} blocks
   */
  public static BlockedBloomFilter create(long expectedKeys, double bitsPerKey) {
    if (expectedKeys < 0) {
      throw new IllegalArgumentException("expectedKeys must be >= 0: " + expectedKeys);
    }
    if (!(bitsPerKey >= 1 && bitsPerKey <= 64)) {
      throw new IllegalArgumentException("bitsPerKey must be in [1, 64]: " + bitsPerKey);
    }
    double blocks = Math.ceil(expectedKeys * bitsPerKey / BloomFormat.BLOCK_BITS);
    if (blocks > BloomFormat.MAX_BLOCKS) {
      throw new IllegalArgumentException(
          "expectedKeys * bitsPerKey too large: needs " + (long) blocks + " blocks, at most "
              + BloomFormat.MAX_BLOCKS);
    }
    int numBlocks = Math.max(1, (int) blocks);
    long[] words = new long[numBlocks * BloomFormat.WORDS_PER_BLOCK];
    return new BlockedBloomFilter(FilterWords.of(words), numBlocks, BloomSizing.probesFor(bitsPerKey));
  }

  /**
   * An empty filter for {@code expectedKeys} keys whose model rate ({@link #expectedFpp}) at that
   * many keys is at most {@code fpp}, in the least memory: the blocked layout's own model ({@link
   * BloomSizing}) inverted for the bits per key and probe count, not the classic formula (which
   * undersizes a blocked filter: 9.59 bits per key at 1%, where this layout needs 9.96).
   *
   * @throws IllegalArgumentException if {@code expectedKeys < 0}, {@code fpp} is not in (0, 1) or
   *     is below what 64 bits per key reach, or the filter would exceed {@link
   *     BloomFormat#MAX_BLOCKS} blocks
   */
  public static BlockedBloomFilter forFalsePositiveRate(long expectedKeys, double fpp) {
    if (expectedKeys < 0) {
      throw new IllegalArgumentException("expectedKeys must be >= 0: " + expectedKeys);
    }
    if (!(fpp > 0 && fpp < 1)) {
      throw new IllegalArgumentException("fpp must be in (0, 1): " + fpp);
    }
    BloomSizing.BlockedShape shape = BloomSizing.forRate(expectedKeys, fpp);
    long[] words = new long[shape.numBlocks() * BloomFormat.WORDS_PER_BLOCK];
    return new BlockedBloomFilter(FilterWords.of(words), shape.numBlocks(), shape.numProbes());
  }

  /** Adds {@code key}. */
  public void put(byte[] key) {
    putHash(KeyHash.hash64(key));
  }

  /** Adds {@code key[offset, offset + length)}. */
  public void put(byte[] key, int offset, int length) {
    putHash(KeyHash.hash64(key, offset, length));
  }

  /** Adds a key by its hash; {@code hash64} must be {@link KeyHash#hash64} of the key's bytes. */
  public void putHash(long hash64) {
    int base = blockBase(hash64);
    int x = (int) hash64;
    int first = x >>> 29;
    for (int s = 0; s < steps; s++) {
      words.or(base + word(first, x, s), (1L << (x >>> 23)) | (1L << (x >>> 17)));
      x *= STEP_MULTIPLIER;
    }
  }

  /** The word (0..7) of step {@code s}, whose remixed hash is {@code x}. */
  private int word(int first, int x, int s) {
    return (first + stepLow[s] + (((x & 0xffff) * stepRange[s]) >>> 16)) & 7;
  }

  /** False means {@code key} is definitely absent. */
  public boolean mightContain(byte[] key) {
    return mightContainHash(KeyHash.hash64(key));
  }

  /** False means {@code key[offset, offset + length)} is definitely absent. */
  public boolean mightContain(byte[] key, int offset, int length) {
    return mightContainHash(KeyHash.hash64(key, offset, length));
  }

  /** False means the key whose {@link KeyHash#hash64} is {@code hash64} is definitely absent. */
  public boolean mightContainHash(long hash64) {
    int base = blockBase(hash64);
    int x = (int) hash64;
    if (steps == 3) {
      return containsThreeSteps(base, x);
    }
    FilterWords w = words;
    int first = x >>> 29;
    for (int s = 0; ; ) {
      long mask = (1L << (x >>> 23)) | (1L << (x >>> 17));
      if ((w.get(base + word(first, x, s)) & mask) != mask) {
        return false;
      }
      if (++s == steps) {
        return true;
      }
      x *= STEP_MULTIPLIER;
    }
  }

  /**
   * The default layout (6 probes, chosen from 7.23 to 10.73 bits/key) written out straight: the
   * generic loop's table lookups and loop control sit between the dependent loads of a lookup that
   * misses the cache, and were markedly slower on DRAM-resident filters.
   */
  private boolean containsThreeSteps(int base, int x0) {
    // Offsets for 3 steps: step 1 from {1, 2, 3}, step 2 from {4, 5, 6, 7} (BloomSizing).
    FilterWords w = words;
    int first = x0 >>> 29;
    long m0 = (1L << (x0 >>> 23)) | (1L << (x0 >>> 17));
    if ((w.get(base + first) & m0) != m0) {
      return false;
    }
    int x1 = x0 * STEP_MULTIPLIER;
    long m1 = (1L << (x1 >>> 23)) | (1L << (x1 >>> 17));
    if ((w.get(base + ((first + 1 + (((x1 & 0xffff) * 3) >>> 16)) & 7)) & m1) != m1) {
      return false;
    }
    int x2 = x1 * STEP_MULTIPLIER;
    long m2 = (1L << (x2 >>> 23)) | (1L << (x2 >>> 17));
    return (w.get(base + ((first + 4 + ((x2 & 0xffff) >>> 14)) & 7)) & m2) == m2;
  }

  /**
   * The first word of the block {@link #mightContainHash} reads for {@code hash64}, the whole of
   * which is one cache line: a batch of probes reads each probe's block first, so the processor
   * has the cache misses of the whole batch in flight at once, and then probes.
   */
  public long touch(long hash64) {
    return words.get(blockBase(hash64));
  }

  /** Index of the first word of the block the hash selects. */
  private int blockBase(long hash64) {
    return (int) (((hash64 >>> 32) * numBlocks) >>> 32) * BloomFormat.WORDS_PER_BLOCK;
  }

  /** Bits in the filter: always a multiple of 512. */
  public long bitSize() {
    return (long) numBlocks * BloomFormat.BLOCK_BITS;
  }

  /** Whether the bits lie outside the Java heap (a filter read in place with {@link #inPlace}). */
  public boolean offHeap() {
    return words.offHeap();
  }

  /** Bits set per key. */
  public int numProbes() {
    return numProbes;
  }

  /** Blocks in the filter. */
  public int numBlocks() {
    return numBlocks;
  }

  /**
   * The model's false-positive rate for this filter holding {@code keys} keys: the in-block rate
   * averaged over the Poisson distribution of keys per block ({@link BloomSizing}).
   */
  public double expectedFpp(long keys) {
    if (keys < 0) {
      throw new IllegalArgumentException("keys must be >= 0: " + keys);
    }
    return BloomSizing.blockedFpp((double) keys / numBlocks, numProbes);
  }

  /** The persisted form ({@link BloomFormat}): the same bytes a table's filter chunk holds. */
  public byte[] toByteArray() {
    int bitsBytes = numBlocks * BloomFormat.BLOCK_BYTES;
    byte[] out = new byte[bitsBytes + BloomFormat.TRAILER_BYTES];
    ByteBuffer buf = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    words.copyTo(buf.asLongBuffer(), numBlocks * BloomFormat.WORDS_PER_BLOCK);
    buf.position(bitsBytes);
    buf.putInt(numBlocks);
    buf.put((byte) numProbes);
    buf.put((byte) BloomFormat.HASH_XXH3_64);
    buf.putShort((short) BloomFormat.VERSION_CURRENT);
    buf.putInt(BloomFormat.MAGIC);
    int crcOffset = bitsBytes + BloomFormat.CRC_OFFSET;
    buf.putInt(Checksums.maskedCrc32c(out, 0, crcOffset));
    return out;
  }

  /**
   * Reads the persisted form, checking every field and the checksum before trusting any of it.
   *
   * @throws NullPointerException if {@code bytes} is null
   * @throws IllegalArgumentException if the bytes are not a filter of this format: wrong size,
   *     magic, version, hash id, probe count or checksum
   */
  public static BlockedBloomFilter fromByteArray(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return fromBytes(bytes, 0, bytes.length);
  }

  /**
   * Reads the persisted form from {@code bytes[offset, offset + length)}: for readers that hold a
   * chunk inside a larger buffer, so loading it stays one read and one copy.
   *
   * @throws IllegalArgumentException as {@link #fromByteArray}
   * @throws IndexOutOfBoundsException if the range does not lie within {@code bytes}
   */
  public static BlockedBloomFilter fromBytes(byte[] bytes, int offset, int length) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.checkFromIndexSize(offset, length, bytes.length);
    checkLength(length);
    return decode(FilterTrailer.verify(bytes, offset, length, BloomFormat.TRAILER), false);
  }

  /**
   * Reads the persisted form {@code bytes[position, limit)} where it lies, checking every field and
   * the checksum as {@link #fromByteArray} does: the filter's bits are those bytes, not a copy, so
   * a chunk a table read into direct memory is probed there. The bytes must not change afterwards;
   * the filter keeps them reachable as long as it is.
   *
   * @throws IllegalArgumentException as {@link #fromByteArray}
   */
  public static BlockedBloomFilter inPlace(ByteBuffer bytes) {
    ByteBuffer persisted = bytes.slice();
    checkLength(persisted.remaining());
    return decode(FilterTrailer.verify(persisted, BloomFormat.TRAILER), true);
  }

  private static void checkLength(int length) {
    if (length < BloomFormat.TRAILER_BYTES + BloomFormat.BLOCK_BYTES) {
      throw new IllegalArgumentException("not a blocked Bloom filter: " + length + " bytes");
    }
  }

  /**
   * The filter whose persisted form {@code buf} (little-endian, from 0 to its capacity) holds, its
   * checksum verified: the trailer's fields checked, the bits copied into a heap array, or probed
   * where they lie in {@code buf} when {@code inPlace}.
   */
  private static BlockedBloomFilter decode(ByteBuffer buf, boolean inPlace) {
    int length = buf.capacity();
    int numProbes = checkedProbes(buf, length);
    int numBlocks = checkedBlocks(buf, length);
    int count = numBlocks * BloomFormat.WORDS_PER_BLOCK;
    if (inPlace) {
      return new BlockedBloomFilter(FilterWords.inPlace(buf, count), numBlocks, numProbes);
    }
    long[] words = new long[count];
    buf.position(0).limit(length - BloomFormat.TRAILER_BYTES);
    buf.asLongBuffer().get(words);
    return new BlockedBloomFilter(FilterWords.of(words), numBlocks, numProbes);
  }

  /** The trailer's hash id and probe count, checked, of the verified {@code buf} of {@code length} bytes. */
  private static int checkedProbes(ByteBuffer buf, int length) {
    int trailer = length - BloomFormat.TRAILER_BYTES;
    int hashId = Byte.toUnsignedInt(buf.get(trailer + BloomFormat.HASH_ID_OFFSET));
    if (hashId != BloomFormat.HASH_XXH3_64) {
      throw new IllegalArgumentException("unknown filter hash id " + hashId);
    }
    int numProbes = Byte.toUnsignedInt(buf.get(trailer + BloomFormat.NUM_PROBES_OFFSET));
    if (numProbes < BloomFormat.MIN_PROBES
        || numProbes > BloomFormat.MAX_PROBES
        || numProbes % BloomFormat.BITS_PER_STEP != 0) {
      throw new IllegalArgumentException("bad filter probe count " + numProbes);
    }
    return numProbes;
  }

  /** The trailer's block count, checked against {@code length}. */
  private static int checkedBlocks(ByteBuffer buf, int length) {
    int trailer = length - BloomFormat.TRAILER_BYTES;
    long numBlocks = Integer.toUnsignedLong(buf.getInt(trailer + BloomFormat.NUM_BLOCKS_OFFSET));
    if (numBlocks < 1 || BloomFormat.serializedBytes(numBlocks) != length) {
      throw new IllegalArgumentException(
          "filter of " + numBlocks + " blocks cannot be " + length + " bytes");
    }
    return (int) numBlocks;
  }

  @Override
  public String toString() {
    return "BlockedBloomFilter[blocks=" + numBlocks + ", probes=" + numProbes + "]";
  }
}
