package dev.strata.sstable.block;

import dev.strata.bloom.DirectMemory;
import dev.strata.sstable.format.Bytes;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The bytes a data block's point search reads ({@link PointSearch#scan}): a heap array (a block of
 * the heap cache, or one read from the file) or a run of direct memory in the off-heap cache's slab
 * arena, read where it lies instead of copied out first.
 *
 * <p>Exactly two final subclasses, so that every call site of the search sees at most two receiver
 * types and the JIT inlines both behind one type check (a bimorphic site): one search serves both
 * kinds of memory, and the heap block's reads stay array reads.
 *
 * <p>The two differ on reads outside the bytes. A heap array throws, as the search's reads of a
 * verified block never stray. Direct bytes are read without a reference on their block (the search
 * validates them afterwards, {@link InPlaceBlock}), so a search that raced an eviction may compute
 * any position from the bytes of another block: a read outside {@code [0, length)} returns 0 and
 * reads no memory, so the search goes on over garbage, bounded, until its validation discards it.
 *
 * <p>Not thread-safe: a source is re-aimed by the one thread searching with it.
 */
public abstract sealed class BlockBytes permits BlockBytes.Heap, BlockBytes.Direct {
  /** The byte at {@code i}. */
  abstract byte get(int i);

  /** The little-endian u32 at {@code i}. */
  abstract int u32(int i);

  /** The little-endian u64 at {@code i}. */
  abstract long u64(int i);

  /** {@link Bytes#getVarint31} at {@code off}, reading below {@code limit}. */
  abstract long varint31(int off, int limit);

  /**
   * The first index {@code j < n} where the byte at {@code off + j} differs from {@code
   * other[from + j]}, or -1 when the {@code n} bytes match.
   */
  abstract int mismatch(int off, byte[] other, int from, int n);

  /** Bytes {@code [from, from + n)} in a new array. */
  abstract byte[] copy(int from, int n);

  /** A heap array's bytes; re-aimed at each block searched ({@link #over}). */
  static final class Heap extends BlockBytes {
    private byte[] data;

    /** This source, reading {@code data}. */
    Heap over(byte[] data) {
      this.data = data;
      return this;
    }

    @Override
    byte get(int i) {
      return data[i];
    }

    @Override
    int u32(int i) {
      return Bytes.getU32(data, i);
    }

    @Override
    long u64(int i) {
      return Bytes.getU64(data, i);
    }

    @Override
    long varint31(int off, int limit) {
      return Bytes.getVarint31(data, off, limit);
    }

    @Override
    int mismatch(int off, byte[] other, int from, int n) {
      return Arrays.mismatch(data, off, off + n, other, from, from + n);
    }

    @Override
    byte[] copy(int from, int n) {
      return Arrays.copyOfRange(data, from, from + n);
    }
  }

  /**
   * {@code length} bytes of direct memory from {@code address}, within a direct buffer this source
   * holds: read by address ({@link DirectMemory}) after a bounds check, as a filter's words are.
   *
   * <p>Memory safety. No read leaves {@code [address, address + length)}, which {@link #aim}
   * requires to lie in the buffer: every index is checked, and one outside gives 0. The buffer's
   * memory is not freed under a read: its owner (the slab arena) frees a slab only once closed and no
   * reader is in ({@code SlabReaders}, which an in-place search enters before it reads and leaves
   * after its validation), and each read ends with a reachability fence on the buffer, which this
   * source holds, so a collector's cleaner cannot free it mid-read either.
   */
  public static final class Direct extends BlockBytes {
    private ByteBuffer buffer;
    private long address;
    private int length;

    /** Whether direct bytes can be read here ({@link DirectMemory#supported}); else blocks are copied. */
    public static boolean supported() {
      return DirectMemory.supported();
    }

    /**
     * Aims this source at {@code buffer[offset, offset + length)}, a direct buffer allocated whole;
     * false (unchanged) when that range is not inside it.
     */
    public boolean aim(ByteBuffer buffer, int offset, int length) {
      if (!supported() || !buffer.isDirect() || offset < 0 || length < 0 || offset > buffer.capacity() - length) {
        return false;
      }
      this.buffer = buffer;
      this.address = DirectMemory.address(buffer) + offset;
      this.length = length;
      return true;
    }

    /** Drops the buffer, so that a thread's idle source keeps no slab reachable. */
    void clear() {
      buffer = null;
      address = 0;
      length = 0;
    }

    int length() {
      return length;
    }

    /**
     * Reads a byte of every cache line of the bytes and returns them summed (kept by the caller, so
     * the reads stay). Why: a search's reads depend on each other (each entry's position on the one
     * before), so over a block the processor's caches lack it waits for one miss at a time, while
     * these reads depend on nothing and go to memory together, as a copy's do.
     */
    int touchLines() {
      int sum = 0;
      for (int i = 0; i < length; i += Block.CACHE_LINE) {
        sum += DirectMemory.getByte(address + i);
      }
      Reference.reachabilityFence(buffer);
      return sum;
    }

    /** Whether {@code [i, i + n)} lies in the bytes (written so that no sum overflows). */
    private boolean inside(int i, int n) {
      return i >= 0 && n >= 0 && i <= length - n;
    }

    @Override
    byte get(int i) {
      if (!inside(i, 1)) {
        return 0;
      }
      byte b = DirectMemory.getByte(address + i);
      Reference.reachabilityFence(buffer);
      return b;
    }

    @Override
    int u32(int i) {
      if (!inside(i, 4)) {
        return 0;
      }
      int v = DirectMemory.getInt(address + i);
      Reference.reachabilityFence(buffer);
      return v;
    }

    @Override
    long u64(int i) {
      if (!inside(i, 8)) {
        return 0;
      }
      long v = DirectMemory.getLong(address + i);
      Reference.reachabilityFence(buffer);
      return v;
    }

    @Override
    long varint31(int off, int limit) {
      int end = Math.min(limit, length);
      int result = 0;
      for (int shift = 0, i = off; shift < 35 && i < end && i >= 0; shift += 7, i++) {
        int x = DirectMemory.getByte(address + i) & 0xff;
        if (shift == 28 && (x & 0xf8) != 0) {
          break; // would not fit in 31 bits
        }
        result |= (x & 0x7f) << shift;
        if ((x & 0x80) == 0) {
          Reference.reachabilityFence(buffer);
          return ((long) (i + 1) << 32) | (result & 0xffffffffL);
        }
      }
      Reference.reachabilityFence(buffer);
      return -1;
    }

    @Override
    int mismatch(int off, byte[] other, int from, int n) {
      if (!inside(off, n) || from < 0 || from > other.length - n) {
        return 0; // garbage: differs at once
      }
      int found = -1;
      int j = 0;
      for (; j + 8 <= n; j += 8) {
        long a = DirectMemory.getLong(address + off + j);
        long b = DirectMemory.getLong(other, from + j);
        if (a != b) {
          found = j + (Long.numberOfTrailingZeros(a ^ b) >>> 3); // little-endian: lowest byte first
          break;
        }
      }
      for (; found < 0 && j < n; j++) {
        if (DirectMemory.getByte(address + off + j) != other[from + j]) {
          found = j;
        }
      }
      Reference.reachabilityFence(buffer);
      return found;
    }

    @Override
    byte[] copy(int from, int n) {
      if (!inside(from, n)) {
        return new byte[0]; // garbage: its validation discards it
      }
      byte[] out = new byte[n];
      DirectMemory.copy(address + from, out, 0, n);
      Reference.reachabilityFence(buffer);
      return out;
    }
  }
}
