package dev.strata.sstable.io;

import java.nio.ByteBuffer;


/**
 * The two buffers a bulk pass ({@link dev.strata.sstable.TableReader#bulkIterator}) reads its data blocks into, reused
 * block after block instead of two new arrays per block: the stored bytes (payload and trailer) as
 * read from the file, and the decompressed payload of an LZ4 block. A block read through them is
 * parsed in place, so it lives only until the next block is read: a forward or backward pass holds
 * one data block at a time (the cursor's current one), and nothing of a bulk pass is cached or handed
 * out (keys and values are copied or decoded out of the block before the cursor moves on).
 *
 * <p>Each buffer grows to the largest block the pass has met (by half again at least, so a slowly
 * growing run of block sizes does not reallocate each time) and is never shrunk.
 *
 * <p>Not thread-safe: one per bulk cursor.
 */
public final class BulkBuffers {
  private byte[] stored = new byte[0];
  /** A heap buffer over {@link #stored}, made again only when that array grows. */
  private ByteBuffer storedWrap = ByteBuffer.wrap(stored);
  private byte[] decompressed = new byte[0];

  /** An array of at least {@code length} bytes for a block's stored bytes; its contents are garbage. */
  public byte[] stored(int length) {
    if (stored.length < length) {
      stored = new byte[grown(stored.length, length)];
      storedWrap = ByteBuffer.wrap(stored);
    }
    return stored;
  }

  /**
   * A heap buffer over the array {@link #stored} last returned, for a read into it ({@link
   * TableFile#readFully(long, byte[], ByteBuffer, int)}) that then makes no buffer of its own.
   */
  public ByteBuffer storedWrap() {
    return storedWrap;
  }

  /** An array of at least {@code length} bytes for a decompressed payload; its contents are garbage. */
  public byte[] decompressed(int length) {
    if (decompressed.length < length) {
      decompressed = new byte[grown(decompressed.length, length)];
    }
    return decompressed;
  }

  /** Bytes the two buffers hold now; for tests. */
  int capacity() {
    return stored.length + decompressed.length;
  }

  private static int grown(int current, int wanted) {
    return (int) Math.max(wanted, Math.min(Integer.MAX_VALUE - 16L, current + (current >> 1)));
  }
}
