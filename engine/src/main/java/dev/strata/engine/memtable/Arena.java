package dev.strata.engine.memtable;

/**
 * Memory for a memtable's entries: large byte arrays (chunks) handed out in slices, so a memtable
 * of a million entries is a few dozen arrays instead of millions of objects (LevelDB's and
 * RocksDB's arena). An allocation is named by a {@code long} address, the chunk's index in the high
 * 32 bits and the offset in it in the low 32; slices are never freed one by one, the whole arena
 * goes with its memtable.
 *
 * <p>Chunks start at {@link #FIRST_CHUNK_BYTES} and double up to {@link #MAX_CHUNK_BYTES}, so a
 * small memtable stays small. An allocation larger than a quarter of the chunk size gets a chunk of
 * its own (LevelDB's rule), so a large value wastes neither the current chunk's tail nor a chunk.
 *
 * <p>Thread-safety: one thread allocates and writes at a time (the memtable's writer); any number
 * of threads read. A reader learns an address only through the skip list's release store, which
 * comes after the chunk directory ({@code chunks}, volatile) listed the chunk and after the slice
 * was written, so the reader sees both.
 */
final class Arena {
  /** The first chunk's size: a memtable holding a handful of entries costs little. */
  static final int FIRST_CHUNK_BYTES = 4 << 10;

  /**
   * The largest regular chunk: at most this much of a full memtable's budget is left unused. Just
   * under 1 MiB, so that with its array header a chunk fits one G1 region of 1 MiB (heaps under 4
   * GiB): G1 places an array of half a region or more in regions of its own, and a 1 MiB array
   * (1 MiB + 16 header bytes) took two, the second nearly empty and unusable by anything else, so a
   * 64 MiB memtable held 128 MiB of a 1 GiB heap. With 2 MiB regions such a chunk is an ordinary
   * object where a 1 MiB one had a region to itself. The skip list's node chunks follow the same
   * rule.
   */
  static final int MAX_CHUNK_BYTES = (1 << 20) - 64;

  /** Chunks by index; grown by copying, so readers never see a partly filled directory. */
  private volatile byte[][] chunks = new byte[16][];

  /** Writer state: chunks in use, the chunk allocations are cut from and how much of it is taken. */
  private int chunkCount;

  private int currentIndex = -1;
  private int currentUsed;
  private int nextChunkBytes = FIRST_CHUNK_BYTES;

  /** Bytes handed out plus the tails of chunks left behind: what the arena's entries occupy. */
  private long bytesUsed;

  /** Bytes of every chunk, used or not. */
  private long bytesHeld;

  /** A slice of {@code size} bytes; its contents are zero. Writer only. */
  long allocate(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("negative allocation: " + size);
    }
    if (currentIndex >= 0 && chunks[currentIndex].length - currentUsed >= size) {
      long address = address(currentIndex, currentUsed);
      currentUsed += size;
      bytesUsed += size;
      return address;
    }
    if (size > nextChunkBytes / 4) {
      int index = addChunk(new byte[size]); // its own chunk; the current one stays current
      bytesUsed += size;
      return address(index, 0);
    }
    if (currentIndex >= 0) {
      bytesUsed += chunks[currentIndex].length - currentUsed; // the tail is lost to later entries
    }
    currentIndex = addChunk(new byte[nextChunkBytes]);
    currentUsed = size;
    bytesUsed += size;
    nextChunkBytes = Math.min(MAX_CHUNK_BYTES, nextChunkBytes * 2);
    return address(currentIndex, 0);
  }

  /** The chunk holding {@code address}. */
  byte[] chunk(long address) {
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

  private int addChunk(byte[] chunk) {
    byte[][] dir = chunks;
    if (chunkCount == dir.length) {
      dir = java.util.Arrays.copyOf(dir, dir.length * 2);
    }
    dir[chunkCount] = chunk;
    chunks = dir; // volatile: publishes the chunk before any address in it
    bytesHeld += chunk.length;
    return chunkCount++;
  }

  private static long address(int chunk, int offset) {
    return (long) chunk << 32 | offset;
  }
}
