package dev.strata.sstable.block;

import dev.strata.sstable.cache.HeapCost;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.cache.SlabArena;
import java.nio.file.Path;

/**
 * A parsed data block whose payload the block cache holds off the heap ({@link OffHeapBlock}): the
 * restart points and origin of the {@link Block} it was made from, so that a copy of the payload
 * back on the heap is that block again, without parsing it a second time.
 *
 * <p>Why a copy and not a search in place: every reader of a block ({@link PointSearch}, {@link
 * BlockCursor}) works on a {@code byte[]}; a hit copies the payload (about 4 KiB) into the reading
 * thread's scratch array for a Get, or into a new array for a cursor, which holds its block across
 * calls and so must not depend on a slot that eviction may reuse. The README ("The block cache")
 * gives the measured cost of the copy.
 *
 * <p>Thread-safe (reference counted, otherwise immutable).
 */
public final class OffHeapDataBlock extends OffHeapBlock {
  /** Fields of this class: three ints, a reference and a long. */
  private static final int FIELD_BYTES = 3 * 4 + HeapCost.REFERENCE + 8;

  /** Scratch payloads larger than this are not kept per thread. */
  private static final int MAX_SCRATCH_BYTES = 256 << 10;

  private static final ThreadLocal<byte[][]> SCRATCH = ThreadLocal.withInitial(() -> new byte[1][]);

  private final int restartsOffset;
  private final int restartCount;
  private final int entryCount;
  private final Path file;
  private final long fileOffset;

  OffHeapDataBlock(SlabArena arena, Block block) {
    super(arena, block.data, 0, block.payloadLength());
    this.restartsOffset = block.restartsOffset;
    this.restartCount = block.restartCount;
    this.entryCount = block.entryCount;
    this.file = block.file;
    this.fileOffset = block.fileOffset;
  }

  /** What a block of {@code payloadLength} bytes costs off the heap and on it. */
  static int sizeBytes(int payloadLength) {
    return OffHeapBlock.sizeBytes(payloadLength, FIELD_BYTES);
  }

  @Override
  public int sizeBytes() {
    return sizeBytes(length());
  }

  /**
   * The block on the heap again, or null when it was evicted and released before this reader could
   * take a reference (the caller then treats it as a miss). With {@code scratch} the payload goes
   * into this thread's scratch array, valid until the thread's next scratch copy: for a Get, which
   * copies out the value it finds before it reads another block; else into a new array.
   */
  public Block toHeap(boolean scratch) {
    if (!retain()) {
      return null;
    }
    try {
      int length = length();
      byte[] data = scratch ? scratch(length) : new byte[length];
      copyTo(data, 0);
      return new Block(data, restartsOffset, restartCount, entryCount, file, fileOffset);
    } finally {
      release();
    }
  }

  private static byte[] scratch(int length) {
    if (length > MAX_SCRATCH_BYTES) {
      return new byte[length];
    }
    byte[][] holder = SCRATCH.get();
    byte[] b = holder[0];
    if (b == null || b.length < length) {
      b = new byte[Math.max(length, 8 << 10)];
      holder[0] = b;
    }
    return b;
  }
}
