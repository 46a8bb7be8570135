package dev.strata.sstable.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The entries of one shard's off-heap data blocks, held in primitive arrays: no heap object per
 * cached block. An entry is a number; its fields are a stride of a {@code long[]} chunk (file number,
 * offset, queue order, state) and of an {@code int[]} chunk (first slot, length, queue links, bucket
 * chain, charge, frequency, pins and queue), 64 bytes an entry, with its key table's buckets.
 *
 * <p>Why: a cache of gigabytes holds about a million data blocks. With one object per block, every
 * block loaded while the cache fills is a long-lived object that the young collections which follow
 * copy (and trace, through its references) and then promote, in pauses that grow with the cache's
 * fill rate. Chunks of primitive arrays hold no references the collector traces, and are few: 64
 * entries each, allocated as the shard first needs them and reused as entries are freed.
 *
 * <p>State. Each entry's state word holds its generation (high 32 bits) and its reference count (low
 * 32): the cache's reference from {@link #store} until it drops the entry, and each reader's while
 * it copies the bytes out ({@link OffHeapBlock}, a view a reader aims at an entry and reuses). The
 * last release frees the block's slots and the entry number, and a reused number starts a new
 * generation, so a view aimed at the old block fails its {@link #retain} (a compare-and-set on the
 * whole word) instead of reading another block's bytes.
 *
 * <p>Lookups take no lock: {@link #find} reads a bucket with acquire semantics and walks the chain,
 * comparing keys; the entry it returns may be dropped or even reused meanwhile, which the caller's
 * retain detects. Changes ({@link #store}, {@link #link}, {@link #unlink}, the queue fields) are
 * made under the owning shard's lock; the free list under this object's monitor, because the last
 * release may come from any reader. A walk is bounded, so a chain changed under a reader ends it (a
 * miss, which is only a hint: the shard looks again under its lock before it loads).
 *
 * <p>Thread-safe as described.
 */
final class DataEntries {
  /** No entry: the end of a chain, a queue or the free list. */
  static final int NONE = -1;

  /**
   * The cache's cost per entry: its 64 bytes in the chunks and one to two 4-byte buckets (8), as a
   * node's table slots are charged. The chunks' own headers, 32 bytes per 64 entries, are left out.
   */
  static final int ENTRY_BYTES = 64 + 8;

  private static final int CHUNK_SHIFT = 6;
  private static final int CHUNK = 1 << CHUNK_SHIFT;
  private static final int MASK = CHUNK - 1;

  private static final int LONGS = 4;
  private static final int FILE = 0;
  private static final int OFFSET = 1;
  private static final int SEQ = 2;
  private static final int STATE = 3;

  private static final int INTS = 8;
  private static final int FIRST_SLOT = 0;
  private static final int LENGTH = 1;
  private static final int PREV = 2;
  private static final int NEXT = 3; // also the free list's link
  private static final int CHAIN = 4;
  private static final int CHARGE = 5;
  private static final int FREQUENCY = 6;
  private static final int PINS_QUEUE = 7; // pins in the low 24 bits, the queue's id above, the top bit metadata
  private static final int METADATA_BIT = 1 << 31;

  private static final VarHandle LONG = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle INT = MethodHandles.arrayElementVarHandle(int[].class);

  private final SlabArena arena;

  /** Chunks by number; replaced by longer copies under the monitor, the chunks themselves never move. */
  private volatile long[][] longs = new long[0][];
  private volatile int[][] ints = new int[0][];

  /** The key table's buckets, a power of two, each an entry number or NONE; doubled under the lock. */
  private volatile int[] buckets = newBuckets(16);

  /** Entries linked in the key table; guarded by the shard's lock. */
  private int linked;

  /** Entry numbers handed out so far (the next new one), and the free list's head. */
  private int allocated;
  private int freeHead = NONE;

  DataEntries(SlabArena arena) {
    this.arena = arena;
  }

  SlabArena arena() {
    return arena;
  }

  // ---- lookups, without the lock ---------------------------------------------------------------

  /** The entry of block (fileNumber, offset), whose mixed hash is {@code hash}, or NONE. */
  int find(long fileNumber, long offset, long hash) {
    return findFrom(head(hash), fileNumber, offset);
  }

  /** The first entry of the chain for {@code hash}: {@link #find}'s first step, which a batch takes for all its keys first. */
  int head(long hash) {
    int[] b = buckets;
    return (int) INT.getAcquire(b, (int) hash & (b.length - 1));
  }

  /** The entry of block (fileNumber, offset) on the chain from entry {@code i} on, or NONE. */
  int findFrom(int i, long fileNumber, long offset) {
    // The chunk arrays are read again at each step: a chain changed under the walk (a grown table,
    // a reused entry) may lead to an entry of a chunk added after the walk began.
    for (int hops = buckets.length + CHUNK; i != NONE && hops > 0; hops--) {
      long[] lc = longs[i >>> CHUNK_SHIFT];
      int at = (i & MASK) * LONGS;
      if (lc[at + OFFSET] == offset && lc[at + FILE] == fileNumber) {
        return i;
      }
      i = (int) INT.getAcquire(ints[i >>> CHUNK_SHIFT], (i & MASK) * INTS + CHAIN);
    }
    return NONE;
  }

  /** Entry {@code i}'s state word: generation and reference count; read with acquire semantics. */
  long state(int i) {
    return (long) LONG.getAcquire(longs[i >>> CHUNK_SHIFT], (i & MASK) * LONGS + STATE);
  }

  static int generation(long state) {
    return (int) (state >>> 32);
  }

  static int refs(long state) {
    return (int) state;
  }

  int firstSlot(int i) {
    return ints[i >>> CHUNK_SHIFT][(i & MASK) * INTS + FIRST_SLOT];
  }

  int length(int i) {
    return ints[i >>> CHUNK_SHIFT][(i & MASK) * INTS + LENGTH];
  }

  /** Records a hit: racy and lossy on purpose (a hint), and no write once the counter is at its top. */
  void touch(int i) {
    int[] c = ints[i >>> CHUNK_SHIFT];
    int at = (i & MASK) * INTS + FREQUENCY;
    int f = c[at];
    if (f < Node.MAX_FREQUENCY) {
      c[at] = f + 1;
    }
  }

  // ---- references, from any thread --------------------------------------------------------------

  /** Takes a reference on entry {@code i} if it still holds generation {@code generation}'s block. */
  boolean retain(int i, int generation) {
    long[] c = longs[i >>> CHUNK_SHIFT];
    int at = (i & MASK) * LONGS + STATE;
    long s = (long) LONG.getVolatile(c, at);
    while (generation(s) == generation && refs(s) > 0) {
      long seen = (long) LONG.compareAndExchange(c, at, s, s + 1);
      if (seen == s) {
        return true;
      }
      s = seen;
    }
    return false;
  }

  /** Drops a reference on entry {@code i}; the last frees the block's slots and the entry. */
  void release(int i) {
    long s = (long) LONG.getAndAdd(longs[i >>> CHUNK_SHIFT], (i & MASK) * LONGS + STATE, -1L);
    int refs = refs(s);
    if (refs == 1) {
      arena.free(firstSlot(i), length(i));
      recycle(i);
    } else if (refs < 1) {
      throw new IllegalStateException("released more often than retained");
    }
  }

  /** Whether generation {@code generation} of entry {@code i} still holds a reference. */
  boolean held(int i, int generation) {
    long s = state(i);
    return generation(s) == generation && refs(s) > 0;
  }

  // ---- changes, under the shard's lock ---------------------------------------------------------

  /**
   * Stores {@code src[0, length)} in the arena as a new entry of block (fileNumber, offset), an
   * index partition when {@code metadata}, else a data block, holding the cache's reference, not
   * yet linked or queued; NONE when the arena had no room.
   */
  int store(long fileNumber, long offset, byte[] src, int length, long charge, boolean metadata) {
    int first = arena.store(src, 0, length);
    if (first < 0) {
      return NONE;
    }
    int i = take();
    long[] lc = longs[i >>> CHUNK_SHIFT];
    int l = (i & MASK) * LONGS;
    int[] ic = ints[i >>> CHUNK_SHIFT];
    int n = (i & MASK) * INTS;
    lc[l + FILE] = fileNumber;
    lc[l + OFFSET] = offset;
    ic[n + FIRST_SLOT] = first;
    ic[n + LENGTH] = length;
    ic[n + PREV] = NONE;
    ic[n + NEXT] = NONE;
    ic[n + CHARGE] = (int) charge;
    ic[n + FREQUENCY] = 0;
    ic[n + PINS_QUEUE] = metadata ? METADATA_BIT : 0;
    long generation = generation(lc[l + STATE]) + 1L;
    LONG.setRelease(lc, l + STATE, generation << 32 | 1L); // the fields above, published with it
    return i;
  }

  /** Puts entry {@code i}, of mixed hash {@code hash}, in the key table. */
  void link(int i, long hash) {
    if (linked >= buckets.length) {
      grow();
    }
    int[] b = buckets;
    int slot = (int) hash & (b.length - 1);
    setChain(i, b[slot]);
    INT.setRelease(b, slot, i);
    linked++;
  }

  /** Takes entry {@code i}, of mixed hash {@code hash}, out of the key table; its chain link stays for readers on it. */
  void unlink(int i, long hash) {
    int[] b = buckets;
    int slot = (int) hash & (b.length - 1);
    int prev = NONE;
    for (int e = b[slot]; e != NONE; prev = e, e = chain(e)) {
      if (e == i) {
        if (prev == NONE) {
          INT.setRelease(b, slot, chain(i));
        } else {
          setChain(prev, chain(i));
        }
        linked--;
        return;
      }
    }
    throw new IllegalStateException("entry " + i + " is not in the key table");
  }

  /** Entries in the key table. */
  int linked() {
    return linked;
  }

  long fileNumber(int i) {
    return longs[i >>> CHUNK_SHIFT][(i & MASK) * LONGS + FILE];
  }

  long offset(int i) {
    return longs[i >>> CHUNK_SHIFT][(i & MASK) * LONGS + OFFSET];
  }

  long hash(int i) {
    return BlockCacheKey.mixedHash(fileNumber(i), offset(i));
  }

  long seq(int i) {
    return longs[i >>> CHUNK_SHIFT][(i & MASK) * LONGS + SEQ];
  }

  void setSeq(int i, long seq) {
    longs[i >>> CHUNK_SHIFT][(i & MASK) * LONGS + SEQ] = seq;
  }

  int prev(int i) {
    return get(i, PREV);
  }

  void setPrev(int i, int v) {
    set(i, PREV, v);
  }

  int next(int i) {
    return get(i, NEXT);
  }

  void setNext(int i, int v) {
    set(i, NEXT, v);
  }

  int charge(int i) {
    return get(i, CHARGE);
  }

  int frequency(int i) {
    return get(i, FREQUENCY);
  }

  void setFrequency(int i, int f) {
    set(i, FREQUENCY, f);
  }

  int pins(int i) {
    return get(i, PINS_QUEUE) & 0xFFFFFF;
  }

  void setPins(int i, int pins) {
    set(i, PINS_QUEUE, get(i, PINS_QUEUE) & ~0xFFFFFF | pins);
  }

  /**
   * Whether entry {@code i} holds an index partition (metadata) rather than a data block: set when
   * it is stored, before its state is published, so a reader that read the state reads it right.
   */
  boolean metadata(int i) {
    return (get(i, PINS_QUEUE) & METADATA_BIT) != 0;
  }

  /** The id of the queue entry {@code i} is in ({@link EntryQueue}), 0 for none. */
  int queue(int i) {
    return get(i, PINS_QUEUE) >>> 24 & 0x7F;
  }

  void setQueue(int i, int id) {
    set(i, PINS_QUEUE, get(i, PINS_QUEUE) & (0xFFFFFF | METADATA_BIT) | id << 24);
  }

  private int chain(int i) {
    return get(i, CHAIN);
  }

  private void setChain(int i, int v) {
    INT.setRelease(ints[i >>> CHUNK_SHIFT], (i & MASK) * INTS + CHAIN, v);
  }

  private int get(int i, int field) {
    return ints[i >>> CHUNK_SHIFT][(i & MASK) * INTS + field];
  }

  private void set(int i, int field, int v) {
    ints[i >>> CHUNK_SHIFT][(i & MASK) * INTS + field] = v;
  }

  /** Doubles the buckets, relinking every entry into the new array before it is published. */
  private void grow() {
    int[] old = buckets;
    int[] b = newBuckets(old.length * 2);
    int mask = b.length - 1;
    for (int head : old) {
      for (int e = head; e != NONE; ) {
        int next = chain(e);
        int slot = (int) hash(e) & mask;
        setChain(e, b[slot]);
        b[slot] = e;
        e = next;
      }
    }
    buckets = b;
  }

  private static int[] newBuckets(int n) {
    int[] b = new int[n];
    Arrays.fill(b, NONE);
    return b;
  }

  // ---- entry numbers ----------------------------------------------------------------------------

  /** A free entry number, from the free list or a new one (adding a chunk when needed). */
  private synchronized int take() {
    int i = freeHead;
    if (i != NONE) {
      freeHead = get(i, NEXT);
      return i;
    }
    i = allocated++;
    int chunk = i >>> CHUNK_SHIFT;
    if (chunk == longs.length || longs[chunk] == null) {
      addChunk(chunk);
    }
    return i;
  }

  private void addChunk(int chunk) {
    long[][] l = longs;
    int[][] n = ints;
    if (chunk == l.length) {
      int length = Math.max(4, 2 * l.length);
      l = Arrays.copyOf(l, length);
      n = Arrays.copyOf(n, length);
    }
    l[chunk] = new long[CHUNK * LONGS];
    n[chunk] = new int[CHUNK * INTS];
    ints = n; // published before the entry numbers of the chunk are handed out
    longs = l;
  }

  /** Puts entry {@code i}, whose last reference went, on the free list; its generation stays until reused. */
  private synchronized void recycle(int i) {
    set(i, NEXT, freeHead);
    freeHead = i;
  }
}
