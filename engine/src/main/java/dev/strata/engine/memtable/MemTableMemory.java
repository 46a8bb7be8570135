package dev.strata.engine.memtable;

import dev.strata.sstable.io.DirectBuffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;

/**
 * The memory memtables keep their entries and index in: direct (off-heap) chunks of one size, which
 * a database's memtables take while they fill and give back when the last read of them is done, so
 * that the next memtable reuses them (RocksDB's arena blocks live outside any collected heap too).
 *
 * <p><b>Why off the heap.</b> A memtable's bytes live from the put that wrote them to the flush
 * that empties the memtable, seconds later: in a heap they were young objects that every young
 * collection copied (a 64 MiB memtable's chunks were still being copied, survivor space to
 * survivor space and into the old generation, collection after collection), and old garbage once
 * flushed, which only a concurrent cycle reclaims. Off the heap the collector sees a few chunk
 * objects per memtable, and the bytes go back to this pool at once, not when a cycle finds them.
 *
 * <p><b>Lifetime.</b> A chunk is given back only when no read can still touch it: a memtable gives
 * its chunks back when its reference count ({@link MemTable#release}) reaches zero, after the
 * engine let it go and every read view that held it was released. The pool keeps at most {@code
 * pooledBytes} of chunks for the next memtables and frees the rest at once ({@code
 * sun.misc.Unsafe.invokeCleaner}, as Netty and Lucene free direct buffers), as it frees what it
 * holds when the database closes. Chunks of a memtable that is never released (a standalone one,
 * or one a failed open dropped) are freed by the collector with their buffer objects, as any direct
 * buffer is.
 *
 * <p><b>Use after release, under assertions.</b> With assertions enabled (the tests), every chunk
 * given back is filled with {@link #POISON} before it is pooled or freed, and a chunk to be freed
 * waits in a small quarantine first: a read of a released memtable then decodes poison (an entry's
 * row length with its top bit set, which no entry has, and which {@link ArenaEntries} asserts
 * against) instead of another memtable's bytes or unmapped memory.
 *
 * <p>Direct memory counts against {@code -XX:MaxDirectMemorySize} (by default the heap's maximum):
 * a database holds at most its memtable, the two frozen ones and {@code pooledBytes}.
 *
 * <p>Thread-safe: chunks are taken by the writing thread and given back by whichever thread
 * releases a memtable last.
 */
public final class MemTableMemory implements AutoCloseable {
  /** The largest chunk: what a memtable may leave unused at its end, per arena. */
  static final int MAX_CHUNK_BYTES = 1 << 20;

  /** The smallest chunk, and the first of a memtable that grows its chunks. */
  static final int MIN_CHUNK_BYTES = 4 << 10;

  /** What a released chunk is filled with under assertions: every byte 0xA5. */
  static final long POISON = 0xA5A5A5A5A5A5A5A5L;

  /** Chunks freed under assertions wait here, poisoned, before they are unmapped. */
  private static final int QUARANTINE_CHUNKS = 16;

  private static final boolean POISONING = poisoning();

  private final ArrayDeque<ByteBuffer> quarantine = new ArrayDeque<>();

  private final int chunkBytes;
  private final boolean growing;
  private final long pooledBytes;
  private final ArrayDeque<ByteBuffer> pool = new ArrayDeque<>();
  private boolean closed;
  private long allocatedBytes;

  private MemTableMemory(int chunkBytes, boolean growing, long pooledBytes) {
    this.chunkBytes = chunkBytes;
    this.growing = growing;
    this.pooledBytes = pooledBytes;
  }

  /**
   * The memory of a database whose memtables are frozen at {@code memtableBytes}: chunks of a
   * sixteenth of that, between {@link #MIN_CHUNK_BYTES} and {@link #MAX_CHUNK_BYTES} (1 MiB from a
   * 16 MiB memtable), and a pool holding one memtable's worth, which is what the next memtable
   * takes while the previous one is flushed.
   */
  public static MemTableMemory pooled(long memtableBytes) {
    long sixteenth = Math.max(MIN_CHUNK_BYTES, memtableBytes / 16);
    int chunk = (int) Math.min(MAX_CHUNK_BYTES, Long.highestOneBit(sixteenth));
    long pooled = Math.min(memtableBytes, 1L << 40) + 2L * chunk;
    return new MemTableMemory(chunk, false, pooled);
  }

  /**
   * Memory that pools nothing, for a standalone memtable: its chunks start at {@link
   * #MIN_CHUNK_BYTES} and double up to {@link #MAX_CHUNK_BYTES}, so a memtable of a handful of
   * entries costs a few KiB; they are freed when the memtable is released.
   */
  public static MemTableMemory unpooled() {
    return new MemTableMemory(MAX_CHUNK_BYTES, true, 0);
  }

  /** The size of the chunks this memory pools; a memtable's largest regular chunk. */
  int chunkBytes() {
    return chunkBytes;
  }

  /** The first chunk an arena takes: a pooled chunk, or the smallest one when chunks grow. */
  int firstChunkBytes() {
    return growing ? MIN_CHUNK_BYTES : chunkBytes;
  }

  /**
   * A chunk of exactly {@code bytes} (a pooled one when {@code bytes} is {@link #chunkBytes}),
   * little-endian; its contents are unspecified.
   */
  ByteBuffer take(int bytes) {
    if (bytes == chunkBytes) {
      synchronized (this) {
        ByteBuffer b = pool.pollFirst();
        if (b != null) {
          return b.clear();
        }
      }
    }
    ByteBuffer b = ByteBuffer.allocateDirect(bytes).order(ByteOrder.LITTLE_ENDIAN);
    synchronized (this) {
      allocatedBytes += bytes;
    }
    return b;
  }

  /**
   * Gives back a chunk no read can touch any more: pooled when there is room, freed otherwise.
   * The caller must hold no reference to it afterwards.
   */
  void give(ByteBuffer chunk) {
    if (POISONING) {
      poison(chunk);
    }
    synchronized (this) {
      if (!closed
          && chunk.capacity() == chunkBytes
          && (long) (pool.size() + 1) * chunkBytes <= pooledBytes) {
        pool.addFirst(chunk);
        return;
      }
      allocatedBytes -= chunk.capacity();
      if (POISONING) {
        quarantine.addLast(chunk);
        chunk = quarantine.size() > QUARANTINE_CHUNKS ? quarantine.pollFirst() : null;
      }
    }
    if (chunk != null) {
      free(chunk);
    }
  }

  private static void poison(ByteBuffer chunk) {
    for (int i = 0; i + Long.BYTES <= chunk.capacity(); i += Long.BYTES) {
      chunk.putLong(i, POISON);
    }
  }

  /** Direct bytes allocated and not freed: chunks in memtables and in the pool. */
  public synchronized long allocatedBytes() {
    return allocatedBytes;
  }

  /** Bytes of chunks waiting in the pool. */
  public synchronized long pooledBytes() {
    return (long) pool.size() * chunkBytes;
  }

  /**
   * Frees the pooled chunks; chunks given back later are freed at once. Memtables still held keep
   * theirs until released. Idempotent.
   */
  @Override
  public void close() {
    ArrayDeque<ByteBuffer> freed;
    synchronized (this) {
      closed = true;
      freed = new ArrayDeque<>(pool);
      pool.clear();
      allocatedBytes -= (long) freed.size() * chunkBytes;
      freed.addAll(quarantine); // no longer counted: nothing can read them once closed
      quarantine.clear();
    }
    freed.forEach(MemTableMemory::free);
  }

  private static void free(ByteBuffer chunk) {
    DirectBuffers.free(chunk);
  }

  @SuppressWarnings("AssertWithSideEffects")
  private static boolean poisoning() {
    boolean on = false;
    assert on = true; // the debug check runs where assertions do
    return on;
  }
}
