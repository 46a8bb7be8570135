package dev.strata.sstable.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The readers copying from slabs without a reference on the block they copy ({@link
 * OffHeapBlock#tryCopyTo}), counted so that a closed {@link SlabArena} frees no slab under them.
 *
 * <p>Why. An optimistic copy validates its bytes after reading them, which is enough against a
 * block's slots being reused (the bytes are then discarded), but not against its slab's direct
 * memory being freed: that read would fault. Slabs are freed only once their arena is closed. So a
 * reader enters this count before it reads the arena's closed flag and its slabs, and leaves it
 * once done; a closing arena registers itself here, then frees a slab only when the count is zero.
 * Both sides write before they read (the reader its count, then the flag; the arena its flag and
 * registration, then the count), all volatile, so either the reader sees the arena closed and reads
 * nothing, or the arena sees the reader and leaves the slab to the last reader out, which finds
 * the arena registered and frees what it left ({@link SlabArena#releaseIdleSlabs}).
 *
 * <p>The count is striped by thread over padded longs, so readers on different cores add to
 * different cache lines: the point is a hit that writes no line another core reads, unlike the
 * reference count of a hot block. The engine's read views and table readers use the same scheme
 * ({@code engine.version.StripedRefCount}), which this module cannot reach: it depends on nothing
 * above it. One instance serves every arena of the process ({@link #SHARED}):
 * a reader in one cache only delays the frees of a closing one by the length of a copy.
 *
 * <p>Thread-safe.
 */
final class SlabReaders {
  /** The count every arena uses. */
  static final SlabReaders SHARED = new SlabReaders();

  private static final int STRIPES = 16;

  /** Longs between stripes: 128 bytes, two cache lines (the adjacent-line prefetcher pairs them). */
  private static final int PAD = 16;

  private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

  /** The stripes, from PAD on, so that the first shares no line with the array's header. */
  private final long[] counts = new long[(STRIPES + 1) * PAD];

  /** Closed arenas with slabs left to free once no reader is in. */
  private final Set<SlabArena> waiting = new LinkedHashSet<>();

  private volatile boolean anyWaiting;

  /** Counts this thread in; returns what {@link #exit} takes. */
  int enter() {
    long id = Thread.currentThread().getId(); // a field: threads made one after another differ
    int at = PAD + (int) (id & (STRIPES - 1)) * PAD;
    COUNT.getAndAdd(counts, at, 1L);
    return at;
  }

  /** Counts this thread out, and frees what closed arenas left for the last reader. */
  void exit(int token) {
    COUNT.getAndAdd(counts, token, -1L);
    if (anyWaiting) {
      releaseWaiting();
    }
  }

  /** Whether no reader is in; read after the caller's own writes (see the class comment). */
  boolean idle() {
    for (int at = PAD; at < counts.length; at += PAD) {
      if ((long) COUNT.getVolatile(counts, at) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Registers {@code arena} as having slabs to free once idle; called before it reads {@link #idle}. */
  synchronized void await(SlabArena arena) {
    waiting.add(arena);
    anyWaiting = true;
  }

  /** Unregisters {@code arena}: it freed all it could. */
  synchronized void done(SlabArena arena) {
    waiting.remove(arena);
    anyWaiting = !waiting.isEmpty();
  }

  private void releaseWaiting() {
    SlabArena[] arenas;
    synchronized (this) {
      arenas = waiting.toArray(new SlabArena[0]);
    }
    for (SlabArena a : arenas) { // outside this monitor: an arena takes its own, then this one
      a.releaseIdleSlabs();
    }
  }
}
