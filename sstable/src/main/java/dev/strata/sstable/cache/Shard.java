package dev.strata.sstable.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One shard of a {@link ClockBlockCache}: a lock-free map for lookups and, under one lock, three
 * segments and the eviction that keeps the shard within its bytes. The policy is explained in
 * {@link ClockBlockCache}; this class carries it out.
 *
 * <p>Thread-safe: {@link #map} is concurrent; everything else is guarded by {@link #lock}.
 */
final class Shard {
  final ConcurrentHashMap<BlockCacheKey, Node> map = new ConcurrentHashMap<>();
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

  /** Keys recently evicted from probation; null for a shard too small to need one. */
  @GuardedBy("lock")
  private final Ghost ghost;

  private final long ghostBytes;

  @GuardedBy("lock")
  private long used;

  @GuardedBy("lock")
  private long metadataUsed;

  Shard(long share, double metadataShare, double probationShare, CacheCounters counters) {
    this.ghost = Ghost.forCapacity(share);
    this.ghostBytes = ghost == null ? 0 : ghost.heapBytes();
    this.capacity = share - ghostBytes;
    this.metadataTarget = (long) (capacity * metadataShare);
    this.probationTarget = (long) (capacity * probationShare);
    this.counters = counters;
  }

  /**
   * Caches loaded node {@code n} at {@code charge} bytes, making room first so that it can never be
   * its own victim. A node larger than the whole shard, or a data block that would fit only by
   * evicting metadata below its floor, leaves the map instead: its callers keep the block, and
   * nothing else is disturbed beyond the data blocks already evicted for it.
   */
  void admit(Node n, long charge) {
    lock.lock();
    try {
      if (charge > capacity) {
        map.remove(n.key, n);
        return;
      }
      while (used + charge > capacity) {
        if (!step(n.kind.isProtected())) {
          map.remove(n.key, n);
          return;
        }
      }
      n.charge = charge;
      used += charge;
      if (n.kind.isProtected()) {
        metadataUsed += charge;
        metadata.addLast(n);
        demoteMetadataOverflow();
      } else if (ghost != null && ghost.remove(n.key.mixedHash())) {
        main.addLast(n); // missed again soon after it left probation: used twice
      } else {
        probation.addLast(n);
      }
    } finally {
      lock.unlock();
    }
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
          ghost.add(n.key.mixedHash());
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
    map.remove(n.key, n);
    used -= n.charge;
    if (n.kind.isProtected()) {
      metadataUsed -= n.charge;
    }
    counters.evicted(n.kind);
  }

  /** {bytes, blocks, metadata bytes} held now; the bytes include the ghost's. */
  long[] held() {
    lock.lock();
    try {
      return new long[] {used + ghostBytes, metadata.size() + main.size() + probation.size(), metadataUsed};
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
      for (Segment s : new Segment[] {metadata, main, probation}) {
        long bytes = 0;
        int count = 0;
        for (Node n = s.first(); n != null; n = n.next) {
          check(n.segment == s, "node in the wrong segment");
          check(map.get(n.key) == n, "queued node missing from the map");
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
      check(used <= capacity, "over capacity: " + used + " > " + capacity);
      check(metadata.bytes() <= metadataTarget, "metadata over its share");
      check(nodes == map.size(), "map holds " + map.size() + " nodes, segments " + nodes);
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
