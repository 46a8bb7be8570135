package dev.strata.sstable.cache;

import static dev.strata.sstable.cache.DataEntries.NONE;

import java.util.Set;

/**
 * A shard's off-heap blocks (data blocks and index partitions): their {@link DataEntries} and the
 * metadata, probation, main and pinned queues they wait in. The shard runs one clock over its nodes
 * and these entries together: its probation segment and this probation queue form one FIFO, merged
 * by queue order ({@link #probationFirst}), and so do the main ones and the metadata ones, so a
 * block ages the same whether it lives on the heap or off it. This class makes the clock's moves on
 * entries; the shard keeps the bytes used, the ghost's use and the counters, and takes the charges
 * these methods return.
 *
 * <p>Not thread-safe: guarded by the owning shard's lock, but for {@link #entries}' lock-free lookups.
 */
final class DataQueues {
  private final DataEntries entries;
  private final EntryQueue probation;
  private final EntryQueue main;
  private final EntryQueue pinned;
  /** Index partitions up to the shard's metadata share: the twin of its metadata segment. */
  private final EntryQueue metadata;

  /** The charges of the index partitions held, in any queue. */
  private long metadataBytes;

  /** Whether the last entry dropped was an index partition: for the shard's eviction counts. */
  private boolean droppedMetadata;

  DataQueues(SlabArena arena) {
    this.entries = new DataEntries(arena);
    this.probation = new EntryQueue("probation", 1, entries);
    this.main = new EntryQueue("main", 2, entries);
    this.pinned = new EntryQueue("pinned", 3, entries);
    this.metadata = new EntryQueue("metadata", 4, entries);
  }

  /** The entries, for lookups without the lock. */
  DataEntries entries() {
    return entries;
  }

  /**
   * Stores {@code bytes[0, length)} as the entry of block (fileNumber, offset), charged {@code
   * charge}, found by lookups and queued as the {@code seq}th: an index partition ({@code isMetadata})
   * in the metadata queue, a data block in main when {@code toMain}, else in probation; false when
   * the arena had no room.
   */
  boolean admit(long fileNumber, long offset, long hash, byte[] bytes, int length, long charge,
      boolean toMain, long seq, boolean isMetadata) {
    int i = entries.store(fileNumber, offset, bytes, length, charge, isMetadata);
    if (i == NONE) {
      return false;
    }
    entries.link(i, hash);
    (isMetadata ? metadata : toMain ? main : probation).addLast(i, seq);
    metadataBytes += isMetadata ? charge : 0;
    return true;
  }

  /** A new view of block (fileNumber, offset), or null when it is not held here. */
  OffHeapBlock view(long fileNumber, long offset, long hash) {
    int i = entries.find(fileNumber, offset, hash);
    OffHeapBlock view = new OffHeapBlock();
    return i != NONE && view.aim(entries, i, fileNumber, offset) ? view : null;
  }

  boolean unpinnedEmpty() {
    return probation.isEmpty() && main.isEmpty() && metadata.isEmpty();
  }

  boolean metadataEmpty() {
    return metadata.isEmpty();
  }

  /** The charges in the metadata queue (the floor's share), and of every index partition held. */
  long metadataQueueBytes() {
    return metadata.bytes();
  }

  long metadataBytes() {
    return metadataBytes;
  }

  /** Whether the entry the last clock move or drop let go of was an index partition. */
  boolean droppedMetadata() {
    return droppedMetadata;
  }

  boolean probationEmpty() {
    return probation.isEmpty();
  }

  boolean mainEmpty() {
    return main.isEmpty();
  }

  long probationBytes() {
    return probation.bytes();
  }

  /** Whether the oldest of the shard's probation segment {@code s} and this probation queue is an entry. */
  boolean probationFirst(Segment s) {
    return first(s, probation);
  }

  /** {@link #probationFirst} for the main segment and queue. */
  boolean mainFirst(Segment s) {
    return first(s, main);
  }

  /** {@link #probationFirst} for the metadata segment and queue. */
  boolean metadataFirst(Segment s) {
    return first(s, metadata);
  }

  private static boolean first(Segment s, EntryQueue q) {
    return !q.isEmpty() && (s.isEmpty() || q.headSeq() < s.first().seq);
  }

  /**
   * The clock's move on probation's oldest entry: one hit there moves it to main as the {@code
   * seq}th queued, with its counter cleared (main asks for a new hit); else it leaves, its key in
   * {@code ghost} (if any). Returns the charge freed, 0 when it moved.
   */
  long stepProbation(long seq, Ghost ghost) {
    int i = probation.pollFirst();
    if (entries.frequency(i) > 0) {
      entries.setFrequency(i, 0);
      main.addLast(i, seq);
      return 0;
    }
    long hash = entries.hash(i);
    long charge = drop(i);
    if (ghost != null) {
      ghost.add(hash);
    }
    return charge;
  }

  /**
   * The clock's move on main's oldest entry: a counter above 0 is lowered and the entry queued again
   * as the {@code seq}th (an index partition, used again, back above the floor: the shard then
   * demotes the metadata's overflow), one at 0 leaves. Returns the charge freed, 0 when it stayed.
   */
  long stepMain(long seq) {
    return step(main, seq);
  }

  /** {@link #stepMain} on the metadata queue, when nothing else is left to evict. */
  long stepMetadata(long seq) {
    return step(metadata, seq);
  }

  private long step(EntryQueue q, long seq) {
    int i = q.pollFirst();
    int f = entries.frequency(i);
    if (f == 0) {
      return drop(i);
    }
    entries.setFrequency(i, f - 1);
    (entries.metadata(i) ? metadata : main).addLast(i, seq);
    return 0;
  }

  /**
   * Moves the metadata queue's oldest entry below the floor as the {@code seq}th queued: to main
   * when its counter is 0, else back to the metadata queue with its counter lowered.
   */
  void demoteMetadata(long seq) {
    int i = metadata.pollFirst();
    int f = entries.frequency(i);
    if (f == 0) {
      main.addLast(i, seq);
    } else {
      entries.setFrequency(i, f - 1);
      metadata.addLast(i, seq);
    }
  }

  /**
   * Pins block (fileNumber, offset) once more (the first pin takes it out of the clock, into the
   * pinned queue as the {@code seq}th): a new view of it, or null when it is not held here.
   */
  OffHeapBlock pin(long fileNumber, long offset, long hash, long seq) {
    OffHeapBlock view = view(fileNumber, offset, hash);
    if (view == null) {
      return null;
    }
    int i = entries.find(fileNumber, offset, hash); // under the lock: the entry the view names
    int pins = entries.pins(i);
    if (pins == 0) {
      queueOf(i).remove(i);
      pinned.addLast(i, seq);
    }
    entries.setPins(i, pins + 1);
    return view;
  }

  /**
   * Drops one pin of block (fileNumber, offset); true when that was its last, which queues it as
   * the {@code seq}th in main, or an index partition in the metadata queue.
   */
  boolean unpin(long fileNumber, long offset, long hash, long seq) {
    int i = entries.find(fileNumber, offset, hash);
    if (i == NONE || entries.pins(i) == 0) {
      return false;
    }
    int pins = entries.pins(i) - 1;
    entries.setPins(i, pins);
    if (pins > 0) {
      return false;
    }
    pinned.remove(i);
    (entries.metadata(i) ? metadata : main).addLast(i, seq);
    return true;
  }

  /** Drops the unpinned entries of the tables numbered in {@code fileNumbers}; returns their charges. */
  long dropFiles(Set<Long> fileNumbers) {
    long freed = 0;
    for (EntryQueue q : new EntryQueue[] {probation, main, metadata}) {
      for (int i = q.first(); i != NONE; ) {
        int next = q.next(i);
        if (fileNumbers.contains(entries.fileNumber(i))) {
          q.remove(i);
          freed += drop(i);
        }
        i = next;
      }
    }
    return freed;
  }

  /** Drops every entry, pinned or not; returns their charges. */
  long dropAll() {
    long freed = 0;
    for (EntryQueue q : new EntryQueue[] {probation, main, pinned, metadata}) {
      while (!q.isEmpty()) {
        int i = q.pollFirst();
        entries.setPins(i, 0);
        freed += drop(i);
      }
    }
    return freed;
  }

  /** Entries held. */
  int size() {
    return probation.size() + main.size() + pinned.size() + metadata.size();
  }

  long pinnedBytes() {
    return pinned.bytes();
  }

  /**
   * Takes entry {@code i}, out of its queue already, out of the key table and drops the cache's
   * reference: after the table removal, so a reader whose retain fails then misses. Returns its charge.
   */
  private long drop(int i) {
    int charge = entries.charge(i);
    droppedMetadata = entries.metadata(i);
    metadataBytes -= droppedMetadata ? charge : 0;
    entries.unlink(i, entries.hash(i));
    entries.release(i);
    return charge;
  }

  private EntryQueue queueOf(int i) {
    int id = entries.queue(i);
    return id == probation.id ? probation : id == main.id ? main : id == metadata.id ? metadata : pinned;
  }

  /**
   * Checks every entry's queue, pins, key and charge, and that no node of {@code table} holds a
   * block an entry holds; throws on the first violation. Returns the charges held. For tests.
   */
  long check(NodeTable table) {
    long sum = 0;
    long meta = 0;
    for (EntryQueue q : new EntryQueue[] {probation, main, pinned, metadata}) {
      long bytes = 0;
      int count = 0;
      for (int i = q.first(); i != NONE; i = q.next(i)) {
        long file = entries.fileNumber(i);
        long offset = entries.offset(i);
        long hash = entries.hash(i);
        check(entries.queue(i) == q.id, "entry in the wrong queue");
        check((entries.pins(i) > 0) == (q == pinned), "pins " + entries.pins(i) + " in " + q.name);
        check(entries.find(file, offset, hash) == i, "queued entry missing from the key table");
        check(entries.charge(i) > 0 && DataEntries.refs(entries.state(i)) > 0, "queued entry not held");
        check(table.get(file, offset, hash) == null, "a block both on and off the heap");
        check(q != metadata || entries.metadata(i), "data block in the metadata queue");
        check(q != probation || !entries.metadata(i), "index partition in probation");
        meta += entries.metadata(i) ? entries.charge(i) : 0;
        bytes += entries.charge(i);
        count++;
      }
      check(bytes == q.bytes() && count == q.size(), q.name + " entry accounting");
      sum += bytes;
    }
    check(meta == metadataBytes, "metadata entry accounting");
    check(size() == entries.linked(), "key table holds " + entries.linked() + " entries, queues " + size());
    return sum;
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }
}
