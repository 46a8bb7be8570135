package dev.strata.sstable.block;

import dev.strata.sstable.cache.OffHeapBlock;
import java.nio.file.Path;

/**
 * One thread's search of an off-heap data block where the cache holds it: a Get's hit aims its
 * scratch block at the block's bytes in the slab arena ({@link #aim}) instead of copying them, and
 * the point search reads them there ({@link BlockBytes.Direct}), a dozen cache lines instead of the
 * whole block.
 *
 * <p>Optimistic, like {@link OffHeapBlock#tryCopyTo}: no reference is taken, so the block may be
 * evicted and its slots reused by another block while the search reads them. The invariant: no
 * result of an in-place search is used unless {@link #end}, after the last read of the block's bytes
 * (the search's, and the copy of the value it found), validated that the block was never freed since
 * the view was aimed; the search's reads are all bounds-checked against the block's length and stay
 * in its run of slots in one slab, which no one frees while the section is open, so a torn search
 * reads garbage at worst, never memory outside the arena, and is discarded. A failed validation makes
 * the thread's next aim refuse ({@link #aim} returns false), so the retry copies the block (or misses
 * and reads it) instead of racing again.
 *
 * <p>Only a block whose slots are one run can be read in place; any other is copied as before.
 *
 * <p>Not thread-safe: one per thread, used by its Gets one after another.
 */
final class InPlaceBlock {
  /** Each thread's: a Get searches one data block at a time. */
  private static final ThreadLocal<InPlaceBlock> OF_THREAD = ThreadLocal.withInitial(InPlaceBlock::new);

  private final BlockBytes.Direct bytes = new BlockBytes.Direct();

  /** The block searched, copied from the lookup's view so that later lookups may re-aim that one. */
  private final OffHeapBlock view = new OffHeapBlock();

  /** Whether a section ({@link OffHeapBlock#beginInPlaceRead}) is open. */
  private boolean open;

  /** Set by a failed validation: the next {@link #aim} refuses, so the retry copies. */
  private boolean refuseNext;

  /** The sum of the bytes {@link BlockBytes.Direct#touchLines} read, kept so that the reads are. */
  private int touched;

  static InPlaceBlock ofThread() {
    return OF_THREAD.get();
  }

  /**
   * Aims {@code into} (this thread's scratch block) at {@code cached}'s bytes where they lie, from
   * {@code file} at {@code fileOffset}: false when they cannot be read in place (not one run of
   * slots, the cache closed, the arena's memory not readable here, a retry after a failed
   * validation, or a restart count that shows the block already torn); the caller copies then.
   */
  boolean aim(OffHeapBlock cached, Block into, Path file, long fileOffset) {
    if (refuseNext || !BlockBytes.Direct.supported()) {
      refuseNext = false;
      return false;
    }
    end(); // a search that never reached its validation (it threw): its section is left
    view.aimAs(cached);
    if (!view.beginInPlaceRead(bytes)) {
      return false;
    }
    open = true;
    int length = bytes.length();
    int restarts = length >= 4 ? bytes.u32(length - 4) : -1;
    if (restarts < 0 || restarts > (length - 4) / 4) { // only a torn read: the block was verified
      end();
      refuseNext = false; // the copy validates on its own
      return false;
    }
    touched += bytes.touchLines();
    into.reaimInPlace(this, length, restarts, file, fileOffset);
    return true;
  }

  /** The bytes the search reads. */
  BlockBytes bytes() {
    return bytes;
  }

  /**
   * Ends the search: whether every read since {@link #aim} was of the block's bytes. Call after the
   * last read; the bytes read nothing afterwards.
   */
  boolean end() {
    if (!open) {
      return false;
    }
    open = false;
    boolean valid = view.endInPlaceRead();
    bytes.clear();
    refuseNext = !valid;
    return valid;
  }
}
