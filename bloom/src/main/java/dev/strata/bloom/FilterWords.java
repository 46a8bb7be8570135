package dev.strata.bloom;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * The 64-bit words a filter is probed from: a heap {@code long[]} (a filter built here, or loaded
 * through the block cache) or a little-endian {@link ByteBuffer}, usually direct memory a table's
 * open read the filter into and that is probed where it lies.
 *
 * <p>Exactly two final subclasses, so that every call site reading words sees at most two
 * receiver types and the JIT inlines both behind one type check (a bimorphic site); one probe
 * implementation serves both kinds of memory.
 *
 * <p>Thread-safety: reads are safe from many threads once no word is being written.
 */
abstract sealed class FilterWords permits FilterWords.Heap, FilterWords.Buffer {
  /** The word at {@code index}. */
  abstract long get(int index);

  /** ORs {@code bits} into the word at {@code index} (a Bloom filter's put). */
  abstract void or(int index, long bits);

  /** Sets the word at {@code index} (a filter being laid out, before anyone probes it). */
  abstract void set(int index, long word);

  /** How many words there are. */
  abstract int length();

  /** Whether the words lie outside the Java heap. */
  abstract boolean offHeap();

  /** Words {@code [0, count)} appended to {@code out}, in order. */
  final void copyTo(LongBuffer out, int count) {
    for (int i = 0; i < count; i++) {
      out.put(get(i));
    }
  }

  /** Words in a heap array of their own. */
  static FilterWords of(long[] words) {
    return new Heap(words);
  }

  /**
   * The words that {@code bytes[0, 8 * count)} hold little-endian, read in place: the buffer is
   * not copied, and must stay unchanged while the words are probed.
   */
  static FilterWords inPlace(ByteBuffer bytes, int count) {
    return new Buffer(bytes.slice(0, count * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN));
  }

  /** Zeroed words in direct memory of their own (freed by the collector with the last reference). */
  static FilterWords direct(int count) {
    return new Buffer(ByteBuffer.allocateDirect(count * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN));
  }

  /** Words in a heap array. */
  static final class Heap extends FilterWords {
    private final long[] words;

    Heap(long[] words) {
      this.words = words;
    }

    @Override
    long get(int index) {
      return words[index];
    }

    @Override
    void or(int index, long bits) {
      words[index] |= bits;
    }

    @Override
    void set(int index, long word) {
      words[index] = word;
    }

    @Override
    int length() {
      return words.length;
    }

    @Override
    boolean offHeap() {
      return false;
    }
  }

  /**
   * Words in a little-endian buffer: word i is the eight bytes at 8 i, which is the persisted
   * order of both filter formats (so a Bloom filter's bits are probed in the bytes read from the
   * file). {@link ByteBuffer#getLong(int)} checks the index against the buffer's limit, so a bad
   * index throws rather than reading outside the memory.
   */
  static final class Buffer extends FilterWords {
    private final ByteBuffer bytes;

    Buffer(ByteBuffer bytes) {
      this.bytes = bytes;
    }

    @Override
    long get(int index) {
      return bytes.getLong(index << 3);
    }

    @Override
    void or(int index, long bits) {
      bytes.putLong(index << 3, bytes.getLong(index << 3) | bits);
    }

    @Override
    void set(int index, long word) {
      bytes.putLong(index << 3, word);
    }

    @Override
    int length() {
      return bytes.capacity() >>> 3;
    }

    @Override
    boolean offHeap() {
      return bytes.isDirect();
    }
  }
}
