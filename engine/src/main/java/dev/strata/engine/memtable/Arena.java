package dev.strata.engine.memtable;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Memory for a memtable's entries or index nodes: direct chunks from a {@link MemTableMemory}
 * handed out in slices, so a memtable of a million entries is a few dozen chunks instead of
 * millions of objects (LevelDB's and RocksDB's arena). An allocation is named by a {@code long}
 * address, the chunk's index in the high 32 bits and the offset in it in the low 32; slices are
 * never freed one by one: {@link #release} gives every chunk back at once.
 *
 * <p>Chunks are the memory's {@link MemTableMemory#firstChunkBytes() first size} and, when it
 * grows them, double up to its chunk size. An allocation larger than a quarter of the next chunk
 * gets a chunk of its own (LevelDB's rule), so a large value wastes neither the current chunk's
 * tail nor a chunk. Allocations are placed back to back from the start of a chunk: an arena whose
 * allocations are all multiples of 8 bytes hands out 8-byte aligned slices (chunks are).
 *
 * <p>Thread-safety: one thread allocates and writes at a time (the memtable's writer); any number
 * of threads read. A reader learns an address only through the skip list's release store, which
 * comes after the chunk directory ({@code chunks}, volatile) listed the chunk and after the slice
 * was written, so the reader sees both. {@link #release} may only be called once no reader can
 * use an address any more.
 */
final class Arena {
  private static final ByteBuffer[] RELEASED = new ByteBuffer[0];

  private final MemTableMemory memory;

  /** Chunks by index; grown by copying, so readers never see a partly filled directory. */
  private volatile ByteBuffer[] chunks = new ByteBuffer[16];

  /** Writer state: chunks in use, the chunk allocations are cut from, how much of it is taken. */
  private int chunkCount;

  private int currentIndex = -1;
  private int currentUsed;
  private int nextChunkBytes;

  /** Bytes handed out plus the tails of chunks left behind: what the arena's entries occupy. */
  private long bytesUsed;

  /** Bytes of every chunk, used or not. */
  private long bytesHeld;

  Arena(MemTableMemory memory) {
    this.memory = memory;
    this.nextChunkBytes = memory.firstChunkBytes();
  }

  /** A slice of {@code size} bytes; its contents are unspecified. Writer only. */
  long allocate(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("negative allocation: " + size);
    }
    if (currentIndex >= 0 && chunks[currentIndex].capacity() - currentUsed >= size) {
      long address = address(currentIndex, currentUsed);
      currentUsed += size;
      bytesUsed += size;
      return address;
    }
    if (size > nextChunkBytes / 4) {
      int index = addChunk(memory.take(size)); // its own chunk; the current one stays current
      bytesUsed += size;
      return address(index, 0);
    }
    if (currentIndex >= 0) {
      // The current chunk's tail is lost to later entries: charged now.
      bytesUsed += chunks[currentIndex].capacity() - currentUsed;
    }
    currentIndex = addChunk(memory.take(nextChunkBytes));
    currentUsed = size;
    bytesUsed += size;
    nextChunkBytes = Math.min(memory.chunkBytes(), nextChunkBytes * 2);
    return address(currentIndex, 0);
  }

  /** The chunk holding {@code address}. */
  ByteBuffer chunk(long address) {
    return chunks[(int) (address >>> 32)];
  }

  /** The offset of {@code address} in its chunk. */
  static int offset(long address) {
    return (int) address;
  }

  /** Bytes taken by allocations, with the tails of chunks no allocation fits in any more. */
  long bytesUsed() {
    return bytesUsed;
  }

  /** Bytes of all chunks, the unused end of the current one included. */
  long bytesHeld() {
    return bytesHeld;
  }

  /**
   * Gives every chunk back to the memory. The directory is emptied first, so a use after release
   * (a bug: the caller vouches that no reader is left) fails on the directory instead of reading
   * memory another memtable owns.
   */
  void release() {
    ByteBuffer[] dir = chunks;
    chunks = RELEASED;
    for (int i = 0; i < chunkCount; i++) {
      memory.give(dir[i]);
      dir[i] = null;
    }
    chunkCount = 0;
    currentIndex = -1;
  }

  private int addChunk(ByteBuffer chunk) {
    ByteBuffer[] dir = chunks;
    if (chunkCount == dir.length) {
      dir = Arrays.copyOf(dir, dir.length * 2);
    }
    dir[chunkCount] = chunk;
    chunks = dir; // volatile: publishes the chunk before any address in it
    bytesHeld += chunk.capacity();
    return chunkCount++;
  }

  private static long address(int chunk, int offset) {
    return (long) chunk << 32 | offset;
  }
}
