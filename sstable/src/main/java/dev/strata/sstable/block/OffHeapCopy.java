package dev.strata.sstable.block;

import dev.strata.sstable.cache.OffHeapBlock;
import java.nio.file.Path;

/**
 * A data block the block cache holds off the heap ({@link OffHeapBlock}), copied back into a
 * {@link Block}: its payload copied out under a reference, its restart points read back from the
 * payload's end (the block was verified before it was cached).
 *
 * <p>Why a copy and not a search in place: every reader of a block ({@link PointSearch}, {@link
 * BlockCursor}) works on a {@code byte[]}. A Get copies into its thread's scratch array and scratch
 * block, both reused, so it allocates nothing here; a cursor, which holds its block across calls
 * and so must not depend on a slot eviction may reuse, gets a new array and block. The README ("The
 * block cache") gives the measured cost of the copy.
 *
 * <p>Thread-safe: the scratch is per thread.
 */
public final class OffHeapCopy {
  /** Scratch payloads larger than this are not kept per thread. */
  private static final int MAX_SCRATCH_BYTES = 256 << 10;

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  /** A thread's scratch array and the block it re-aims over it. */
  private static final class Scratch {
    byte[] bytes = new byte[8 << 10];
    final Block block = Block.ofVerified(new byte[4], 4, null, 0);
  }

  private OffHeapCopy() {}

  /**
   * The block {@code cached} holds, from {@code file} at {@code fileOffset}, on the heap; or null
   * when it was evicted and released before this reader could take a reference (the caller then
   * treats it as a miss). With {@code scratch} the payload goes into this thread's scratch array
   * and block, valid until the thread's next scratch copy: for a Get, which copies out the value it
   * finds before it reads another block; else into a new array and block.
   */
  public static Block toHeap(OffHeapBlock cached, boolean scratch, Path file, long fileOffset) {
    if (!cached.retain()) {
      return null;
    }
    try {
      int length = cached.length();
      if (!scratch || length > MAX_SCRATCH_BYTES) {
        byte[] data = new byte[length];
        cached.copyTo(data, 0);
        return Block.ofVerified(data, length, file, fileOffset);
      }
      Scratch s = SCRATCH.get();
      if (s.bytes.length < length) {
        s.bytes = new byte[Math.max(length, 2 * s.bytes.length)];
      }
      cached.copyTo(s.bytes, 0);
      s.block.reaim(s.bytes, length, file, fileOffset);
      return s.block;
    } finally {
      cached.release();
    }
  }
}
