package dev.strata.engine;

import dev.strata.engine.write.Limits;
import dev.strata.sstable.TableOptions;

/**
 * How new tables' data blocks are cut and compressed. Each table records its own codec, so changing
 * these never changes how existing tables are read. Each component is set by the {@link
 * DbOptions.Builder} method of the same name; the constructor rejects a value out of range with an
 * {@link IllegalArgumentException} naming it.
 *
 * <p>Immutable.
 *
 * @param blockSizeBytes target size of a data block before compression, in [64, 2^26] bytes (64
 *     bytes to 64 MiB); default 4096
 * @param compression how new tables' data blocks are compressed; default {@link Compression#LZ4}
 */
public record DataBlockOptions(int blockSizeBytes, Compression compression) {

  /** Smallest data block target (64 bytes); a block holds at least one cell however small. */
  public static final int MIN_BLOCK_SIZE_BYTES = TableOptions.MIN_BLOCK_SIZE_BYTES;

  /** Largest data block target (64 MiB); a block is read and cached whole. */
  public static final int MAX_BLOCK_SIZE_BYTES = TableOptions.MAX_BLOCK_SIZE_BYTES;

  /** Checks every component's range. */
  public DataBlockOptions {
    OptionRanges.check(
        "blockSizeBytes", blockSizeBytes, MIN_BLOCK_SIZE_BYTES, MAX_BLOCK_SIZE_BYTES);
    Limits.requireNonNull(compression, "compression");
  }
}
