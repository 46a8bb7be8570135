package dev.strata.sstable.block;

import dev.strata.sstable.cache.OffHeapBlock;
import java.nio.file.Path;

/**
 * A data block the block cache holds off the heap ({@link OffHeapBlock}), copied back into a
 * {@link Block}: its payload copied out, its restart points read back from the payload's end (the
 * block was verified before it was cached). The copy takes no reference on the block: it is
 * optimistic ({@link OffHeapBlock#tryCopyTo}, validated after), and only when it fails (the block
 * was dropped or replaced while it ran) is it made again under a reference, which fails in turn
 * when the block is gone.
 *
 * <p>Who copies: a Get searches a block in place when it can ({@link InPlaceBlock}), and copies
 * into its thread's scratch array and scratch block otherwise (its slots are not one run, or its
 * in-place search raced an eviction), both reused, so it allocates nothing here. The other readers
 * ({@link BlockCursor}, a batch's lock-step searches) work on a {@code byte[]}: a batch, which
 * holds one block per distinct block of its keys at once, copies into blocks it keeps for the
 * purpose ({@link #toHeapInto});
 * a cursor, which holds its block across calls and so must not depend on a slot eviction may
 * reuse, gets a new array and block. docs/PERFORMANCE.md ("The block cache") gives the measured
 * cost of the copy.
 *
 * <p>Thread-safe: the scratch block is per thread; a reusable block belongs to its caller.
 */
public final class OffHeapCopy {
  /** Payloads larger than this are not kept in a reusable block. */
  private static final int MAX_SCRATCH_BYTES = 256 << 10;

  /** Each thread's scratch block, which a Get's copy re-aims. */
  private static final ThreadLocal<Block> SCRATCH = ThreadLocal.withInitial(OffHeapCopy::reusableBlock);

  /**
   * Each thread's view for the cache's lookups ({@code BlockCache.getIfPresent} with a view): a
   * lookup aims it at the block it finds, which {@link #toHeap} copies out before the thread looks
   * another block up, so one view serves all the thread's lookups and a hit allocates nothing.
   */
  private static final ThreadLocal<OffHeapBlock> VIEW = ThreadLocal.withInitial(OffHeapBlock::new);

  private OffHeapCopy() {}

  /**
   * The block {@code cached} holds, from {@code file} at {@code fileOffset}, on the heap; or null
   * when it was evicted and released before this reader could take a reference (the caller then
   * treats it as a miss). With {@code scratch} the payload goes into this thread's scratch block
   * ({@link #toHeapInto}), valid until the thread's next scratch copy: for a Get, which copies out
   * the value it finds before it reads another block; else into a new array and block. For a Get,
   * when the block's bytes lie in one run of slots, the scratch block is instead laid over them
   * where they are ({@link InPlaceBlock}): no copy, and the search's answer holds only if its
   * validation does ({@link PointSearch#scan} returns {@link PointSearch#STALE} otherwise).
   */
  public static Block toHeap(OffHeapBlock cached, boolean scratch, Path file, long fileOffset) {
    if (scratch) {
      Block into = SCRATCH.get();
      return InPlaceBlock.ofThread().aim(cached, into, file, fileOffset)
          ? into
          : toHeapInto(cached, into, file, fileOffset);
    }
    return ownCopy(cached, BlockType.DATA, file, fileOffset);
  }

  /**
   * Index partition {@code cached} of {@code type} on the heap: copied into {@code into} (a Get's
   * reusable partition of that type, valid until the thread's next partition) when given, else into
   * a block of its own (a batch's or a cursor's, which holds it); null when it was evicted and
   * released before a reference was taken. No search in place: a partition is searched, then its
   * data block read, and a partition copy costs about what a data block's does.
   */
  public static Block partitionToHeap(OffHeapBlock cached, Block into, BlockType type, Path file,
      long fileOffset) {
    int length = cached.length();
    if (into != null && length <= MAX_SCRATCH_BYTES) {
      return toHeapInto(cached, into, file, fileOffset); // keeps its type: a copy only reaims it
    }
    return ownCopy(cached, type, file, fileOffset);
  }

  /**
   * {@code cached}'s bytes in a new array and block of {@code type}: copied optimistically, or under
   * a reference when that copy was torn; null when the block went before a reference was taken.
   */
  private static Block ownCopy(OffHeapBlock cached, BlockType type, Path file, long fileOffset) {
    int length = cached.length();
    byte[] data = new byte[length];
    if (!cached.tryCopyTo(data, 0)) {
      if (!cached.retain()) {
        return null;
      }
      try {
        cached.copyTo(data, 0);
      } finally {
        cached.release();
      }
    }
    return Block.ofVerified(data, length, type, file, fileOffset);
  }

  /**
   * {@link #toHeap} into {@code into}, a block from {@link #reusableBlock} that the caller holds
   * until it copies the next block into it: its array is reused, grown when too small. A batch
   * holds one per distinct block of its keys, and a new array per block copied would make a large
   * off-heap cache's batches the collector's main source of work. A block
   * larger than {@link #MAX_SCRATCH_BYTES} gets a new array and block instead, so that no reusable
   * block keeps a large array.
   */
  public static Block toHeapInto(OffHeapBlock cached, Block into, Path file, long fileOffset) {
    int length = cached.length();
    if (length <= MAX_SCRATCH_BYTES) {
      byte[] bytes = arrayFor(into, length);
      if (cached.tryCopyTo(bytes, 0)) {
        into.reaim(bytes, length, file, fileOffset);
        return into;
      }
    }
    if (!cached.retain()) {
      return null;
    }
    try {
      return copyInto(cached, into, file, fileOffset);
    } finally {
      cached.release();
    }
  }

  /**
   * {@link #toHeapInto} without the fallback, inside a section the caller opened ({@link
   * OffHeapBlock#beginUnreferencedRead}): a batch opens one for each of its blocks, reads the first
   * byte of each ({@link OffHeapBlock#peek}), then copies them. Null when the optimistic copy
   * failed: the caller loads the block through the cache, which finds it again or loads it.
   */
  public static Block copyUnreferenced(OffHeapBlock cached, Block into, Path file, long fileOffset) {
    int length = cached.length();
    if (length > MAX_SCRATCH_BYTES) {
      byte[] data = new byte[length];
      return cached.copyUnreferenced(data, 0) ? Block.ofVerified(data, length, file, fileOffset) : null;
    }
    byte[] bytes = arrayFor(into, length);
    if (!cached.copyUnreferenced(bytes, 0)) {
      return null;
    }
    into.reaim(bytes, length, file, fileOffset);
    return into;
  }

  /** {@link #toHeapInto} of a block the caller holds a reference on ({@link OffHeapBlock#retain}). */
  private static Block copyInto(OffHeapBlock retained, Block into, Path file, long fileOffset) {
    int length = retained.length();
    if (length > MAX_SCRATCH_BYTES) {
      return copied(retained, length, file, fileOffset);
    }
    byte[] bytes = arrayFor(into, length);
    retained.copyTo(bytes, 0);
    into.reaim(bytes, length, file, fileOffset);
    return into;
  }

  /** {@code into}'s array, or a larger one when it holds fewer than {@code length} bytes. */
  private static byte[] arrayFor(Block into, int length) {
    return into.data.length >= length ? into.data : new byte[Math.max(length, 2 * into.data.length)];
  }

  /** This thread's view for a lookup whose block it copies out ({@link #toHeap}) before its next lookup. */
  public static OffHeapBlock lookupView() {
    return VIEW.get();
  }

  /** A block for {@link #toHeapInto} to copy into, empty until then. */
  public static Block reusableBlock() {
    return Block.reusable();
  }

  /**
   * This thread's scratch block, for a Get's cache miss to parse its data block into ({@link
   * Block#parseDataInto}): valid, like a copy into it, until the thread's next scratch copy or load.
   */
  public static Block scratch() {
    return SCRATCH.get();
  }

  /** A new array and block holding {@code cached}'s {@code length} bytes (referenced by the caller). */
  private static Block copied(OffHeapBlock cached, int length, Path file, long fileOffset) {
    byte[] data = new byte[length];
    cached.copyTo(data, 0);
    return Block.ofVerified(data, length, file, fileOffset);
  }
}
