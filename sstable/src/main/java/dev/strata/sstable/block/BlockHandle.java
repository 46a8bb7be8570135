package dev.strata.sstable.block;

import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.SstableFormat;

/**
 * Where a block lies: its payload starts at {@code offset} and is {@code length} bytes long; the
 * 5-byte trailer follows it. Encoded as offset u64, length u32 ({@link SstableFormat#HANDLE_BYTES}).
 *
 * <p>Immutable.
 */
public record BlockHandle(long offset, int length) {
  /** The handle of an absent block. */
  public static final BlockHandle NONE = new BlockHandle(0, 0);

  public BlockHandle {
    assert offset >= 0 && length >= 0 : "offset=" + offset + " length=" + length;
  }

  /** Bytes the block takes in the file, trailer included. */
  public long storedLength() {
    return (long) length + SstableFormat.BLOCK_TRAILER_BYTES;
  }

  /** File offset after the block's trailer. */
  long end() {
    return offset + storedLength();
  }

  /** Writes this handle at {@code b[off]}. */
  public void encodeTo(byte[] b, int off) {
    Bytes.putU64(b, off, offset);
    Bytes.putU32(b, off + 8, length);
  }

  /**
   * The handle at {@code b[off]}, or {@code null} when it cannot describe a block that ends at or
   * before {@code limit} (a negative or too-large offset or length).
   */
  public static BlockHandle decodeOrNull(byte[] b, int off, long limit) {
    long offset = Bytes.getU64(b, off);
    int length = Bytes.getU32(b, off + 8);
    return fits(offset, length, limit) ? new BlockHandle(offset, length) : null;
  }

  /** The length of the handle at {@code b[off]}, which {@link #decodeOrNull} reads with its offset. */
  public static int lengthAt(byte[] b, int off) {
    return Bytes.getU32(b, off + 8);
  }

  /**
   * Whether (offset, length) can describe a block that ends, with its trailer, at or before {@code
   * limit}: {@link #decodeOrNull}'s check, for a reader that takes the two numbers without a handle.
   */
  public static boolean fits(long offset, int length, long limit) {
    return offset >= 0 && length >= 0 && length <= SstableFormat.MAX_BLOCK_BYTES
        && offset <= limit - length - SstableFormat.BLOCK_TRAILER_BYTES;
  }
}
