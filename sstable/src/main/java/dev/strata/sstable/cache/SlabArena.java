package dev.strata.sstable.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.sstable.block.BlockBytes;
import dev.strata.sstable.io.DirectBuffers;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * Off-heap memory for one shard of a {@link ClockBlockCache}: direct buffers of up to 256 KiB (slabs),
 * allocated as the shard fills and never more than its capacity rounded up to a slab, carved into
 * slots of {@link #SLOT_BYTES}. A block takes the slots its length needs, not necessarily adjacent
 * (no fragmentation to manage: any free slot fits any block), and gives them back the moment its
 * last reference goes ({@link OffHeapBlock#release}), never by waiting for the garbage collector.
 * {@link #close} frees every slab whose slots are all free, and each remaining slab as its last
 * slot comes back: a closed cache holds no direct memory once its readers are done.
 *
 * <p>Slot chains. Each slot has a link, an int past the slots at its slab's end: the next slot of the same
 * block, or of the free list. A block is named by its first slot and its length alone, so it costs
 * the heap no array of slot numbers; its slots are the first {@code slotsFor(length)} of the chain
 * from there. The free slots form one such chain too: a block takes the first slots of the free
 * list (cut off where it ends) and gives its chain back by linking it in front. A fresh slab's
 * slots are linked in ascending order, so blocks cut from it are adjacent and read in one bulk copy.
 * The links cost 4 bytes a slot, what a stack of free slot numbers cost before, and serve both.
 * They live in the slab's direct memory, not in an array per slab: a cache filling with slabs
 * then adds nothing to the heap that young collections would copy but the slab's buffer objects.
 *
 * <p>Thread-safe: slot bookkeeping and links under this object's monitor. A slot's bytes and the
 * links of a block's chain are written by the one thread that allocated it, before the block is
 * published (by the release store of its entry's state in {@code DataEntries}), and read by
 * threads holding a reference to that block, whose slots then stay; links change again only once
 * the block is freed, when no reader holds it. An optimistic reader ({@link #readUnreferenced})
 * holds no reference: the chain it follows may be freed and reused under it, so it checks every
 * slot it reaches against the slabs and bounds its hops by the length, and its caller validates
 * the bytes after; what keeps the slabs themselves mapped under it is {@link SlabReaders}.
 */
public final class SlabArena {
  /**
   * The unit a block's bytes are stored in. 512 wastes about 6 % of a 4 KiB block (half a slot on
   * average) and needs 9 links for it; smaller slots waste less but cost more links.
   */
  public static final int SLOT_BYTES = 512;

  /**
   * The most a slab holds. Small, because the Get that needs a new slab waits while the JVM
   * allocates and zeroes it, which a slab of megabytes makes longer than the Get itself (a first
   * Get's figures in docs/PERFORMANCE.md). The zeroing per cached byte is the same either way; the
   * slabs' own heap cost grows with their count (16,384 for a 4 GiB cache; see heapBytes).
   */
  static final int MAX_SLAB_BYTES = 256 << 10;

  /** The link of a block's last slot, and of the free list's. */
  private static final int END = -1;


  private final int slabBytes;
  private final int slotsPerSlab;
  private final int maxSlabs;

  /**
   * The slabs allocated so far, by number (null once freed); replaced by a longer copy under the
   * monitor, and published before any slot of a new slab is handed out. Read by holders of slots.
   */
  private volatile ByteBuffer[] slabs = new ByteBuffer[0];

  /** Where a slab's links start: past its slots. */
  private final int linksAt;

  @GuardedBy("this")
  private int[] usedPerSlab = new int[0];

  /** The first free slot, or END. */
  @GuardedBy("this")
  private int freeHead = END;

  @GuardedBy("this")
  private int freeCount;

  @GuardedBy("this")
  private int slabCount;

  @GuardedBy("this")
  private int slabsHeld;

  /** Written under the monitor; read without it by optimistic readers. */
  private volatile boolean closed;

  /** The readers copying without a reference, which a closed arena frees no slab under. */
  private final SlabReaders readers = new SlabReaders();

  /** Makes a slab of the given bytes; throws OutOfMemoryError when direct memory is exhausted. */
  private final IntFunction<ByteBuffer> allocator;

  /**
   * Set when the JVM refused a slab ({@code -XX:MaxDirectMemorySize} reached): the arena stops
   * growing, and blocks it has no slot for stay on the heap.
   */
  @GuardedBy("this")
  private boolean refused;

  /** An arena that may hold up to {@code capacityBytes}, rounded up to a whole slab. */
  public SlabArena(long capacityBytes) {
    this(capacityBytes, ByteBuffer::allocateDirect);
  }

  /** {@link #SlabArena(long)} making its slabs with {@code allocator}; for tests. */
  SlabArena(long capacityBytes, IntFunction<ByteBuffer> allocator) {
    this.allocator = allocator;
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("capacityBytes must be >= 0: " + capacityBytes);
    }
    long rounded = Math.max(SLOT_BYTES, (capacityBytes + SLOT_BYTES - 1) / SLOT_BYTES * SLOT_BYTES);
    this.slabBytes = (int) Math.min(MAX_SLAB_BYTES, rounded);
    this.slotsPerSlab = slabBytes / SLOT_BYTES;
    this.linksAt = slabBytes;
    // Slot numbers are ints: at most 2^31 slots (1 TiB) per arena, far beyond any direct memory.
    this.maxSlabs = (int) Math.min((capacityBytes + slabBytes - 1) / slabBytes,
        Integer.MAX_VALUE / slotsPerSlab);
  }

  /**
   * What an arena for {@code capacityBytes} takes when full besides its slots, which its shard
   * charges up front: its slot links ({@link #linkBytes}, in the slabs' direct memory) and on the
   * heap, per slab, the direct buffer's objects (the buffer, its cleaner and deallocator: about 160
   * bytes) and its entries in two arrays.
   */
  static long bookkeepingBytes(long capacityBytes) {
    long slabs = (capacityBytes + MAX_SLAB_BYTES - 1) / MAX_SLAB_BYTES;
    return linkBytes(capacityBytes) + slabs * 160 + 2 * HeapCost.align(HeapCost.ARRAY_HEADER + 4 * slabs)
        + SlabReaders.HEAP_BYTES;
  }

  /** The direct bytes of the slot links of an arena for {@code capacityBytes} when full: 4 a slot. */
  static long linkBytes(long capacityBytes) {
    long slabs = (capacityBytes + MAX_SLAB_BYTES - 1) / MAX_SLAB_BYTES;
    long slotsPerSlab = Math.min(MAX_SLAB_BYTES, Math.max(SLOT_BYTES,
        (capacityBytes + SLOT_BYTES - 1) / SLOT_BYTES * SLOT_BYTES)) / SLOT_BYTES;
    return slabs * 4 * slotsPerSlab;
  }

  /** The slots a block of {@code length} bytes takes: at least one, so that a chain names it. */
  public static int slotsFor(int length) {
    return Math.max(1, (length + SLOT_BYTES - 1) / SLOT_BYTES);
  }

  /** The bytes of the slots a block of {@code length} bytes takes: what it costs off the heap. */
  public static long slotBytes(int length) {
    return (long) slotsFor(length) * SLOT_BYTES;
  }

  /**
   * Stores {@code src[offset, offset + length)} in free slots and returns the first of their chain,
   * or -1 when the arena has too few left (or is closed): the caller keeps the block on the heap.
   */
  int store(byte[] src, int offset, int length) {
    int first = allocate(slotsFor(length));
    if (first != END) {
      transfer(first, length, src, offset, true); // slots just allocated: in the slabs
    }
    return first;
  }

  /**
   * Copies the first {@code length} bytes of the chain from {@code first} into {@code dst} from
   * {@code offset}; the caller holds a reference on the block, so the chain is intact.
   */
  void read(int first, int length, byte[] dst, int offset) {
    if (!transfer(first, length, dst, offset, false)) {
      throw new IllegalStateException("the chain of a referenced block is broken at slot " + first);
    }
  }

  /**
   * {@link #read} by a reader holding no reference, between {@link #enterReads} and {@link #exitReads}:
   * false, having thrown nothing, when the arena is closed or the chain leads out of the slabs
   * (freed and relinked meanwhile). True says only that the copy ran: {@code dst} holds the block's
   * bytes only if its entry's state shows afterwards that it was never freed ({@link
   * OffHeapBlock#tryCopyTo}).
   */
  boolean readUnreferenced(int first, int length, byte[] dst, int offset) {
    if (closed || length < 0 || offset < 0 || length > dst.length - offset) { // closed first: see peek
      return false;
    }
    return transfer(first, length, dst, offset, false);
  }

  /**
   * The byte at {@code index} of the chain from {@code first}, read by a reader holding no reference
   * between {@link #enterReads} and {@link #exitReads} (a batch's touch of its blocks' first bytes); 0
   * when the arena is closed or the chain leads out of the slabs. May be any byte: only a validated
   * copy is trusted. The closed flag is read before any slab: a reader that finds it set may have
   * entered after the arena found no reader in and freed its slabs.
   */
  byte peekUnreferenced(int first, int index) {
    if (closed || index < 0) { // first: once closed, a slab may be freed
      return 0;
    }
    ByteBuffer[] slabs = this.slabs;
    int slot = first;
    for (int hops = index / SLOT_BYTES; hops > 0 && inSlabs(slabs, slot); hops--) {
      slot = link(slabs, slot);
    }
    return inSlabs(slabs, slot)
        ? slabs[slot / slotsPerSlab].get((slot % slotsPerSlab) * SLOT_BYTES + index % SLOT_BYTES) : 0;
  }

  /**
   * Aims {@code into} at the bytes of the chain from {@code first}, {@code length} long, when its
   * slots are one run of adjacent slots in one slab, for a search in place; false when they are not,
   * when the chain leads out of the slabs, or when the arena is closed. Read without a reference,
   * between {@link #enterReads} and {@link #exitReads}: the links may be another block's by now, so
   * what {@code into} then reads is validated afterwards, like a copy's bytes; it stays inside one
   * allocated slab either way, so it reads no memory outside the arena.
   */
  boolean aimRun(int first, int length, BlockBytes.Direct into) {
    if (closed || length < 0) { // closed first: see peekUnreferenced
      return false;
    }
    ByteBuffer[] slabs = this.slabs;
    if (!inSlabs(slabs, first)) {
      return false;
    }
    int index = first % slotsPerSlab;
    int count = slotsFor(length);
    if (count > slotsPerSlab - index) {
      return false;
    }
    ByteBuffer b = slabs[first / slotsPerSlab];
    for (int i = 0; i < count - 1; i++) {
      if (b.getInt(linksAt + 4 * (index + i)) != first + i + 1) {
        return false;
      }
    }
    return into.aim(b, index * SLOT_BYTES, length);
  }

  /**
   * Counts the calling thread among the readers copying without a reference: until its {@link
   * #exitReads}, no slab is freed, even once the arena is closed.
   */
  void enterReads() {
    readers.enter();
  }

  /** Ends an {@link #enterReads}; the last reader out of a closed arena frees what it left. */
  void exitReads() {
    readers.exit();
    if (closed) {
      releaseIdleSlabs();
    }
  }

  /** Whether {@code slot} lies in a slab of {@code slabs} that is allocated and not freed. */
  private boolean inSlabs(ByteBuffer[] slabs, int slot) {
    return slot >= 0 && slot / slotsPerSlab < slabs.length && slabs[slot / slotsPerSlab] != null;
  }

  /**
   * Copies between {@code array[offset, offset + length)} and the chain from slot {@code first},
   * into the slots when {@code store}: one bulk copy per run of adjacent slots. False when the chain
   * leads out of the slabs, which only an unreferenced read meets. Bounded: each step covers at least
   * a slot of the length.
   */
  private boolean transfer(int first, int length, byte[] array, int offset, boolean store) {
    ByteBuffer[] slabs = this.slabs;
    int done = 0;
    int slot = first;
    while (done < length) {
      if (!inSlabs(slabs, slot)) {
        return false;
      }
      int slab = slot / slotsPerSlab;
      int index = slot % slotsPerSlab;
      ByteBuffer b = slabs[slab];
      int run = 1; // slots adjacent to this one, in its slab, that the chain takes next
      while (done + run * SLOT_BYTES < length && index + run < slotsPerSlab
          && b.getInt(linksAt + 4 * (index + run - 1)) == slot + run) {
        run++;
      }
      int n = Math.min(run * SLOT_BYTES, length - done);
      if (store) {
        b.put(index * SLOT_BYTES, array, offset + done, n);
      } else {
        b.get(index * SLOT_BYTES, array, offset + done, n);
      }
      done += n;
      slot = b.getInt(linksAt + 4 * (index + run - 1));
    }
    return true;
  }

  /** The stored byte at {@code index} of the chain from {@code first}: an access in place. */
  byte get(int first, int index) {
    ByteBuffer[] slabs = this.slabs;
    int slot = first;
    for (int hops = index / SLOT_BYTES; hops > 0; hops--) {
      slot = link(slabs, slot);
    }
    return slabs[slot / slotsPerSlab].get((slot % slotsPerSlab) * SLOT_BYTES + index % SLOT_BYTES);
  }

  /** The link of {@code slot}: the next slot of its chain, or END. */
  private int link(ByteBuffer[] slabs, int slot) {
    return slabs[slot / slotsPerSlab].getInt(linksAt + 4 * (slot % slotsPerSlab));
  }

  private void setLink(ByteBuffer[] slabs, int slot, int next) {
    slabs[slot / slotsPerSlab].putInt(linksAt + 4 * (slot % slotsPerSlab), next);
  }

  /** Cuts the first {@code count} slots off the free list; their chain's first slot, or END. */
  private synchronized int allocate(int count) {
    while (freeCount < count && !closed && !refused && slabCount < maxSlabs) {
      addSlab();
    }
    if (closed || freeCount < count) {
      return END;
    }
    ByteBuffer[] slabs = this.slabs;
    int first = freeHead;
    int last = first;
    usedPerSlab[last / slotsPerSlab]++;
    for (int i = 1; i < count; i++) {
      last = link(slabs, last);
      usedPerSlab[last / slotsPerSlab]++;
    }
    freeHead = link(slabs, last);
    setLink(slabs, last, END);
    freeCount -= count;
    return first;
  }

  @GuardedBy("this")
  private void addSlab() {
    ByteBuffer b;
    try {
      b = allocator.apply(slabBytes + 4 * slotsPerSlab);
    } catch (OutOfMemoryError e) { // "Direct buffer memory": the JVM's limit, not the heap's
      refused = true;
      return;
    }
    int slab = slabCount++;
    ByteBuffer[] grownSlabs = slabs;
    if (slab == grownSlabs.length) {
      int length = Math.max(4, 2 * slab);
      grownSlabs = Arrays.copyOf(grownSlabs, length);
      usedPerSlab = Arrays.copyOf(usedPerSlab, length);
    }
    // The slab's slots in ascending order, in front of the free list: blocks cut from a fresh
    // slab take adjacent slots.
    int base = slab * slotsPerSlab;
    for (int i = 0; i < slotsPerSlab - 1; i++) {
      b.putInt(linksAt + 4 * i, base + i + 1);
    }
    b.putInt(linksAt + 4 * (slotsPerSlab - 1), freeHead);
    grownSlabs[slab] = b;
    slabs = grownSlabs; // published (volatile) before any of the slab's slots is handed out
    freeHead = base;
    freeCount += slotsPerSlab;
    slabsHeld++;
  }

  /** Gives back the chain of a block of {@code length} bytes from {@code first}; its slots are free for the next block. */
  synchronized void free(int first, int length) {
    ByteBuffer[] slabs = this.slabs;
    int count = slotsFor(length);
    int slot = first;
    for (int i = 0; i < count; i++) {
      int slab = slot / slotsPerSlab;
      // The next link is read before the slab may be freed; after close the free list is not kept.
      int next = i < count - 1 ? link(slabs, slot) : END;
      if (next == END && !closed) {
        setLink(slabs, slot, freeHead); // the chain, in front of the free list
      }
      --usedPerSlab[slab];
      slot = next;
    }
    if (closed) {
      releaseIdleSlabs();
    } else {
      freeHead = first;
      freeCount += count;
    }
  }

  /**
   * Stops handing out slots and frees every slab none of whose slots is in use; the rest are freed
   * as their slots come back. Idempotent.
   */
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    releaseIdleSlabs();
  }

  /**
   * Frees, once the arena is closed, every slab none of whose slots is in use, if no reader is in
   * without a reference ({@link SlabReaders}); else the last of them out calls this again.
   */
  private synchronized void releaseIdleSlabs() {
    if (!closed || !readers.idle()) {
      return;
    }
    for (int slab = 0; slab < slabCount; slab++) {
      if (usedPerSlab[slab] == 0) {
        release(slab);
      }
    }
  }

  @GuardedBy("this")
  private void release(int slab) {
    ByteBuffer b = slabs[slab];
    if (b == null) {
      return;
    }
    slabs[slab] = null; // no slot of it is in use: no reader reads the entry
    slabsHeld--;
    DirectBuffers.free(b); // without the collector's nondeterminism, which this class exists to avoid
  }

  /** Direct bytes of the slots this arena holds now (its slabs not yet freed), without their links. */
  public synchronized long reservedBytes() {
    return (long) slabsHeld * slabBytes;
  }

  /** Bytes of the slots in use. */
  public synchronized long usedBytes() {
    long used = 0;
    for (int slab = 0; slab < slabCount; slab++) {
      used += usedPerSlab[slab];
    }
    return used * SLOT_BYTES;
  }
}
