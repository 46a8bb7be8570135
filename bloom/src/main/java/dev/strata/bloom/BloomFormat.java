package dev.strata.bloom;

/**
 * The persisted form of a {@link BlockedBloomFilter}: the same bytes a table's filter chunk holds.
 *
 * <pre>
 * filter   := bits trailer
 * bits     := block{numBlocks}                  numBlocks * 64 bytes
 * block    := word{8}                           8 x u64 little-endian; bit b of word w is
 *                                               (word &gt;&gt;&gt; b) &amp; 1
 * trailer  := numBlocks:u32 numProbes:u8 hashId:u8 version:u16 magic:u32 crc:u32   (16 bytes, LE)
 * crc      := masked CRC32C (dev.strata.checksum.Checksums) of every byte before it
 * </pre>
 *
 * The bits come first so that a chunk placed at a 64-byte-aligned file offset keeps its blocks
 * aligned in a memory map; the trailer is fixed-size so a reader finds it from the end. Probe
 * positions are derived from {@code KeyHash.hash64} as {@link BlockedBloomFilter} documents.
 *
 * <p>Version history (readers accept {@link #VERSION_START}..{@link #VERSION_CURRENT}):
 *
 * <ol>
 *   <li>Sectorized 512-bit blocks: numProbes / 2 steps into distinct words of the block, 2 bits in
 *       each, from the low half of the hash; block from the high half by multiply-high.
 * </ol>
 *
 * <p>Immutable (constants only).
 */
public final class BloomFormat {
  /** "SBLF" as it reads in a hex dump of the little-endian trailer. */
  public static final int MAGIC = 0x464C4253;

  /** The first version readers accept. */
  public static final int VERSION_START = 1;

  /** The version writers write. */
  public static final int VERSION_CURRENT = 1;

  /** Hash id of XXH3-64 with seed 0, the only hash so far. */
  public static final int HASH_XXH3_64 = 1;

  /** Bytes in one block: one cache line. */
  public static final int BLOCK_BYTES = 64;

  /** Bits in one block. */
  public static final int BLOCK_BITS = BLOCK_BYTES * 8;

  /** 64-bit words in one block. */
  public static final int WORDS_PER_BLOCK = BLOCK_BYTES / Long.BYTES;

  /** Bits each probe step sets or tests in its word. */
  public static final int BITS_PER_STEP = 2;

  /** Fewest probes a filter may use (one step). */
  public static final int MIN_PROBES = BITS_PER_STEP;

  /** Most probes a filter may use (eight steps: 16 bits of one cache line). */
  public static final int MAX_PROBES = 16;

  /**
   * Most blocks a filter may hold: the bits live in one {@code long[]}, so at most 2^31 - 1 words,
   * and the block choice reduces 32 hash bits, so at most 2^32 blocks; the former binds.
   */
  public static final int MAX_BLOCKS = Integer.MAX_VALUE / WORDS_PER_BLOCK;

  /** Size of the trailer. */
  public static final int TRAILER_BYTES = 16;

  /** Trailer field offsets, relative to the trailer's start. */
  static final int NUM_BLOCKS_OFFSET = 0;

  static final int NUM_PROBES_OFFSET = 4;
  static final int HASH_ID_OFFSET = 5;
  static final int VERSION_OFFSET = 6;
  static final int MAGIC_OFFSET = 8;
  static final int CRC_OFFSET = 12;

  /** The fields a reader checks first (magic, crc, version), for {@link FilterTrailer}. */
  static final FilterTrailer.Layout TRAILER =
      new FilterTrailer.Layout(
          "filter",
          TRAILER_BYTES,
          MAGIC,
          MAGIC_OFFSET,
          CRC_OFFSET,
          VERSION_OFFSET,
          VERSION_START,
          VERSION_CURRENT);

  private BloomFormat() {}

  /** Bytes of the persisted form of a filter of {@code numBlocks} blocks. */
  public static long serializedBytes(long numBlocks) {
    return numBlocks * BLOCK_BYTES + TRAILER_BYTES;
  }
}
