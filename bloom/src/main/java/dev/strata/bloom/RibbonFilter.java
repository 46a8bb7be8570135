package dev.strata.bloom;

import dev.strata.checksum.Checksums;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * A static filter built once from every key's {@link KeyHash#hash64}: a standard Ribbon filter,
 * about 30% smaller than a Bloom filter at the same false-positive rate, slower to build.
 *
 * <p>{@code false} from {@link #mightContainHash} means the key is definitely absent; {@code true}
 * means it may be present. Every hash the filter was built from is reported as possibly present,
 * whatever the hashes (duplicates included), however the filter was serialized and reloaded.
 *
 * <p>Immutable: safe to query from many threads.
 */
/*
 * Design.
 *
 * The idea [1]. Each key is one linear equation over GF(2): a row of 128 coefficient bits placed
 * at a start slot, times a solution matrix Z of numSlots x r bits, must equal r fingerprint bits
 * of the key. Building solves the system for Z; a query evaluates its key's equation (r parities
 * of 128 bits) and compares it with the key's fingerprint. Every key that was added matches (no
 * false negatives); any other key matches with probability exactly 2^-r, since its fingerprint is
 * independent of the parities. The filter is the r bits of every slot, and slots are only about
 * 4% more than keys: 1.04 r bits per key where a Bloom filter needs 1.44 r (and the blocked one
 * about 1.5 r).
 *
 * Construction: standard Ribbon, as in RocksDB [2]. RibbonHash derives from the key hash (under a
 * seed) a start slot, 128 coefficient bits whose first is always 1, and 32 fingerprint bits.
 * RibbonBanding adds keys one by one by on-the-fly Gaussian elimination: the row is XOR-ed with
 * the pivot row stored at its current first slot, shifted to its next set bit, and so on until it
 * reaches a free slot, where it becomes that slot's pivot. A row that vanishes with a zero result
 * is implied by the others (a duplicate key always is) and is dropped; with a non-zero result the
 * system has no solution and the attempt fails. Back-substitution then solves each column from the
 * last slot down, 0 for a free slot.
 *
 * Failure and retries. RibbonSizing sizes the slots so that an attempt fails with probability at
 * most 1/20 (the occupancy table and how it was derived are in docs/PERFORMANCE.md, "The Ribbon
 * filter"), then adds 2% spare slots: elimination's work per key grows steeply as the load nears
 * that point, so the spare buys a much faster build for little memory. A failed attempt is
 * retried under the next seed, which remixes every key into an unrelated system; after 4 seeds
 * each further attempt adds 1/64 of the slots. The attempts are deterministic (the same hashes
 * give the same filter) and bounded: after 32 failed attempts (a chance far below that of a
 * hardware error) or when the slots would exceed the format's limit, the build returns a filter
 * of no columns, which answers "maybe" for every key, so "no false negatives" holds
 * unconditionally, whatever the hashes.
 *
 * Width: 128 coefficient bits. With 64 a key's row meets fewer slots, so elimination fails sooner
 * and the system needs noticeably more spare slots at chunk sizes; that costs more bits per key at
 * every rate than the wider row costs in query time, and only the 128-bit row reaches the target
 * of at most 7.2 bits per key at 1% (the simulated occupancy of both widths is in
 * docs/PERFORMANCE.md). A negative query is decided by its first four columns fifteen times in
 * sixteen, so the wider row's extra word per column is paid on those four only.
 *
 * Layout: interleaved column-major [2]. The slots are blocks of 64; the solution of one column of
 * one block is one 64-bit segment. A key starting at offset t of block b has its 128 slots in
 * blocks b, b + 1 and (unless t = 0) b + 2, so a query shifts its coefficient row left by t into
 * three words once and, per column, ANDs them with that column's segments of the three blocks and
 * takes the parity. Fractional bits per slot: the first lowerBlocks blocks carry one column fewer
 * (RocksDB's upper_start_block), so any average between whole columns can be spent; the rate of
 * a query is 2^-(columns of its start block). The persisted form (RibbonFormat) stores the
 * segments block by block, column by column inside a block; in memory (RibbonLayout) the first
 * four columns of every block come first, block by block, then the other columns in the persisted
 * order. A query evaluates those four columns of its three blocks, twelve consecutive words (two
 * cache lines), without a branch, and goes on to the rest one time in sixteen when negative.
 *
 * Memory. The solution lives in words (FilterWords: a heap long[], or direct memory for a chunk a
 * table pins) in RibbonLayout's order, with zero padding for the block after the last; loading a
 * chunk is one read and one reordering copy. Building keeps 20 bytes
 * per slot (RibbonBanding: two coefficient words and an int result) and the remixed hashes sorted
 * by block (8 bytes per key), besides the solution being written and the caller's 8 bytes per
 * hash: about 29 bytes per key (1.06 slots per key at chunk sizes). A failed attempt's arrays are
 * reused by the next, and a RibbonBuilder keeps them from one filter to the next (a table writer
 * holds one), so a chunk's build allocates only its filter. A table builds its filter chunk by
 * chunk, each chunk its own Ribbon, so the build memory is bounded by the largest chunk, not the
 * table: a 128 KiB chunk at 1% holds about 150,000 keys and needs about 4.4 MB of arrays. (An
 * unpartitioned filter over a whole large table is what made TiKV turn Ribbon off.)
 *
 * References. [1] P. C. Dillinger, S. Walzer, "Ribbon filter: practically smaller than Bloom and
 * Xor", arXiv:2103.02515 (2021). [2] RocksDB util/ribbon_alg.h, util/ribbon_impl.h (standard
 * Ribbon, interleaved solution storage) and util/ribbon_config.cc (slots per key). [3] P. C.
 * Dillinger, L. Huebschle-Schneider, P. Sanders, S. Walzer, "Fast Succinct Retrieval and
 * Approximate Membership using Ribbon", SEA 2022 (bumped Ribbon; why the overhead grows with n).
 * [4] D. Lemire, "A fast alternative to the modulo reduction" (2016), for the start slot.
 */
public final class RibbonFilter {
  /** The filter of no keys: every query answers absent. */
  private static final RibbonFilter EMPTY = new RibbonFilter(FilterWords.of(new long[0]), 0, 0, 0, 0);

  /** Largest bits per key accepted, as {@link BlockedBloomFilter#create} accepts. */
  private static final double MAX_BITS_PER_KEY = 64;

  /**
   * Solution segments in the in-memory layout of {@link RibbonLayout} (columns 0 and 1 of every
   * block first, then the rest), zero padding included.
   */
  private final FilterWords words;

  private final int numBlocks;
  private final int columns;
  private final int lowerBlocks;
  private final int seed;
  private final long numStarts;

  /** Columns kept in each block's lead ({@link RibbonLayout#lead}). */
  private final int lead;

  /** Result bits a query of an upper block compares in its lead. */
  private final int leadMask;

  /** 1 when a lower block has one lead column fewer than an upper one (at most four columns). */
  private final int lowerShift;

  private RibbonFilter(FilterWords words, int numBlocks, int columns, int lowerBlocks, int seed) {
    this.words = words;
    this.numBlocks = numBlocks;
    this.columns = columns;
    this.lowerBlocks = lowerBlocks;
    this.seed = seed;
    this.numStarts = RibbonSizing.numStarts(numBlocks);
    this.lead = RibbonLayout.lead(columns);
    this.leadMask = (1 << lead) - 1;
    this.lowerShift = columns <= RibbonLayout.LEAD_COLUMNS ? 1 : 0;
  }

  /**
   * A filter of {@code hashes[0, count)} spending about {@code bitsPerKey} bits per key (a filter
   * of a few hundred keys or fewer keeps the rate of that budget and rounds its memory up to whole
   * blocks of 128 slots). At most 32 fingerprint bits are used, so budgets above about 33 bits per
   * key give a rate of 2^-32 in less memory.
   *
   * @param hashes {@link KeyHash#hash64} of every key, in any order, duplicates allowed
   * @throws IllegalArgumentException if {@code count} is negative, exceeds {@code hashes.length}
   *     or is too large for one filter, or {@code bitsPerKey} is not in [1, 64]
   */
  public static RibbonFilter build(long[] hashes, int count, double bitsPerKey) {
    return build(hashes, count, bitsPerKey, new RibbonBanding());
  }

  /** {@link #build(long[], int, double)} in {@code banding}'s reused arrays. */
  static RibbonFilter build(long[] hashes, int count, double bitsPerKey, RibbonBanding banding) {
    checkHashes(hashes, count);
    if (!(bitsPerKey >= 1 && bitsPerKey <= MAX_BITS_PER_KEY)) {
      throw new IllegalArgumentException("bitsPerKey must be in [1, 64]: " + bitsPerKey);
    }
    return build(
        hashes,
        count,
        blocks -> RibbonSizing.shapeForBitsPerKey(count, blocks, bitsPerKey),
        RibbonSizing.MAX_ATTEMPTS,
        banding);
  }

  /**
   * The smallest filter of {@code hashes[0, count)} whose model rate ({@link #expectedFpp}) is at
   * most {@code fpp}.
   *
   * @throws IllegalArgumentException if {@code count} is negative, exceeds {@code hashes.length}
   *     or is too large for one filter, or {@code fpp} is not in [2^-32, 1)
   */
  public static RibbonFilter forFalsePositiveRate(long[] hashes, int count, double fpp) {
    return forFalsePositiveRate(hashes, count, fpp, new RibbonBanding());
  }

  /** {@link #forFalsePositiveRate(long[], int, double)} in {@code banding}'s reused arrays. */
  static RibbonFilter forFalsePositiveRate(
      long[] hashes, int count, double fpp, RibbonBanding banding) {
    checkHashes(hashes, count);
    if (!(fpp > 0 && fpp < 1)) {
      throw new IllegalArgumentException("fpp must be in (0, 1): " + fpp);
    }
    RibbonSizing.columnsForRate(fpp); // rejects a rate below 2^-32 even when count is 0
    return build(
        hashes,
        count,
        blocks -> RibbonSizing.shapeForRate(blocks, fpp),
        RibbonSizing.MAX_ATTEMPTS,
        banding);
  }

  /**
   * Builds with up to {@code maxAttempts} attempts, each of the shape {@code shapeFor} gives for its
   * block count; when all fail, the filter that answers "maybe" for every key.
   */
  static RibbonFilter build(
      long[] hashes, int count, IntFunction<RibbonSizing.Shape> shapeFor, int maxAttempts) {
    return build(hashes, count, shapeFor, maxAttempts, new RibbonBanding());
  }

  /** As above, each attempt in {@code banding}'s reused arrays. */
  private static RibbonFilter build(
      long[] hashes,
      int count,
      IntFunction<RibbonSizing.Shape> shapeFor,
      int maxAttempts,
      RibbonBanding banding) {
    if (count == 0) {
      return EMPTY;
    }
    long sized = RibbonSizing.blocksFor(count);
    for (int attempt = 0; attempt < maxAttempts; attempt++) {
      long blocks = RibbonSizing.blocksForAttempt(sized, attempt);
      if (blocks > RibbonFormat.MAX_BLOCKS) {
        break;
      }
      RibbonSizing.Shape shape = shapeFor.apply((int) blocks);
      banding.reset(shape.numBlocks(), shape.columns(), attempt);
      if (banding.addAll(hashes, count)) {
        long[] solution = banding.solve(shape.columns(), shape.lowerBlocks());
        return new RibbonFilter(
            FilterWords.of(solution), shape.numBlocks(), shape.columns(), shape.lowerBlocks(), attempt);
      }
    }
    return new RibbonFilter(
        FilterWords.of(new long[RibbonLayout.words(RibbonFormat.MIN_BLOCKS, 0, 0)]),
        RibbonFormat.MIN_BLOCKS, 0, 0, 0);
  }

  private static void checkHashes(long[] hashes, int count) {
    Objects.requireNonNull(hashes, "hashes");
    if (count < 0 || count > hashes.length) {
      throw new IllegalArgumentException(
          "count must be in [0, hashes.length = " + hashes.length + "]: " + count);
    }
    if (RibbonSizing.blocksFor(count) > RibbonFormat.MAX_BLOCKS) {
      throw new IllegalArgumentException("count too large for one Ribbon filter: " + count);
    }
  }

  /** False means the key whose {@link KeyHash#hash64} is {@code hash64} is definitely absent. */
  public boolean mightContainHash(long hash64) {
    if (columns == 0) {
      return numBlocks != 0; // the empty filter, or the one that passes everything
    }
    long x = RibbonHash.remix(hash64, seed);
    int start = RibbonHash.start(x, numStarts);
    long lo = RibbonHash.coefficientLo(x);
    long hi = RibbonHash.coefficientHi(x);
    int result = RibbonHash.result(x);
    // The row shifted left by t = start % 64 over the three blocks it spans; ">>> 1 >>> (63 - t)"
    // is ">>> (64 - t)" but 0 when t = 0.
    int t = start & 63;
    long d0 = lo << t;
    long d1 = (hi << t) | ((lo >>> 1) >>> (63 - t));
    long d2 = (hi >>> 1) >>> (63 - t);
    // The lead columns of the three blocks are consecutive words (RibbonLayout), evaluated without
    // a branch: four columns decide fifteen negative queries in sixteen.
    FilterWords w = words;
    int block = start >>> 6;
    int s = lead;
    int q = s * block;
    long v0 = (w.get(q) & d0) ^ (w.get(q + s) & d1) ^ (w.get(q + 2 * s) & d2);
    long v1 = (w.get(q + 1) & d0) ^ (w.get(q + s + 1) & d1) ^ (w.get(q + 2 * s + 1) & d2);
    long v2 = (w.get(q + 2) & d0) ^ (w.get(q + s + 2) & d1) ^ (w.get(q + 2 * s + 2) & d2);
    long v3 = (w.get(q + 3) & d0) ^ (w.get(q + s + 3) & d1) ^ (w.get(q + 2 * s + 3) & d2);
    int parities = (Long.bitCount(v0) & 1) | (Long.bitCount(v1) & 1) << 1
        | (Long.bitCount(v2) & 1) << 2 | (Long.bitCount(v3) & 1) << 3;
    // Only the columns the start block has count: a lower block lacks the last one, which is in
    // the lead when the filter has at most four (lowerShift 1, else 0), and a narrower lead's
    // other reads are the next block's words. Arithmetic rather than a choice: a branch on the
    // start block, unpredictable, cost more than the lead's twelve reads together.
    int mask = leadMask >>> (((block - lowerBlocks) >>> 31) & lowerShift);
    if (((parities ^ result) & mask) != 0) {
      return false;
    }
    return columns <= RibbonLayout.LEAD_COLUMNS
        || restMatches(block, d0, d1, d2, result >>> RibbonLayout.LEAD_COLUMNS);
  }

  /**
   * Columns 4 and up of a query whose lead matched (kept out of {@link #mightContainHash} so
   * that method stays small enough to inline into a caller's probe loop). Two columns per branch:
   * each column of a negative query passes with probability 1/2, so a branch per pair mispredicts
   * about a third as often as one per column. An odd last column is checked alone (mask 1); its
   * pair's reads fall on the next segments or on the padding, never outside the array.
   */
  private boolean restMatches(int block, long d0, long d1, long d2, int result) {
    int p0 = RibbonLayout.restFirst(block, numBlocks, columns, lowerBlocks);
    int p1 = RibbonLayout.restFirst(block + 1, numBlocks, columns, lowerBlocks);
    int p2 = RibbonLayout.restFirst(block + 2, numBlocks, columns, lowerBlocks);
    int rest = RibbonLayout.columnsOf(block, columns, lowerBlocks) - RibbonLayout.LEAD_COLUMNS;
    FilterWords w = words;
    for (int j = 0; j < rest; j += 2) {
      long v0 = (w.get(p0 + j) & d0) ^ (w.get(p1 + j) & d1) ^ (w.get(p2 + j) & d2);
      long v1 = (w.get(p0 + j + 1) & d0) ^ (w.get(p1 + j + 1) & d1) ^ (w.get(p2 + j + 1) & d2);
      int parities = (Long.bitCount(v0) & 1) | ((Long.bitCount(v1) & 1) << 1);
      int mask = j + 1 < rest ? 3 : 1;
      if (((parities ^ (result >>> j)) & mask) != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The first word {@link #mightContainHash} reads for {@code hash64}: a batch of probes reads each
   * probe's first word first, so the processor has the cache misses of the whole batch in flight
   * at once, and then probes.
   */
  public long touch(long hash64) {
    if (columns == 0) {
      return 0;
    }
    int block = RibbonHash.start(RibbonHash.remix(hash64, seed), numStarts) >>> 6;
    return words.get(RibbonLayout.leadFirst(block, columns));
  }

  /** Bits of the solution, the filter's memory apart from a fixed 24-byte trailer. */
  public long bitSize() {
    return RibbonFormat.numSegments(numBlocks, columns, lowerBlocks) * Long.SIZE;
  }

  /**
   * The model's false-positive rate for this filter as built: 2^-c for a query whose start lies in
   * a block of c columns, averaged over the start slots; 0 for the empty filter, 1 for one of no
   * columns.
   */
  public double expectedFpp() {
    return RibbonSizing.fpp(numBlocks, columns, lowerBlocks);
  }

  /** Blocks of 64 slots. */
  int numBlocks() {
    return numBlocks;
  }

  /** Columns (fingerprint bits) of the upper blocks. */
  int columns() {
    return columns;
  }

  /** Blocks, from the first, with one column fewer. */
  int lowerBlocks() {
    return lowerBlocks;
  }

  /** Seed the rows were derived under: the number of the attempt that succeeded. */
  int seed() {
    return seed;
  }

  /** The persisted form ({@link RibbonFormat}): the bytes a table's filter chunk holds. */
  public byte[] toByteArray() {
    int segments = (int) RibbonFormat.numSegments(numBlocks, columns, lowerBlocks);
    int solutionBytes = segments * RibbonFormat.SEGMENT_BYTES;
    byte[] out = new byte[solutionBytes + RibbonFormat.TRAILER_BYTES];
    ByteBuffer buf = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    RibbonLayout.toPersisted(words, numBlocks, columns, lowerBlocks, buf.asLongBuffer());
    buf.position(solutionBytes);
    buf.putInt(numBlocks);
    buf.putInt(lowerBlocks);
    buf.putShort((short) seed);
    buf.put((byte) columns);
    buf.put((byte) RibbonFormat.KIND_STANDARD_128);
    buf.put((byte) RibbonFormat.HASH_XXH3_64);
    buf.put((byte) 0);
    buf.putShort((short) RibbonFormat.VERSION_CURRENT);
    buf.putInt(RibbonFormat.MAGIC);
    buf.putInt(Checksums.maskedCrc32c(out, 0, solutionBytes + RibbonFormat.CRC_OFFSET));
    return out;
  }

  /**
   * Reads the persisted form, checking every field and the checksum before trusting any of it.
   *
   * @throws NullPointerException if {@code bytes} is null
   * @throws IllegalArgumentException if the bytes are not a filter of this format: wrong size,
   *     magic, checksum, version, kind, hash id or shape
   */
  public static RibbonFilter fromByteArray(byte[] bytes) {
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
  public static RibbonFilter fromBytes(byte[] bytes, int offset, int length) {
    Objects.requireNonNull(bytes, "bytes");
    Objects.checkFromIndexSize(offset, length, bytes.length);
    checkLength(length);
    return decode(FilterTrailer.verify(bytes, offset, length, RibbonFormat.TRAILER), false);
  }

  /**
   * Reads the persisted form {@code bytes[position, limit)} (heap or direct, read where it lies),
   * checking every field and the checksum as {@link #fromByteArray} does, into direct memory of
   * its own in the query layout: a pinned chunk's solution lives off the heap, probed there, and
   * is freed by the collector with the filter. {@code bytes} is not kept.
   *
   * @throws IllegalArgumentException as {@link #fromByteArray}
   */
  public static RibbonFilter offHeap(ByteBuffer bytes) {
    ByteBuffer persisted = bytes.slice();
    checkLength(persisted.remaining());
    return decode(FilterTrailer.verify(persisted, RibbonFormat.TRAILER), true);
  }

  private static void checkLength(int length) {
    if (length < RibbonFormat.TRAILER_BYTES) {
      throw new IllegalArgumentException("not a Ribbon filter: " + length + " bytes");
    }
  }

  /**
   * The filter whose persisted form {@code buf} (little-endian, from 0 to its capacity) holds, its
   * checksum verified: the trailer's fields checked, the solution laid out in a heap array, or in
   * direct memory when {@code direct}.
   */
  private static RibbonFilter decode(ByteBuffer buf, boolean direct) {
    int length = buf.capacity();
    int trailer = length - RibbonFormat.TRAILER_BYTES;
    int kind = Byte.toUnsignedInt(buf.get(trailer + RibbonFormat.KIND_OFFSET));
    int hashId = Byte.toUnsignedInt(buf.get(trailer + RibbonFormat.HASH_ID_OFFSET));
    int reserved = Byte.toUnsignedInt(buf.get(trailer + RibbonFormat.RESERVED_OFFSET));
    if (kind != RibbonFormat.KIND_STANDARD_128
        || hashId != RibbonFormat.HASH_XXH3_64
        || reserved != 0) {
      throw new IllegalArgumentException(
          "unknown Ribbon filter kind " + kind + ", hash id " + hashId + " or flags " + reserved);
    }
    long numBlocks = Integer.toUnsignedLong(buf.getInt(trailer + RibbonFormat.NUM_BLOCKS_OFFSET));
    long lower = Integer.toUnsignedLong(buf.getInt(trailer + RibbonFormat.LOWER_BLOCKS_OFFSET));
    int seed = Short.toUnsignedInt(buf.getShort(trailer + RibbonFormat.SEED_OFFSET));
    int columns = Byte.toUnsignedInt(buf.get(trailer + RibbonFormat.COLUMNS_OFFSET));
    boolean shapeOk =
        numBlocks <= RibbonFormat.MAX_BLOCKS
            && (numBlocks >= RibbonFormat.MIN_BLOCKS || numBlocks == 0)
            && columns <= RibbonFormat.MAX_COLUMNS
            && (lower < numBlocks || lower == 0)
            && (columns > 0 || lower == 0)
            && (numBlocks > 0 || (columns == 0 && seed == 0));
    if (!shapeOk
        || RibbonFormat.serializedBytes(numBlocks, columns, lower) != length) {
      throw new IllegalArgumentException(
          "Ribbon filter of " + numBlocks + " blocks, " + columns + " columns, " + lower
              + " lower blocks cannot be " + length + " bytes");
    }
    if (numBlocks == 0) {
      return EMPTY;
    }
    int count = RibbonLayout.words((int) numBlocks, columns, (int) lower);
    FilterWords words = direct ? FilterWords.direct(count) : FilterWords.of(new long[count]);
    buf.position(0).limit(trailer);
    RibbonLayout.fromPersisted(buf.asLongBuffer(), words, (int) numBlocks, columns, (int) lower);
    return new RibbonFilter(words, (int) numBlocks, columns, (int) lower, seed);
  }

  /** Whether the solution lies outside the Java heap (a filter read with {@link #offHeap}). */
  public boolean offHeap() {
    return words.offHeap();
  }

  /** Words of the solution in memory, padding included: what {@link #offHeap} memory holds. */
  public int memoryWords() {
    return words.length();
  }

  @Override
  public String toString() {
    return "RibbonFilter[blocks=" + numBlocks + ", columns=" + columns + ", lowerBlocks="
        + lowerBlocks + ", seed=" + seed + "]";
  }
}
