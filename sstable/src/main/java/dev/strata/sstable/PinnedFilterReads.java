package dev.strata.sstable;

import static dev.strata.sstable.format.SstableFormat.BLOCK_TRAILER_BYTES;

import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.filter.FilterChunk;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.io.DirectBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A pinning open's reads of one table's filter blocks (its chunks and row-tombstone filter) into
 * direct memory, where each is checked and becomes the off-heap {@link FilterChunk} the cache pins
 * ({@link FilterChunk#decodeOffHeap}): no heap array of the bytes and no heap copy of the words, so
 * a large open allocates little heap and young collections have no filters to copy.
 *
 * <p>Where the bytes go. A format-6 table's chunks lie together ({@link #readStretch}): one direct
 * buffer takes all of them in one read. A Bloom chunk is probed where it lies in that buffer; a
 * Ribbon chunk is laid out into direct memory of its own (its query layout is not its stored one).
 * A block outside the stretch (the row-tombstone filter, written after the last chunk; every chunk
 * of an older table) is read into a buffer of its own, kept by a Bloom filter read there. A stretch
 * that held both kinds would stay whole while a Bloom chunk probes in it, its Ribbon chunks' stored
 * bytes uncharged; a table's writer chooses one kind for all its chunks.
 *
 * <p>Who frees. A buffer that no chunk took (a stretch of Ribbon chunks, a Ribbon chunk's own read,
 * a block that did not check) is freed here at once: no other thread ever saw it. Memory a chunk
 * holds is freed by the collector, with the last reference to the chunk, never explicitly: a chunk
 * outlives its reader's close in the cache (unpinned, until evicted), may be handed to a reader
 * reopened on the same file (the cache keys by file number), and a Get or batch may be probing it
 * on another thread; only the collector knows that none can.
 *
 * <p>Not thread-safe: the opening thread uses it, before the reader is published.
 */
final class PinnedFilterReads implements AutoCloseable {
  private final BlockFetcher fetcher;
  private final int formatVersion;
  /** The stretch of chunks read at once, or null; from file offset {@link #stretchStart}. */
  private ByteBuffer stretch;

  private long stretchStart;
  /** Whether a chunk probes its bits in {@link #stretch}: then only the collector frees it. */
  private boolean stretchKept;

  PinnedFilterReads(BlockFetcher fetcher, int formatVersion) {
    this.fetcher = fetcher;
    this.formatVersion = formatVersion;
  }

  /** Reads the file's bytes {@code [from, to)}, where the chunks lie together, in one read. */
  void readStretch(long from, long to) throws IOException {
    ByteBuffer b = ByteBuffer.allocateDirect(Math.toIntExact(to - from));
    fetcher.readInto(from, b);
    stretch = b;
    stretchStart = from;
  }

  /**
   * The filter block at {@code h}, checked, off the heap: from the stretch when it lies there, else
   * read alone.
   *
   * @throws dev.strata.sstable.format.CorruptTableException when it does not check
   */
  FilterChunk load(BlockHandle h, BlockType type) throws IOException {
    int stored = h.length() + BLOCK_TRAILER_BYTES;
    ByteBuffer buf = stretch;
    boolean own = buf == null || h.offset() < stretchStart || h.offset() + stored > stretchStart + buf.capacity();
    int at = 0;
    if (own) {
      buf = ByteBuffer.allocateDirect(stored);
      fetcher.readInto(h.offset(), buf);
    } else {
      at = (int) (h.offset() - stretchStart);
    }
    FilterChunk chunk;
    try {
      chunk = StoredBlocks.decodeFilterOffHeap(buf.slice(at, stored), fetcher.path(), h, type, formatVersion);
    } catch (IOException | RuntimeException e) {
      if (own) {
        DirectBuffers.free(buf); // nothing refers to it
      }
      throw e;
    }
    boolean inPlace = chunk.kind() == FilterKind.BLOOM; // a Ribbon chunk copied its words out
    if (own && !inPlace) {
      DirectBuffers.free(buf);
    }
    stretchKept |= !own && inPlace;
    return chunk;
  }

  /** Frees the stretch unless a chunk probes in it. */
  @Override
  public void close() {
    if (stretch != null && !stretchKept) {
      DirectBuffers.free(stretch);
    }
    stretch = null;
  }
}
