package dev.strata.sstable.cache;

import static dev.strata.sstable.cache.DataEntries.NONE;

/**
 * A FIFO queue of off-heap data entries that knows the bytes it holds: {@link Segment}'s twin for
 * {@link DataEntries}, linked through the entries' own prev and next fields, so moving an entry
 * allocates nothing and the queue holds no heap object per entry. Each entry records the queue it is
 * in (an id from 1) and the order it was queued in, by which the shard merges this queue with the
 * node segment of the same name ({@link #headSeq}).
 *
 * <p>Not thread-safe: guarded by the owning shard's lock.
 */
final class EntryQueue {
  final String name;
  final int id;
  private final DataEntries entries;
  private int head = NONE;
  private int tail = NONE;
  private long bytes;
  private int size;

  EntryQueue(String name, int id, DataEntries entries) {
    if (id < 1 || id > 127) {
      throw new IllegalArgumentException("queue id " + id);
    }
    this.name = name;
    this.id = id;
    this.entries = entries;
  }

  long bytes() {
    return bytes;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return head == NONE;
  }

  /** The oldest entry, or NONE. */
  int first() {
    return head;
  }

  /** The queue order of the oldest entry; the queue must not be empty. */
  long headSeq() {
    return entries.seq(head);
  }

  /** Appends entry {@code i}, which must be in no queue, as the {@code seq}th queued. */
  void addLast(int i, long seq) {
    assert entries.queue(i) == 0 : "entry " + i + " already queued";
    entries.setQueue(i, id);
    entries.setSeq(i, seq);
    entries.setPrev(i, tail);
    entries.setNext(i, NONE);
    if (tail == NONE) {
      head = i;
    } else {
      entries.setNext(tail, i);
    }
    tail = i;
    bytes += entries.charge(i);
    size++;
  }

  /** Removes and returns the oldest entry; the queue must not be empty. */
  int pollFirst() {
    int i = head;
    remove(i);
    return i;
  }

  /** Removes entry {@code i}, which must be in this queue. */
  void remove(int i) {
    assert entries.queue(i) == id : "entry " + i + " not in " + name;
    int prev = entries.prev(i);
    int next = entries.next(i);
    if (prev == NONE) {
      head = next;
    } else {
      entries.setNext(prev, next);
    }
    if (next == NONE) {
      tail = prev;
    } else {
      entries.setPrev(next, prev);
    }
    entries.setPrev(i, NONE);
    entries.setNext(i, NONE);
    entries.setQueue(i, 0);
    bytes -= entries.charge(i);
    size--;
  }

  /** The entry after {@code i} in this queue, or NONE: for walks from {@link #first}. */
  int next(int i) {
    return entries.next(i);
  }
}
