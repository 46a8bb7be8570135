package dev.strata.sstable.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One shard of a {@link ClockBlockCache}: a lock-free table for lookups and, under one lock, three
 * segments and the eviction that keeps the shard within its bytes. The policy is explained in
 * {@link ClockBlockCache}; this class carries it out.
 *
 * <p>Thread-safe: {@link #table} is read without the lock and changed under it; everything else is
 * guarded by {@link #lock}.
 */
final class Shard {
  /** The nodes by key: read without the lock, changed under it. */
  final NodeTable table = new NodeTable();
  final ReentrantLock lock = new ReentrantLock();

  /** The bytes the shard's entries may cost: its share of the cache less the ghost's cost. */
  final long capacity;
  private final long metadataTarget;
  private final long probationTarget;
  private final CacheCounters counters;

  /** Index and filter blocks up to the metadata share: evicted only when no data block is left. */
  @GuardedBy("lock")
  private final Segment metadata = new Segment("metadata");

  /** Data blocks that proved themselves, and metadata beyond its share: one CLOCK. */
  @GuardedBy("lock")
  private final Segment main = new Segment("main");

  /** New data blocks: a FIFO that a block leaves for main only if it was hit while in it. */
  @GuardedBy("lock")
  private final Segment probation = new Segment("probation");

  /**
   * Pinned nodes, of any kind: never evicted, charged like the rest. They may take the shard over
   * its capacity (as RocksDB's cache without a strict capacity limit); every other node gives way
   * to them first.
   */
  @GuardedBy("lock")
  private final Segment pinned = new Segment("pinned");

  /** Keys recently evicted from probation; null for a shard too small to need one. */
  @GuardedBy("lock")
  private final Ghost ghost;

  /**
   * What the shard holds besides its entries, charged up front: the ghost's array and, off the heap,
   * the arena's bookkeeping (a free-slot stack as long as the slots, the slab objects).
   */
  private final long fixedBytes;

  @GuardedBy("lock")
  private long used;

  @GuardedBy("lock")
  private long metadataUsed;

  /** Where data blocks' bytes live when the cache keeps them off the heap; else null. */
  private final SlabArena arena;

  /** Set by {@link #close}: the shard then caches nothing. */
  @GuardedBy("lock")
  private boolean closed;

  Shard(long share, double metadataShare, double probationShare, CacheCounters counters,
      boolean offHeapData) {
    this.ghost = Ghost.forCapacity(share);
    long ghostBytes = ghost == null ? 0 : ghost.heapBytes();
    long arenaBytes = offHeapData ? SlabArena.heapBytes(share - ghostBytes) : 0;
    this.fixedBytes = Math.min(share, ghostBytes + arenaBytes);
    this.capacity = share - fixedBytes;
    this.metadataTarget = (long) (capacity * metadataShare);
    this.probationTarget = (long) (capacity * probationShare);
    this.counters = counters;
    this.arena = offHeapData ? new SlabArena(capacity) : null;
  }

  /**
   * Caches loaded node {@code n}, whose loader returned {@code block}, making room first so that it
   * can never be its own victim; a data block's bytes go into the arena when the shard has one (the
   * node then is the block), else, or when the arena is out of slots, it stays on the heap. A node
   * larger than the whole shard, or a data block that would fit only by evicting metadata below its
   * floor, leaves the table instead: its callers keep the block, and nothing else is disturbed beyond
   * the data blocks already evicted for it.
   */
  void admit(Node n, CachedBlock block) {
    long charge = (long) block.sizeBytes() + Node.ENTRY_BYTES;
    lock.lock();
    try {
      if (n.pins > 0) {
        placePinned(n, charge); // pinned while its load was finishing: kept as loaded
        return;
      }
      if (closed) {
        table.remove(n);
        n.block = null; // as after a drop: not cached, so no entry may serve it
        return;
      }
      CachedBlock stored = block;
      int offHeap = arena == null || n.kind.isProtected() ? -1 : block.offHeapLength();
      if (offHeap >= 0) {
        long offHeapCharge = SlabArena.slotBytes(offHeap) + Node.ENTRY_BYTES;
        // Room first: the copy then finds the slots the evictions just freed.
        if (makeRoom(n, offHeapCharge) && n.store(arena, block.offHeapBytes(), offHeap)) {
          stored = n;
          charge = offHeapCharge;
        }
      }
      if (!makeRoom(n, charge)) {
        table.remove(n);
        n.block = null; // as after a drop: not cached, so no entry may serve it
        if (stored == n) {
          n.release();
        }
        return;
      }
      n.block = stored;
      n.charge = charge;
      used += charge;
      if (n.kind.isProtected()) {
        metadataUsed += charge;
        metadata.addLast(n);
        demoteMetadataOverflow();
      } else if (ghost != null && ghost.remove(n.hash())) {
        main.addLast(n); // missed again soon after it left probation: used twice
      } else {
        probation.addLast(n);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds loading node {@code mine} unless the shard holds a node of its key, which is returned: the
   * authoritative lookup behind a lock-free miss. A closed shard still adds it (its admit takes it
   * out again), so the loading caller and its waiters share the load as before.
   */
  Node putIfAbsent(Node mine, long hash) {
    lock.lock();
    try {
      Node n = table.get(mine.fileNumber, mine.offset, hash);
      if (n == null) {
        table.put(mine);
      }
      return n;
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
   * Evicts until {@code charge} more bytes fit; false when they cannot: larger than the shard, or a
   * data block that would fit only below the metadata floor.
   */
  @GuardedBy("lock")
  private boolean makeRoom(Node n, long charge) {
    if (charge > capacity) {
      return false;
    }
    while (used + charge > capacity) {
      if (unpinnedEmpty() || !step(n.kind.isProtected())) {
        return false;
      }
    }
    return true;
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
      Node n = table.get(key.fileNumber(), key.offset(), key.mixedHash());
      if (closed) {
        return block; // caches nothing: as a cache of capacity 0
      }
      if (n == null) {
        if (block instanceof OffHeapBlock) {
          return null; // evicted, and perhaps freed, since the caller got it: load it again
        }
        Node mine = new Node(key.fileNumber(), key.offset(), kind);
        mine.block = block;
        mine.loaded = null;
        mine.pins = 1;
        table.put(mine); // under the lock, which a miss takes to insert: no race
        placePinned(mine, (long) block.sizeBytes() + Node.ENTRY_BYTES);
        return block;
      }
      CachedBlock held = n.block;
      if (held == null) {
        return null;
      }
      if (n.pins++ == 0 && n.segment != null) {
        // Queued in the clock: move it. A node whose admit is still to come (segment null) is
        // placed among the pinned by admit.
        Segment from = n.segment;
        from.remove(n);
        pinned.addLast(n);
      }
      return held;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Drops one pin of {@code key}'s entry; the last returns it to the clock (metadata to its
   * segment, where it ages by use as any metadata does), and the shard then sheds what it holds
   * over its capacity. Nothing for a key not pinned.
   */
  void unpin(BlockCacheKey key) {
    lock.lock();
    try {
      Node n = table.get(key.fileNumber(), key.offset(), key.mixedHash());
      if (n == null || n.pins == 0 || --n.pins > 0 || n.segment != pinned) {
        return;
      }
      pinned.remove(n);
      if (n.kind.isProtected()) {
        metadata.addLast(n);
        demoteMetadataOverflow();
      } else {
        main.addLast(n);
      }
      while (used > capacity && !unpinnedEmpty()) {
        step(true);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Charges pinned node {@code n} and queues it, making what room the unpinned nodes give. */
  @GuardedBy("lock")
  private void placePinned(Node n, long charge) {
    while (used + charge > capacity && !unpinnedEmpty()) {
      step(true);
    }
    n.charge = charge;
    used += charge;
    if (n.kind.isProtected()) {
      metadataUsed += charge;
    }
    pinned.addLast(n);
  }

  @GuardedBy("lock")
  private boolean unpinnedEmpty() {
    return metadata.isEmpty() && main.isEmpty() && probation.isEmpty();
  }

  /**
   * One move of the clock: evicts one node or moves one node to where its use says it belongs. Each
   * move that does not evict lowers a frequency or moves a node of frequency 0 towards eviction, so a
   * run of moves always ends in an eviction. False, moving nothing, when only the metadata segment is
   * left and room is wanted for a data block ({@code forMetadata} false): the floor. Called only while
   * the shard holds something.
   */
  @GuardedBy("lock")
  private boolean step(boolean forMetadata) {
    if (!probation.isEmpty() && (probation.bytes() > probationTarget || main.isEmpty())) {
      Node n = probation.pollFirst();
      if (n.frequency > 0) {
        n.frequency = 0; // promoted for the hit it had on probation; main asks for a new one
        main.addLast(n);
      } else {
        evict(n);
        if (ghost != null) {
          ghost.add(n.hash());
        }
      }
    } else if (!main.isEmpty()) {
      Node n = main.pollFirst();
      int f = n.frequency;
      if (f == 0) {
        evict(n);
      } else {
        n.frequency = f - 1;
        if (n.kind.isProtected()) {
          metadata.addLast(n); // used again: back above the floor
          demoteMetadataOverflow();
        } else {
          main.addLast(n);
        }
      }
    } else if (!forMetadata) {
      return false;
    } else {
      // Nothing but metadata left, and metadata wants room: the clock runs over the segment.
      Node n = metadata.pollFirst();
      int f = n.frequency;
      if (f == 0) {
        evict(n);
      } else {
        n.frequency = f - 1;
        metadata.addLast(n);
      }
    }
    return true;
  }

  /**
   * Keeps the metadata segment within its share by the same clock: its coldest node moves to main,
   * where it ages with the data blocks by use, instead of leaving the cache. Ends: each move demotes
   * a node or lowers a frequency.
   */
  @GuardedBy("lock")
  private void demoteMetadataOverflow() {
    while (metadata.bytes() > metadataTarget) {
      Node n = metadata.pollFirst();
      int f = n.frequency;
      if (f == 0) {
        main.addLast(n);
      } else {
        n.frequency = f - 1;
        metadata.addLast(n);
      }
    }
  }

  @GuardedBy("lock")
  private void evict(Node n) {
    drop(n);
    counters.evicted(n.kind);
  }

  /** Takes queued node {@code n} out of the table and the accounting and lets go of its block. */
  @GuardedBy("lock")
  private void drop(Node n) {
    table.remove(n);
    used -= n.charge;
    if (n.kind.isProtected()) {
      metadataUsed -= n.charge;
    }
    n.block.evicted(); // after the table removal: a reader whose retain fails then misses
    n.block = null; // a reader keeping the node as its entry sees the block gone, and holds it no more
  }

  /**
   * Drops the unpinned entries of the tables numbered in {@code fileNumbers}, whose files are gone
   * (uncounted: not evictions). A pinned entry stays until its owner unpins it; a block still
   * loading is admitted later and ages out like any block no reader asks for.
   */
  void dropFiles(Set<Long> fileNumbers) {
    lock.lock();
    try {
      for (Segment s : new Segment[] {metadata, main, probation}) {
        Node n = s.first();
        while (n != null) {
          Node next = n.next;
          if (fileNumbers.contains(n.fileNumber)) {
            s.remove(n);
            drop(n);
          }
          n = next;
        }
      }
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
      for (Segment s : new Segment[] {metadata, main, probation, pinned}) {
        while (!s.isEmpty()) {
          Node n = s.pollFirst();
          n.pins = 0;
          drop(n);
        }
      }
    } finally {
      lock.unlock();
    }
    if (arena != null) {
      arena.close();
    }
  }

  /** Direct memory the arena holds now. */
  long offHeapReservedBytes() {
    return arena == null ? 0 : arena.reservedBytes();
  }

  /** {bytes, blocks, metadata bytes, pinned bytes} held now; the bytes include the ghost's and the arena's bookkeeping. */
  long[] held() {
    lock.lock();
    try {
      return new long[] {
        used + fixedBytes,
        metadata.size() + main.size() + probation.size() + pinned.size(),
        metadataUsed,
        pinned.bytes()
      };
    } finally {
      lock.unlock();
    }
  }

  /** The metadata bytes held in the metadata segment, below the floor; for tests. */
  long metadataSegmentBytes() {
    lock.lock();
    try {
      return metadata.bytes();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Checks the accounting and placement of every node; throws on the first violation. For tests and
   * {@code assert}. Call while no load is in flight.
   */
  void checkInvariants() {
    lock.lock();
    try {
      long sum = 0;
      long meta = 0;
      int nodes = 0;
      for (Segment s : new Segment[] {metadata, main, probation, pinned}) {
        long bytes = 0;
        int count = 0;
        for (Node n = s.first(); n != null; n = n.next) {
          check(n.segment == s, "node in the wrong segment");
          check((n.pins > 0) == (s == pinned), "pins " + n.pins + " in " + s.name);
          check(table.get(n.fileNumber, n.offset, n.hash()) == n, "queued node missing from the table");
          check(s != metadata || n.kind.isProtected(), "data block in the metadata segment");
          check(s != probation || !n.kind.isProtected(), "metadata in probation");
          check(n.charge > 0 && n.block != null, "queued node not loaded");
          bytes += n.charge;
          meta += n.kind.isProtected() ? n.charge : 0;
          count++;
        }
        check(bytes == s.bytes() && count == s.size(), s.name + " accounting");
        sum += bytes;
        nodes += count;
      }
      check(sum == used && meta == metadataUsed, "shard accounting");
      check(used <= capacity || unpinnedEmpty(), "over capacity: " + used + " > " + capacity
          + " with unpinned nodes left");
      check(metadata.bytes() <= metadataTarget, "metadata over its share");
      check(nodes == table.size(), "table holds " + table.size() + " nodes, segments " + nodes);
    } finally {
      lock.unlock();
    }
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }
}
