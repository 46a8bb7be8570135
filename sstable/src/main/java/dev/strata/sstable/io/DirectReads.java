package dev.strata.sstable.io;

import dev.strata.sstable.format.CorruptTableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Positional reads of a file opened with {@code O_DIRECT} ({@link TableFile}'s direct mode).
 *
 * <p><b>Alignment.</b> With {@code O_DIRECT} the file position, the length and the memory address
 * of every read must be multiples of the file store's block size ({@code align}, a power of two;
 * the JDK checks all three and throws otherwise). A table's blocks sit at arbitrary offsets, so a
 * read of {@code [position, position + length)} reads the aligned span {@code [spanStart(position),
 * spanEnd(position + length))} into an aligned direct buffer and copies the wanted bytes out. Near
 * the end of the file the span runs past it: the kernel then returns a short read ending at the end
 * of the file, which is enough when it covers the wanted bytes and is a truncated file otherwise (a
 * short read that is not at the end of the file is always a whole number of blocks).
 *
 * <p><b>Buffers.</b> Each thread keeps one aligned direct buffer, grown to the longest span it has
 * read and never beyond {@link #MAX_PIECE_BYTES}: a Get allocates nothing, and a longer read (a
 * large filter chunk or block) is cut into pieces of at most that size, one read call each.
 *
 * <p>Immutable and thread-safe (the buffers are per thread).
 */
final class DirectReads {
  /** Longest span one read call covers, and the largest buffer a thread keeps. */
  static final int MAX_PIECE_BYTES = 256 << 10;

  /** Smallest buffer a thread starts with: a few blocks, so small reads do not regrow it. */
  private static final int MIN_BUFFER_BYTES = 16 << 10;

  private static final ThreadLocal<ByteBuffer> BUFFERS = new ThreadLocal<>();

  private final int align;

  /** @param align the file store's block size: a power of two, at most 64 KiB */
  DirectReads(long align) {
    if (align <= 0 || align > (64 << 10) || Long.bitCount(align) != 1) {
      throw new IllegalArgumentException("direct I/O alignment must be a power of two up to 64 KiB: " + align);
    }
    this.align = (int) align;
  }

  /** The aligned offset at or before {@code position}: where the span covering it starts. */
  static long spanStart(long position, int align) {
    return position & -align;
  }

  /** The aligned offset at or after {@code end} (exclusive): where the span covering it ends. */
  static long spanEnd(long end, int align) {
    return (end + align - 1) & -align;
  }

  /**
   * Reads exactly {@code length} bytes at {@code position} of {@code ch} into the start of {@code
   * into}.
   *
   * @throws CorruptTableException when the file ends first
   */
  void read(FileChannel ch, Path path, long position, byte[] into, int length) throws IOException {
    read(ch, path, position, length, into, null);
  }

  /**
   * Reads exactly {@code into.remaining()} bytes at {@code position} into {@code into} from its
   * position on, leaving its position and limit as they were.
   *
   * @throws CorruptTableException when the file ends first
   */
  void read(FileChannel ch, Path path, long position, ByteBuffer into) throws IOException {
    read(ch, path, position, into.remaining(), null, into);
  }

  /** The read of {@code length} bytes into {@code intoArray} from 0, or else {@code intoBuffer} from its position. */
  private void read(FileChannel ch, Path path, long position, int length, byte[] intoArray, ByteBuffer intoBuffer)
      throws IOException {
    long end = position + length;
    long spanEnd = spanEnd(end, align);
    long pieceStart = spanStart(position, align);
    int copied = 0;
    while (copied < length) {
      long pieceEnd = Math.min(spanEnd, pieceStart + MAX_PIECE_BYTES);
      ByteBuffer buf = buffer((int) (pieceEnd - pieceStart));
      // Bytes of this piece the caller wants, counted from the piece's start.
      int need = (int) (Math.min(end, pieceEnd) - pieceStart);
      while (buf.position() < need) {
        int n = ch.read(buf, pieceStart + buf.position());
        if (n <= 0 || (buf.position() < need && buf.position() % align != 0)) {
          throw new CorruptTableException(
              path, pieceStart + buf.position(), "unexpected end of file reading %d bytes at %d", length, position);
        }
      }
      int from = (int) (Math.max(position, pieceStart) - pieceStart);
      if (intoArray != null) {
        buf.get(from, intoArray, copied, need - from);
      } else {
        intoBuffer.put(intoBuffer.position() + copied, buf, from, need - from);
      }
      copied += need - from;
      pieceStart = pieceEnd;
    }
  }

  /** This thread's buffer, cleared and limited to {@code length} (aligned, at most a piece). */
  private ByteBuffer buffer(int length) {
    ByteBuffer b = BUFFERS.get();
    if (b == null || b.capacity() < length || b.alignmentOffset(0, align) != 0) {
      int size = Math.min(MAX_PIECE_BYTES, Math.max(MIN_BUFFER_BYTES, Integer.highestOneBit(length - 1) << 1));
      b = ByteBuffer.allocateDirect(Math.max(size, length) + align).alignedSlice(align);
      BUFFERS.set(b);
    }
    b.clear().limit(length);
    return b;
  }
}
