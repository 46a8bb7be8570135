package dev.strata.sstable.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One shard of a {@link ClockBlockCache}: lock-free tables for lookups (a {@link NodeTable} of the
 * blocks on the heap and of every block while it loads, the {@link DataEntries} of the data blocks
 * held off the heap) and, under one lock, admission, pins and the {@link ShardClock} that keeps the
 * shard within its bytes. The policy is explained in {@link ClockBlockCache}.
 *
 * <p>Thread-safe: {@link #table} and the off-heap entries are read without the lock and changed
 * under it; everything else is guarded by {@link #lock}.
 */
final class Shard {
  /** The nodes by key: read without the lock, changed under it. */
  final NodeTable table = new NodeTable();
  final ReentrantLock lock = new ReentrantLock();

  /** The bytes the shard's entries may cost: its share of the cache less what it charges up front. */
  final long capacity;

  /**
   * What the shard holds besides its entries, charged up front: the ghost's array and, off the heap,
   * the arena's bookkeeping (slot links in direct memory, the slab objects on the heap).
   */
  private final long fixedBytes;

  /** The part of {@link #fixedBytes} in direct memory: the arena's slot links. */
  private final long linkBytes;

  /** Where data blocks' bytes live when the cache keeps them off the heap; else null. */
  private final SlabArena arena;

  /** The off-heap blocks' entries (null without an arena): read without the lock. */
  private final DataEntries offHeap;

  private final CacheCounters counters;

  @GuardedBy("lock")
  private final ShardClock clock;

  /** Set by {@link #close}: the shard then caches nothing. */
  @GuardedBy("lock")
  private boolean closed;

  Shard(long share, double metadataShare, double probationShare, CacheCounters counters,
      boolean offHeapData) {
    Ghost ghost = Ghost.forCapacity(share);
    long ghostBytes = ghost == null ? 0 : ghost.heapBytes();
    long arenaBytes = offHeapData ? SlabArena.bookkeepingBytes(share - ghostBytes) : 0;
    this.linkBytes = offHeapData ? SlabArena.linkBytes(share - ghostBytes) : 0;
    this.fixedBytes = Math.min(share, ghostBytes + arenaBytes);
    this.capacity = share - fixedBytes;
    this.arena = offHeapData ? new SlabArena(capacity) : null;
    this.counters = counters;
    this.clock = new ShardClock(capacity, metadataShare, probationShare, counters, table, ghost, arena);
    this.offHeap = clock.offHeapEntries();
  }

  /** The off-heap blocks' entries, for lookups without the lock; null without an arena. */
  DataEntries offHeapEntries() {
    return offHeap;
  }

  /**
   * The off-heap data block (fileNumber, offset) as {@code view} (a new one when null), its hit
   * recorded; or null when the shard holds it on the heap or not at all. Without the lock.
   */
  OffHeapBlock offHeapHit(long fileNumber, long offset, long hash, OffHeapBlock view) {
    if (offHeap == null) {
      return null;
    }
    int i = offHeap.find(fileNumber, offset, hash);
    if (i == DataEntries.NONE) {
      return null;
    }
    OffHeapBlock v = view != null ? view : new OffHeapBlock();
    return aimed(i, fileNumber, offset, v) ? v : null;
  }

  /**
   * {@link #offHeapHit} from the chain head a batch's first pass stashed in {@code view} ({@code
   * ClockBlockCache.getAllIfPresent}), or a full lookup without a view.
   */
  OffHeapBlock offHeapHitFrom(long fileNumber, long offset, long hash, OffHeapBlock view) {
    if (view == null) {
      return offHeapHit(fileNumber, offset, hash, null);
    }
    int i = offHeap.findFrom(view.stashed(), fileNumber, offset);
    return i != DataEntries.NONE && aimed(i, fileNumber, offset, view) ? view : null;
  }

  /** Aims {@code view} at entry {@code i}, found under (fileNumber, offset), and records a hit on it. */
  private boolean aimed(int i, long fileNumber, long offset, OffHeapBlock view) {
    if (!view.aim(offHeap, i, fileNumber, offset)) {
      return false;
    }
    offHeap.touch(i);
    return true;
  }

  /** Runs {@code loader} for loading node {@code n}, counted as a miss, and caches what it returns. */
  <T extends CachedBlock> T load(Node n, BlockCache.Loader<T> loader) throws IOException {
    counters.miss(n.kind);
    T block;
    try {
      block = Objects.requireNonNull(loader.load(), "loader returned null");
    } catch (Throwable t) {
      remove(n);
      n.loaded.completeExceptionally(t);
      throw t;
    }
    admitLoaded(n, block);
    return block;
  }

  /**
   * Caches {@code block} as the loaded block of node {@code n} and wakes its waiters. A {@link
   * CachedBlock#borrowed} block (over its loading thread's reused buffers) is never the node's nor
   * a waiter's: its bytes go off the heap, or its {@link CachedBlock#owned} copy into the node; the
   * waiters get that copy, or null when there is none on the heap, and then look the key up again
   * (finding the off-heap block, or loading it themselves when it was not cached).
   */
  void admitLoaded(Node n, CachedBlock block) {
    CachedBlock shared = admit(n, block);
    n.loaded.complete(shared);
    n.loaded = null; // waiters that read the field before hold the future; later ones read n.block
  }

  /**
   * Caches loaded node {@code n}, whose loader returned {@code loaded}, making room first so that it
   * can never be its own victim; a data block's bytes go into the arena when the shard has one (an
   * entry of {@link DataEntries} then takes the node's place in the lookups, and the node goes),
   * else, or when the arena is out of slots, it stays on the heap. A node larger than the whole
   * shard, or a data block that would fit only by evicting metadata below its floor, leaves the table
   * instead: its callers keep the block, and nothing else is disturbed beyond the data blocks
   * already evicted for it. Returns what the load's waiters share (see {@link #admitLoaded}).
   */
  private CachedBlock admit(Node n, CachedBlock loaded) {
    boolean borrowed = loaded.borrowed();
    if (!borrowed) {
      n.block = loaded;
    }
    CachedBlock mine = borrowed ? null : loaded; // what the waiters may share
    lock.lock();
    try {
      if (n.pins > 0) {
        n.block = loaded.owned();
        clock.placePinned(n, charge(n.block)); // pinned while its load was finishing: kept as loaded
        return n.block;
      }
      if (closed) {
        table.remove(n);
        n.block = null; // as after a drop: not cached, so no entry may serve it
        return mine;
      }
      int offHeapLength = arena == null || n.kind.isProtected() ? -1 : loaded.offHeapLength();
      if (offHeapLength >= 0 && clock.admitOffHeap(n, loaded.offHeapBytes(), offHeapLength)) {
        return mine; // copied: a borrowed block's buffers may be reused from here on
      }
      // Weighed before it is copied: a borrowed block the clock refuses costs no copy.
      if (!clock.admit(n, charge(loaded.ownedSizeBytes()))) {
        table.remove(n);
        n.block = null; // as after a drop: not cached, so no entry may serve it
        return mine;
      }
      CachedBlock kept = loaded.owned();
      n.block = kept;
      return kept;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Caches block (fileNumber, offset) of {@code kind}, which its caller read and checked itself
   * ({@link ClockBlockCache#admitData}, {@link ClockBlockCache#put}), unless the shard holds it or
   * a load of it is in flight: a data block or index partition off the heap when the shard has an
   * arena (on the heap only when room was made but the arena had no free slots), else its {@link
   * CachedBlock#owned} copy in a node made loaded. An index block comes here only as a partition (a
   * one-level index is loaded through its node, and blocks an open pins too), and goes off the heap
   * as metadata; filter chunks stay on the heap, where their probes read them without a copy. No
   * loading node stands for the read, so concurrent misses of one block may each read it; the first
   * admitted stays. As {@link #admit}, room is made first, and a block that would fit only below
   * the metadata floor is not cached.
   */
  void admitRead(long fileNumber, long offset, long hash, BlockKind kind, CachedBlock loaded) {
    lock.lock();
    try {
      if (closed || table.get(fileNumber, offset, hash) != null
          || (offHeap != null && offHeap.find(fileNumber, offset, hash) != DataEntries.NONE)) {
        return;
      }
      int offHeapLength = arena == null || kind == BlockKind.FILTER ? -1 : loaded.offHeapLength();
      if (offHeapLength >= 0) {
        // No room for it off the heap: a heap copy, charged a little less, could take only the
        // sliver of room below that charge, and would make the heap garbage this path avoids.
        if (!clock.roomFor(kind, ShardClock.offHeapCharge(offHeapLength)) || clock.admitOffHeap(
            fileNumber, offset, hash, loaded.offHeapBytes(), offHeapLength, kind == BlockKind.INDEX)) {
          return;
        }
      }
      long charge = charge(loaded.ownedSizeBytes());
      if (clock.roomFor(kind, charge)) { // a node only for a block that fits
        Node n = Node.loaded(fileNumber, offset, kind);
        clock.place(n, charge);
        n.block = loaded.owned();
        table.put(n);
      }
    } finally {
      lock.unlock();
    }
  }

  private static long charge(CachedBlock block) {
    return charge(block.sizeBytes());
  }

  /** What a block of {@code sizeBytes} costs the shard: the block and its node. */
  private static long charge(int sizeBytes) {
    return (long) sizeBytes + Node.ENTRY_BYTES;
  }

  /**
   * Adds loading node {@code mine} unless the shard holds a block of its key: the authoritative
   * lookup behind a lock-free miss. Returns null when added, else the node of the key, or for a
   * block held off the heap a view of it ({@link OffHeapBlock}). A closed shard still adds it (its
   * admit takes it out again), so the loading caller and its waiters share the load as before.
   */
  Object putIfAbsent(Node mine, long hash) {
    lock.lock();
    try {
      Node n = table.get(mine.fileNumber, mine.offset, hash);
      if (n != null) {
        return n;
      }
      OffHeapBlock held = clock.offHeapView(mine.fileNumber, mine.offset, hash);
      if (held != null) {
        return held;
      }
      table.put(mine);
      return null;
    } finally {
      lock.unlock();
    }
  }

  /** Takes node {@code n}, whose load failed, out of the table. */
  void remove(Node n) {
    lock.lock();
    try {
      table.remove(n);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Pins the entry of {@code key}, taking one more pin on it: it leaves the clock for the pinned
   * segment until its last {@link #unpin}. When the shard holds no entry for the key (never
   * admitted, or evicted since the caller loaded {@code block}), {@code block} becomes the entry.
   * Returns the pinned entry's block, or null when a load of the key is in flight: the caller waits
   * for it and pins again.
   */
  CachedBlock pin(BlockCacheKey key, BlockKind kind, CachedBlock block) {
    lock.lock();
    try {
      long hash = key.mixedHash();
      Node n = table.get(key.fileNumber(), key.offset(), hash);
      if (closed) {
        return block; // caches nothing: as a cache of capacity 0
      }
      if (n == null) {
        OffHeapBlock held = clock.pinOffHeap(key.fileNumber(), key.offset(), hash);
        if (held != null) {
          return held;
        }
        if (block instanceof OffHeapBlock) {
          return null; // evicted, and perhaps freed, since the caller got it: load it again
        }
        Node mine = new Node(key.fileNumber(), key.offset(), kind);
        mine.block = block.owned();
        mine.loaded = null;
        mine.pins = 1;
        table.put(mine); // under the lock, which a miss takes to insert: no race
        clock.placePinned(mine, charge(mine.block));
        return mine.block;
      }
      CachedBlock held = n.block;
      if (held == null) {
        return null;
      }
      clock.pin(n);
      return held;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Drops one pin of {@code key}'s entry; the last returns it to the clock, and the shard then sheds
   * what it holds over its capacity. Nothing for a key not pinned.
   */
  void unpin(BlockCacheKey key) {
    lock.lock();
    try {
      long hash = key.mixedHash();
      clock.unpin(table.get(key.fileNumber(), key.offset(), hash), key.fileNumber(), key.offset(), hash);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Drops the unpinned entries of the tables numbered in {@code fileNumbers}, whose files are gone
   * (uncounted: not evictions). A pinned entry stays until its owner unpins it; a block still
   * loading is admitted later and ages out like any block no reader asks for.
   */
  void dropFiles(Set<Long> fileNumbers) {
    lock.lock();
    try {
      clock.dropFiles(fileNumbers);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Drops every entry, pinned or not (uncounted: not evictions), caches nothing from now on, and
   * closes the arena: its slabs are freed once no reader holds a block in them.
   */
  void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      clock.dropAll();
    } finally {
      lock.unlock();
    }
    if (arena != null) {
      arena.close();
    }
  }

  /** The direct bytes of the arena's slot links, charged up front among the fixed bytes. */
  long linkBytes() {
    return linkBytes;
  }

  /** Direct memory the arena holds now. */
  long offHeapReservedBytes() {
    return arena == null ? 0 : arena.reservedBytes();
  }

  /** {bytes, blocks, metadata bytes, pinned bytes} held now; the bytes include the ghost's and the arena's bookkeeping. */
  long[] held() {
    lock.lock();
    try {
      long[] held = clock.held();
      held[0] += fixedBytes;
      return held;
    } finally {
      lock.unlock();
    }
  }

  /** The metadata bytes held in the metadata segment, below the floor; for tests. */
  long metadataSegmentBytes() {
    lock.lock();
    try {
      return clock.metadataSegmentBytes();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Checks the accounting and placement of every node and entry; throws on the first violation. For
   * tests and {@code assert}. Call while no load is in flight.
   */
  void checkInvariants() {
    lock.lock();
    try {
      clock.checkInvariants();
    } finally {
      lock.unlock();
    }
  }
}
