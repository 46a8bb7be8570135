package dev.strata.bloom;

/**
 * The persisted form of a {@link RibbonFilter}: the bytes a table's Ribbon filter chunk holds.
 *
 * <pre>
 * filter    := solution trailer
 * solution  := segment{numSegments}              numSegments * 8 bytes
 * segment   := u64                               the 64 solution bits of one column of one block:
 *                                                bit k is slot block * 64 + k
 * trailer   := numBlocks:u32 lowerBlocks:u32 seed:u16 columns:u8 kind:u8 hashId:u8 reserved:u8
 *              version:u16 magic:u32 crc:u32    (24 bytes, LE)
 * crc       := masked CRC32C (dev.strata.checksum.Checksums) of every byte before it
 *
 * columns(b)   = columns - 1 for b &lt; lowerBlocks, else columns
 * numSegments  = numBlocks * columns - lowerBlocks
 * segment of column j of block b = b * columns - min(b, lowerBlocks) + j
 * </pre>
 *
 * The segments are in interleaved column-major order: block by block, and inside a block column
 * by column. A key's row spans 128 slots from its start, so a query reads the segments of its
 * start block and of the two blocks after it (a loaded filter holds them in the order of {@code
 * RibbonLayout}, columns 0 and 1 of every block first; the bytes are as here). The first {@code
 * lowerBlocks} blocks carry one column fewer: that is how the filter spends a fractional number of
 * bits per slot. {@code numBlocks = 0} is the empty filter (no keys: every query answers absent);
 * otherwise {@code numBlocks >= 2} (a row's 128 slots), and {@code columns = 0} is a filter that
 * answers "maybe" for every key. How queries derive their slot, coefficients and fingerprint from {@code
 * KeyHash.hash64} and {@code seed} is {@link RibbonFilter}'s to document (FORMAT.md gives it
 * too).
 *
 * <p>Version history (readers accept {@link #VERSION_START}..{@link #VERSION_CURRENT}):
 *
 * <ol>
 *   <li>Standard Ribbon, 128-bit coefficient rows, interleaved column-major solution in 64-slot
 *       blocks.
 * </ol>
 *
 * <p>Immutable (constants only).
 */
public final class RibbonFormat {
  /** "SRBN" as it reads in a hex dump of the little-endian trailer. */
  public static final int MAGIC = 0x4E425253;

  /** The first version readers accept. */
  public static final int VERSION_START = 1;

  /** The version writers write. */
  public static final int VERSION_CURRENT = 1;

  /** Kind id of standard Ribbon with 128-bit coefficients, the only kind so far. */
  public static final int KIND_STANDARD_128 = 1;

  /** Hash id of the key hash the filter is built over ({@link KeyHash}, XXH3-64 seed 0). */
  public static final int HASH_XXH3_64 = BloomFormat.HASH_XXH3_64;

  /** Coefficient bits per key row: a key's row spans this many slots from its start. */
  public static final int COEFFICIENT_BITS = 128;

  /** Slots per block: one 64-bit word (segment) per column. */
  public static final int BLOCK_SLOTS = Long.SIZE;

  /** Bytes in one segment. */
  public static final int SEGMENT_BYTES = Long.BYTES;

  /** Fewest blocks of a non-empty filter: one row's 128 slots. */
  public static final int MIN_BLOCKS = COEFFICIENT_BITS / BLOCK_SLOTS;

  /** Most solution columns (fingerprint bits), a rate of 2^-32; results are banded as ints. */
  public static final int MAX_COLUMNS = 32;

  /** Largest seed a filter may record (the field is a u16). */
  public static final int MAX_SEED = 0xffff;

  /**
   * Most blocks a filter may hold: the builder keeps two coefficient words per slot in one {@code
   * long[]}, so at most 2^30 slots.
   */
  public static final int MAX_BLOCKS = (1 << 30) / BLOCK_SLOTS;

  /** Size of the trailer. */
  public static final int TRAILER_BYTES = 24;

  /** Trailer field offsets, relative to the trailer's start. */
  static final int NUM_BLOCKS_OFFSET = 0;

  static final int LOWER_BLOCKS_OFFSET = 4;
  static final int SEED_OFFSET = 8;
  static final int COLUMNS_OFFSET = 10;
  static final int KIND_OFFSET = 11;
  static final int HASH_ID_OFFSET = 12;
  static final int RESERVED_OFFSET = 13;
  static final int VERSION_OFFSET = 14;
  static final int MAGIC_OFFSET = 16;
  static final int CRC_OFFSET = 20;

  /** The fields a reader checks first (magic, crc, version), for {@link FilterTrailer}. */
  static final FilterTrailer.Layout TRAILER =
      new FilterTrailer.Layout(
          "Ribbon filter",
          TRAILER_BYTES,
          MAGIC,
          MAGIC_OFFSET,
          CRC_OFFSET,
          VERSION_OFFSET,
          VERSION_START,
          VERSION_CURRENT);

  private RibbonFormat() {}

  /** Segments of the solution of a filter of this shape. */
  public static long numSegments(long numBlocks, int columns, long lowerBlocks) {
    return numBlocks * columns - lowerBlocks;
  }

  /**
   * Index of the segment of column 0 of block {@code block}: the blocks before it hold {@code
   * columns} segments each, the first {@code lowerBlocks} of them one fewer. Column j's segment
   * follows at + j; the next block's first segment minus this one is the block's column count.
   */
  public static int firstSegment(int block, int columns, int lowerBlocks) {
    return block * columns - Math.min(block, lowerBlocks);
  }

  /** Bytes of the persisted form of a filter of this shape. */
  public static long serializedBytes(long numBlocks, int columns, long lowerBlocks) {
    return numSegments(numBlocks, columns, lowerBlocks) * SEGMENT_BYTES + TRAILER_BYTES;
  }
}
