package dev.strata.sstable.cache;

import java.util.Set;

/**
 * A shard's eviction: its segments of nodes, its off-heap blocks' queues, the ghost, and the bytes
 * used, kept within the shard's capacity by one clock over all of them. The policy is explained in
 * {@link ClockBlockCache}; this class carries it out, and {@link Shard} calls it under its lock.
 *
 * <p>Nodes and off-heap entries age together: the probation segment and the off-heap probation
 * queue form one FIFO, merged by the order in which their members were queued (a number each takes
 * from {@link #ticks}), and so do the main ones and the metadata ones (index partitions a reader
 * read itself go off the heap; other metadata stays in nodes); pinned blocks are in no clock.
 *
 * <p>Not thread-safe: guarded by the owning shard's lock.
 */
final class ShardClock {
  private final long capacity;
  private final long metadataTarget;
  private final long probationTarget;
  private final CacheCounters counters;

  /** The shard's nodes by key, from which an evicted node is removed. */
  private final NodeTable table;

  /** Index and filter blocks up to the metadata share: evicted only when no data block is left. */
  private final Segment metadata = new Segment("metadata");

  /** Data blocks that proved themselves, and metadata beyond its share: one CLOCK. */
  private final Segment main = new Segment("main");

  /** New data blocks: a FIFO that a block leaves for main only if it was hit while in it. */
  private final Segment probation = new Segment("probation");

  /**
   * Pinned nodes, of any kind: never evicted, charged like the rest. They may take the shard over
   * its capacity (as RocksDB's cache without a strict capacity limit); every other node gives way
   * to them first.
   */
  private final Segment pinned = new Segment("pinned");

  /** Keys recently evicted from probation; null for a shard too small to need one. */
  private final Ghost ghost;

  /** The data blocks and index partitions held off the heap, with their own queues; null without an arena. */
  private final DataQueues data;

  private long used;
  private long metadataUsed;

  /** Nodes and entries queued in probation or main so far: each takes the next as its queue order. */
  private long ticks;

  ShardClock(long capacity, double metadataShare, double probationShare, CacheCounters counters,
      NodeTable table, Ghost ghost, SlabArena arena) {
    this.capacity = capacity;
    this.metadataTarget = (long) (capacity * metadataShare);
    this.probationTarget = (long) (capacity * probationShare);
    this.counters = counters;
    this.table = table;
    this.ghost = ghost;
    this.data = arena == null ? null : new DataQueues(arena);
  }

  /** The off-heap blocks' entries, for lookups without the lock; null without an arena. */
  DataEntries offHeapEntries() {
    return data == null ? null : data.entries();
  }

  /**
   * Queues loaded node {@code n}, charged {@code charge}, after making room; false (nothing
   * changed but the data blocks evicted for it) when it cannot fit: larger than the shard, or a data
   * block that would fit only below the metadata floor.
   */
  boolean admit(Node n, long charge) {
    if (!roomFor(n.kind, charge)) {
      return false;
    }
    place(n, charge);
    return true;
  }

  /**
   * Makes room for a block of {@code kind} charged {@code charge}, as {@link #admit} does before it
   * queues its node: a caller that has no node yet makes one only once this says the block fits.
   */
  boolean roomFor(BlockKind kind, long charge) {
    return makeRoom(kind.isProtected(), charge);
  }

  /** Queues loaded node {@code n}, charged {@code charge}, in the room {@link #roomFor} made. */
  void place(Node n, long charge) {
    n.charge = charge;
    used += charge;
    if (n.kind.isProtected()) {
      metadataUsed += charge;
      toMetadata(n);
    } else if (ghost != null && ghost.remove(n.hash())) {
      enqueue(main, n); // missed again soon after it left probation: used twice
    } else {
      enqueue(probation, n);
    }
  }

  /**
   * Stores loaded data block node {@code n}'s {@code bytes[0, length)} in the arena as an entry,
   * which replaces the node in the lookups; false when there is no room for it (the caller keeps the
   * block on the heap). Room is made first, so the copy finds the slots the evictions just freed.
   */
  boolean admitOffHeap(Node n, byte[] bytes, int length) {
    if (!admitOffHeap(n.fileNumber, n.offset, n.hash(), bytes, length)) {
      return false;
    }
    table.remove(n); // after the entry is found by lookups: a reader finds one or the other
    return true;
  }

  /**
   * Stores data block (fileNumber, offset)'s {@code bytes[0, length)} in the arena as an entry,
   * where no node stands for it; false when there is no room for it. Room is made first, as above.
   */
  boolean admitOffHeap(long fileNumber, long offset, long hash, byte[] bytes, int length) {
    return admitOffHeap(fileNumber, offset, hash, bytes, length, false);
  }

  /**
   * {@link #admitOffHeap(long, long, long, byte[], int)} for a data block, or for an index
   * partition when {@code isMetadata}: that one enters the metadata queue, above the floor.
   */
  boolean admitOffHeap(long fileNumber, long offset, long hash, byte[] bytes, int length, boolean isMetadata) {
    long charge = offHeapCharge(length);
    if (!makeRoom(isMetadata, charge)) {
      return false;
    }
    // A data block missed again soon after it left probation goes to main.
    boolean toMain = !isMetadata && ghost != null && ghost.remove(hash);
    if (!data.admit(fileNumber, offset, hash, bytes, length, charge, toMain, ++ticks, isMetadata)) {
      return false;
    }
    used += charge;
    if (isMetadata) {
      demoteMetadataOverflow();
    }
    return true;
  }

  /** What a data block of {@code length} bytes costs the shard off the heap: its slots and its entry. */
  static long offHeapCharge(int length) {
    return SlabArena.slotBytes(length) + DataEntries.ENTRY_BYTES;
  }

  /** A new view of the off-heap block (fileNumber, offset), or null when none is held. */
  OffHeapBlock offHeapView(long fileNumber, long offset, long hash) {
    return data == null ? null : data.view(fileNumber, offset, hash);
  }

  /** Charges pinned node {@code n} and queues it, making what room the unpinned nodes give. */
  void placePinned(Node n, long charge) {
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

  /**
   * Takes one more pin on node {@code n}. A node queued in the clock leaves it for the pinned
   * segment; one whose admit is still to come (in no segment) is placed among the pinned by admit.
   */
  void pin(Node n) {
    if (n.pins++ == 0 && n.segment != null) {
      n.segment.remove(n);
      pinned.addLast(n);
    }
  }

  /** Pins the off-heap block (fileNumber, offset) once more: a new view of it, or null when none is held. */
  OffHeapBlock pinOffHeap(long fileNumber, long offset, long hash) {
    return data == null ? null : data.pin(fileNumber, offset, hash, ++ticks);
  }

  /**
   * Drops one pin of node {@code n}, or when null of the off-heap block (fileNumber, offset); the
   * last returns it to the clock (metadata to its segment, where it ages by use as any metadata
   * does), and the shard then sheds what it holds over its capacity. Nothing for a block not pinned.
   */
  void unpin(Node n, long fileNumber, long offset, long hash) {
    if (n == null) {
      if (data == null || !data.unpin(fileNumber, offset, hash, ++ticks)) {
        return;
      }
    } else if (n.pins == 0 || --n.pins > 0 || n.segment != pinned) {
      return;
    } else {
      pinned.remove(n);
      if (n.kind.isProtected()) {
        toMetadata(n);
      } else {
        enqueue(main, n);
      }
    }
    demoteMetadataOverflow(); // an index partition unpinned goes back to the metadata queue
    while (used > capacity && !unpinnedEmpty()) {
      step(true);
    }
  }

  /**
   * Evicts until {@code charge} more bytes fit; false when they cannot: larger than the shard, or a
   * data block that would fit only below the metadata floor.
   */
  private boolean makeRoom(boolean forMetadata, long charge) {
    if (charge > capacity) {
      return false;
    }
    while (used + charge > capacity) {
      if (unpinnedEmpty() || !step(forMetadata)) {
        return false;
      }
    }
    return true;
  }

  private boolean unpinnedEmpty() {
    return metadata.isEmpty() && main.isEmpty() && probation.isEmpty()
        && (data == null || data.unpinnedEmpty());
  }

  /** Queues metadata node {@code n} last in the metadata segment, then keeps the segment within its share. */
  private void toMetadata(Node n) {
    n.seq = ++ticks; // the order the metadata segment and queue merge by
    metadata.addLast(n);
    demoteMetadataOverflow();
  }

  /** Queues node {@code n} last in {@code s} (probation or main), the newest queued. */
  private void enqueue(Segment s, Node n) {
    n.seq = ++ticks;
    s.addLast(n);
  }

  /**
   * One move of the clock: evicts one block or moves one to where its use says it belongs. Each
   * move that does not evict lowers a frequency or moves a block of frequency 0 towards eviction, so a
   * run of moves always ends in an eviction. False, moving nothing, when only the metadata segment is
   * left and room is wanted for a data block ({@code forMetadata} false): the floor. Called only while
   * the shard holds something.
   */
  private boolean step(boolean forMetadata) {
    boolean probationEmpty = probation.isEmpty() && (data == null || data.probationEmpty());
    boolean mainEmpty = main.isEmpty() && (data == null || data.mainEmpty());
    long probationBytes = probation.bytes() + (data == null ? 0 : data.probationBytes());
    if (!probationEmpty && (probationBytes > probationTarget || mainEmpty)) {
      if (data != null && data.probationFirst(probation)) {
        evicted(data.stepProbation(++ticks, ghost));
        return true;
      }
      Node n = probation.pollFirst();
      if (n.frequency > 0) {
        n.frequency = 0; // promoted for the hit it had on probation; main asks for a new one
        enqueue(main, n);
      } else {
        evict(n);
        if (ghost != null) {
          ghost.add(n.hash());
        }
      }
    } else if (!mainEmpty) {
      if (data != null && data.mainFirst(main)) {
        evicted(data.stepMain(++ticks));
        demoteMetadataOverflow(); // an index partition used again went back above the floor
        return true;
      }
      Node n = main.pollFirst();
      int f = n.frequency;
      if (f == 0) {
        evict(n);
      } else {
        n.frequency = f - 1;
        if (n.kind.isProtected()) {
          toMetadata(n); // used again: back above the floor
        } else {
          enqueue(main, n);
        }
      }
    } else if (!forMetadata) {
      return false;
    } else {
      // Nothing but metadata left, and metadata wants room: the clock runs over the segment.
      if (data != null && data.metadataFirst(metadata)) {
        evicted(data.stepMetadata(++ticks));
        return true;
      }
      Node n = metadata.pollFirst();
      int f = n.frequency;
      if (f == 0) {
        evict(n);
      } else {
        n.frequency = f - 1;
        n.seq = ++ticks;
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
  private void demoteMetadataOverflow() {
    while (metadataSegmentBytes() > metadataTarget) {
      if (data != null && data.metadataFirst(metadata)) {
        data.demoteMetadata(++ticks);
        continue;
      }
      Node n = metadata.pollFirst();
      int f = n.frequency;
      if (f == 0) {
        enqueue(main, n);
      } else {
        n.frequency = f - 1;
        n.seq = ++ticks;
        metadata.addLast(n);
      }
    }
  }

  /** Accounts for an off-heap block that a clock move evicted, of charge {@code charge} (0: none). */
  private void evicted(long charge) {
    if (charge > 0) {
      used -= charge;
      counters.evicted(data.droppedMetadata() ? BlockKind.INDEX : BlockKind.DATA);
    }
  }

  private void evict(Node n) {
    drop(n);
    counters.evicted(n.kind);
  }

  /** Takes queued node {@code n} out of the table and the accounting and lets go of its block. */
  private void drop(Node n) {
    table.remove(n);
    used -= n.charge;
    if (n.kind.isProtected()) {
      metadataUsed -= n.charge;
    }
    n.block.evicted();
    n.block = null; // a reader keeping the node as its entry sees the block gone, and holds it no more
  }

  /**
   * Drops the unpinned blocks of the tables numbered in {@code fileNumbers} (uncounted: not
   * evictions). A pinned block stays until its owner unpins it.
   */
  void dropFiles(Set<Long> fileNumbers) {
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
    used -= data == null ? 0 : data.dropFiles(fileNumbers);
  }

  /** Drops every block, pinned or not (uncounted: not evictions). */
  void dropAll() {
    for (Segment s : new Segment[] {metadata, main, probation, pinned}) {
      while (!s.isEmpty()) {
        Node n = s.pollFirst();
        n.pins = 0;
        drop(n);
      }
    }
    used -= data == null ? 0 : data.dropAll();
  }

  /** {bytes, blocks, metadata bytes, pinned bytes} held now, the bytes without the shard's fixed ones. */
  long[] held() {
    return new long[] {
      used,
      metadata.size() + main.size() + probation.size() + pinned.size() + (data == null ? 0 : data.size()),
      metadataUsed + (data == null ? 0 : data.metadataBytes()),
      pinned.bytes() + (data == null ? 0 : data.pinnedBytes())
    };
  }

  /** The metadata bytes held in the metadata segment, below the floor. */
  long metadataSegmentBytes() {
    return metadata.bytes() + (data == null ? 0 : data.metadataQueueBytes());
  }

  /**
   * Checks the accounting and placement of every node and entry; throws on the first violation.
   * For tests and {@code assert}. Call while no load is in flight.
   */
  void checkInvariants() {
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
    sum += data == null ? 0 : data.check(table);
    check(sum == used && meta == metadataUsed, "shard accounting");
    check(used <= capacity || unpinnedEmpty(), "over capacity: " + used + " > " + capacity
        + " with unpinned blocks left");
    check(metadataSegmentBytes() <= metadataTarget, "metadata over its share");
    check(nodes == table.size(), "table holds " + table.size() + " nodes, segments " + nodes);
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }
}
