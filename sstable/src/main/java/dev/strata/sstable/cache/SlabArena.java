package dev.strata.sstable.cache;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
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
 * <p>Thread-safe: slot bookkeeping under this object's monitor. A slot's bytes are written by the
 * one thread that allocated it, before the block holding it is published (through the cache's
 * volatile node field), and read only by threads holding a reference to that block.
 */
public final class SlabArena {
  /**
   * The unit a block's bytes are stored in. 512 wastes about 6 % of a 4 KiB block (half a slot on
   * average) and needs 9 slot numbers for it; smaller slots waste less but cost more numbers.
   */
  public static final int SLOT_BYTES = 512;

  /**
   * The most a slab holds. Small, because the Get that needs a new slab waits while the JVM
   * allocates and zeroes it: with 4 MiB slabs the first Get of a 4 GiB cache took 3-11 ms (0.7-0.95
   * ms with blocks on the heap), with 256 KiB 0.76-0.86 ms. The zeroing per cached byte is the same
   * either way; 16,384 slabs of a 4 GiB cache cost 2.6 MB of heap (see heapBytes).
   */
  static final int MAX_SLAB_BYTES = 256 << 10;

  private static final MethodHandle INVOKE_CLEANER = invokeCleaner();

  private final int slabBytes;
  private final int slotsPerSlab;
  private final int maxSlabs;

  /**
   * The slabs allocated so far, by number (null once freed); replaced by a longer copy under the
   * monitor, and published before any slot of a new slab is handed out. Read by holders of slots.
   */
  private volatile ByteBuffer[] slabs = new ByteBuffer[0];

  @GuardedBy("this")
  private int[] usedPerSlab = new int[0];

  /** Free slot numbers (slab * slotsPerSlab + index), a stack. */
  @GuardedBy("this")
  private int[] free = new int[0];

  @GuardedBy("this")
  private int freeCount;

  @GuardedBy("this")
  private int slabCount;

  @GuardedBy("this")
  private int slabsHeld;

  @GuardedBy("this")
  private boolean closed;

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
    // Slot numbers are ints: at most 2^31 slots (1 TiB) per arena, far beyond any direct memory.
    this.maxSlabs = (int) Math.min((capacityBytes + slabBytes - 1) / slabBytes,
        Integer.MAX_VALUE / slotsPerSlab);
  }

  /**
   * The heap an arena for {@code capacityBytes} takes when full, besides its blocks: 4 bytes a slot
   * for the free stack, and per slab its entry in two arrays and the direct buffer's objects (the
   * buffer, its cleaner and deallocator: about 160 bytes).
   */
  static long heapBytes(long capacityBytes) {
    long slots = (capacityBytes + SLOT_BYTES - 1) / SLOT_BYTES;
    long slabs = (capacityBytes + MAX_SLAB_BYTES - 1) / MAX_SLAB_BYTES;
    return HeapCost.align(HeapCost.ARRAY_HEADER + 4 * slots)
        + HeapCost.align(HeapCost.ARRAY_HEADER + 8 * slabs)
        + 160 * slabs;
  }

  /** The slots a block of {@code length} bytes takes. */
  public static int slotsFor(int length) {
    return (length + SLOT_BYTES - 1) / SLOT_BYTES;
  }

  /**
   * Stores {@code src[offset, offset + length)} in free slots and returns their numbers in order, or
   * null when the arena has too few left (or is closed): the caller keeps the block on the heap.
   */
  int[] store(byte[] src, int offset, int length) {
    int[] slots = allocate(slotsFor(length));
    if (slots == null) {
      return null;
    }
    transfer(slots, length, src, offset, true);
    return slots;
  }

  /** Copies the first {@code length} stored bytes of {@code slots} into {@code dst} from {@code offset}. */
  void read(int[] slots, int length, byte[] dst, int offset) {
    transfer(slots, length, dst, offset, false);
  }

  /**
   * Copies between {@code array[offset, offset + length)} and the slots, into them when {@code
   * store}: one bulk copy per run of adjacent slots.
   */
  private void transfer(int[] slots, int length, byte[] array, int offset, boolean store) {
    ByteBuffer[] slabs = this.slabs;
    int done = 0;
    for (int i = 0; i < slots.length; ) {
      int run = run(slots, i);
      int n = Math.min(run * SLOT_BYTES, length - done);
      ByteBuffer slab = slabs[slots[i] / slotsPerSlab];
      int at = (slots[i] % slotsPerSlab) * SLOT_BYTES;
      if (store) {
        slab.put(at, array, offset + done, n);
      } else {
        slab.get(at, array, offset + done, n);
      }
      done += n;
      i += run;
    }
  }

  /** The stored byte at {@code index} of the block in {@code slots}: an access in place. */
  byte get(int[] slots, int index) {
    int slot = slots[index / SLOT_BYTES];
    return slabs[slot / slotsPerSlab].get((slot % slotsPerSlab) * SLOT_BYTES + index % SLOT_BYTES);
  }

  /** How many slots from {@code i} on are adjacent in one slab: one bulk copy serves them all. */
  private int run(int[] slots, int i) {
    int first = slots[i];
    int end = (first / slotsPerSlab + 1) * slotsPerSlab;
    int j = i + 1;
    while (j < slots.length && slots[j] == first + (j - i) && slots[j] < end) {
      j++;
    }
    return j - i;
  }

  private synchronized int[] allocate(int count) {
    while (freeCount < count && !closed && !refused && slabCount < maxSlabs) {
      addSlab();
    }
    if (closed || freeCount < count) {
      return null;
    }
    int[] slots = new int[count];
    for (int i = 0; i < count; i++) {
      int s = free[--freeCount];
      slots[i] = s;
      usedPerSlab[s / slotsPerSlab]++;
    }
    return slots;
  }

  @GuardedBy("this")
  private void addSlab() {
    ByteBuffer b;
    try {
      b = allocator.apply(slabBytes);
    } catch (OutOfMemoryError e) { // "Direct buffer memory": the JVM's limit, not the heap's
      refused = true;
      return;
    }
    int slab = slabCount++;
    ByteBuffer[] grown = slabs;
    if (slab == grown.length) {
      grown = Arrays.copyOf(grown, Math.max(4, 2 * slab));
      usedPerSlab = Arrays.copyOf(usedPerSlab, grown.length);
    }
    grown[slab] = b;
    slabs = grown; // published (volatile) before any of the slab's slots is handed out
    slabsHeld++;
    if (free.length < slabCount * slotsPerSlab) { // room to free every slot handed out
      free = Arrays.copyOf(free, Math.max(slabCount * slotsPerSlab, 2 * free.length));
    }
    // Pushed last slot first, so a fresh slab hands out ascending, adjacent slots.
    for (int i = slotsPerSlab - 1; i >= 0; i--) {
      free[freeCount++] = slab * slotsPerSlab + i;
    }
  }

  /** Gives {@code slots} back; each is free for the next block. */
  synchronized void free(int[] slots) {
    for (int s : slots) {
      int slab = s / slotsPerSlab;
      free[freeCount++] = s;
      if (--usedPerSlab[slab] == 0 && closed) {
        release(slab);
      }
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
    freeDirect(b);
  }

  /** Direct bytes this arena holds now: its slabs not yet freed. */
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

  /**
   * Frees a direct buffer's memory now, as Netty and Lucene do ({@code sun.misc.Unsafe.invokeCleaner},
   * in the {@code jdk.unsupported} module every JDK ships); without it the buffer waits for the
   * collector, which is the nondeterminism this class exists to avoid.
   */
  private static void freeDirect(ByteBuffer b) {
    if (INVOKE_CLEANER == null) {
      return; // no Unsafe: the collector frees it when the buffer becomes unreachable
    }
    try {
      INVOKE_CLEANER.invokeExact(b);
    } catch (Throwable t) {
      throw new IllegalStateException("could not free a direct buffer", t);
    }
  }

  private static MethodHandle invokeCleaner() {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field f = unsafeClass.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      Object unsafe = f.get(null);
      return MethodHandles.lookup()
          .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
          .bindTo(unsafe);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
