package dev.strata.sstable.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A shard's index from a block's (file number, offset) to its {@link Node}: a hash table of chained
 * buckets whose chains run through the nodes themselves ({@link Node#chain}), so an entry costs its
 * bucket slot and nothing else (a {@code ConcurrentHashMap} adds a map node and a key object per
 * entry, 64 bytes, and a lookup by key must allocate the key).
 *
 * <p>Lookups take no lock and allocate nothing: {@link #get} reads the bucket with acquire semantics
 * and walks the chain through volatile links, comparing the two longs. Changes ({@link #put},
 * {@link #remove}, the doubling in {@link #put}) are made under the owning shard's lock only. A
 * removed node keeps its link, so a reader standing on it walks on to the rest of the chain; a
 * node is never put back once removed (the cache makes a new one). While the table doubles, nodes
 * are relinked into the new buckets in place: a reader of the old array can then miss a node that
 * is present (never find a wrong one: keys are compared, and every chain stays finite, since the
 * nodes not yet moved lead only into chains of the new array). A lookup that misses therefore is
 * only a hint; the cache repeats it under the lock before it loads (see {@code
 * ClockBlockCache.getOrLoad}).
 *
 * <p>Thread-safe as described: {@link #get} from any thread, the rest under the shard's lock.
 */
final class NodeTable {
  private static final VarHandle BUCKET = MethodHandles.arrayElementVarHandle(Node[].class);

  /** The buckets, a power of two; replaced by a doubled array under the lock. */
  private volatile Node[] buckets = new Node[16];

  /** Nodes held; guarded by the shard's lock. */
  private int size;

  /** The node of block (fileNumber, offset), whose {@link BlockCacheKey#mixedHash} is {@code hash}, or null. */
  Node get(long fileNumber, long offset, long hash) {
    return find(head(hash), fileNumber, offset);
  }

  /**
   * The first node of the chain of keys whose hash is {@code hash}: the first step of {@link
   * #get}, which a batch takes for all its keys before the second ({@link #find}), so that their
   * cache misses overlap.
   */
  Node head(long hash) {
    Node[] b = buckets;
    return (Node) BUCKET.getAcquire(b, (int) hash & (b.length - 1));
  }

  /** The node of block (fileNumber, offset) on the chain from {@code n} on, or null. */
  static Node find(Node n, long fileNumber, long offset) {
    for (; n != null; n = n.chain) {
      if (n.offset == offset && n.fileNumber == fileNumber) {
        return n;
      }
    }
    return null;
  }

  /** Adds {@code n}, whose key the table must not hold; under the shard's lock. */
  void put(Node n) {
    if (size >= buckets.length) {
      grow();
    }
    Node[] b = buckets;
    int i = (int) n.hash() & (b.length - 1);
    n.chain = b[i];
    BUCKET.setRelease(b, i, n); // publishes the node's fields with it
    size++;
  }

  /** Removes {@code n} if the table holds that node; under the shard's lock. */
  boolean remove(Node n) {
    Node[] b = buckets;
    int i = (int) n.hash() & (b.length - 1);
    Node prev = null;
    for (Node e = b[i]; e != null; prev = e, e = e.chain) {
      if (e == n) {
        if (prev == null) {
          BUCKET.setRelease(b, i, n.chain);
        } else {
          prev.chain = n.chain;
        }
        size--; // n.chain is left as it is: a reader standing on n walks on
        return true;
      }
    }
    return false;
  }

  /** Nodes held; under the shard's lock. */
  int size() {
    return size;
  }

  /** What the bucket array costs on the heap now. */
  long heapBytes() {
    return HeapCost.align(HeapCost.ARRAY_HEADER + (long) HeapCost.REFERENCE * buckets.length);
  }

  /** Doubles the buckets, relinking every node into the new array before it is published. */
  private void grow() {
    Node[] old = buckets;
    Node[] b = new Node[old.length * 2];
    int mask = b.length - 1;
    for (Node head : old) {
      for (Node n = head; n != null; ) {
        Node next = n.chain;
        int i = (int) n.hash() & mask;
        n.chain = b[i];
        b[i] = n;
        n = next;
      }
    }
    buckets = b;
  }
}
