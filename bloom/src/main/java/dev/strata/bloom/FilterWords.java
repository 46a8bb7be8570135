package dev.strata.bloom;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.Objects;

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
   * file).
   *
   * <p>Reads. A direct buffer's words are read by address ({@link DirectMemory}) after
   * an explicit index check: a probe reads up to a few dozen words, and reading each through the
   * buffer reloads its limit, scope and address per word behind the exception edges of its scoped
   * access, which made a Ribbon probe markedly slower than one of the heap array (the figures are
   * in docs/PERFORMANCE.md, "Pinned filters off the heap"). Where Unsafe refuses (its instance or the
   * buffer's address field cannot be had), and for a heap buffer, the words are read through the
   * buffer's own long view instead.
   *
   * <p>Memory safety. No read is outside the words: the index is checked against their count. No
   * read is of freed memory: this object holds the buffer, whose cleaner frees the memory only
   * once the buffer is unreachable, and each read ends with a reachability fence on this object,
   * so the buffer stays reachable until the read is done, even when the probe's caller held the
   * last reference to the filter; and no code frees a buffer explicitly once words were made over
   * it ({@code PinnedFilterReads} frees only buffers no filter took).
   */
  static final class Buffer extends FilterWords {
    /** The bytes: kept reachable as long as the words are, so their memory outlives every read. */
    private final ByteBuffer bytes;

    /** The bytes as words in the buffer's order; for writes, and for reads without Unsafe. */
    private final LongBuffer words;

    /** The address of word 0 for an Unsafe read, or 0 (a heap buffer, or no Unsafe). */
    private final long address;

    private final int length;

    Buffer(ByteBuffer bytes) {
      this.bytes = bytes;
      this.words = bytes.asLongBuffer();
      this.length = words.capacity();
      this.address = DirectMemory.supported() && bytes.isDirect() ? DirectMemory.address(bytes) : 0;
    }

    @Override
    long get(int index) {
      if (address == 0) {
        return words.get(index);
      }
      Objects.checkIndex(index, length);
      long word = DirectMemory.getLong(address + ((long) index << 3));
      Reference.reachabilityFence(this);
      return word;
    }

    @Override
    void or(int index, long bits) {
      words.put(index, words.get(index) | bits);
    }

    @Override
    void set(int index, long word) {
      words.put(index, word);
    }

    @Override
    int length() {
      return length;
    }

    @Override
    boolean offHeap() {
      return bytes.isDirect();
    }
  }
}
