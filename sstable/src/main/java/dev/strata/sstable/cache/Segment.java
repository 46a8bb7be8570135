package dev.strata.sstable.cache;

/**
 * A FIFO queue of nodes that knows the bytes it holds: the intrusive doubly-linked list under each
 * of a shard's segments (metadata, main, probation, pinned). Moving a node is O(1) and allocates
 * nothing.
 *
 * <p>Not thread-safe: guarded by the owning shard's lock.
 */
final class Segment {
  final String name;
  private Node head;
  private Node tail;
  private long bytes;
  private int size;

  Segment(String name) {
    this.name = name;
  }

  long bytes() {
    return bytes;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return head == null;
  }

  /** Appends {@code n}, which must be in no segment. */
  void addLast(Node n) {
    assert n.segment == null : n + " already in " + n.segment.name;
    n.segment = this;
    n.prev = tail;
    n.next = null;
    if (tail == null) {
      head = n;
    } else {
      tail.next = n;
    }
    tail = n;
    bytes += n.charge;
    size++;
  }

  /** Removes and returns the oldest node; the segment must not be empty. */
  Node pollFirst() {
    Node n = head;
    head = n.next;
    if (head == null) {
      tail = null;
    } else {
      head.prev = null;
    }
    n.next = null;
    n.segment = null;
    bytes -= n.charge;
    size--;
    return n;
  }

  /** Removes {@code n}, which must be in this segment. */
  void remove(Node n) {
    assert n.segment == this : n + " not in " + name;
    if (n.prev == null) {
      head = n.next;
    } else {
      n.prev.next = n.next;
    }
    if (n.next == null) {
      tail = n.prev;
    } else {
      n.next.prev = n.prev;
    }
    n.prev = null;
    n.next = null;
    n.segment = null;
    bytes -= n.charge;
    size--;
  }

  /** The nodes from oldest to newest, for invariant checks. */
  Node first() {
    return head;
  }
}
