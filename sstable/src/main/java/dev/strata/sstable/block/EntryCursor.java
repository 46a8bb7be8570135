package dev.strata.sstable.block;

import dev.strata.sstable.key.InternalKey;

/**
 * A position among the entries of an index block, whatever its encoding: {@link BlockCursor} over
 * the blocks of versions 1 to 4, {@link CompactCursor} over the compact blocks of version 5. Either
 * presents each entry as a whole internal key and a 12-byte handle at {@link #valueOffset()} of
 * {@link #block()}.
 *
 * <p>Not thread-safe: one cursor belongs to one thread.
 */
public interface EntryCursor {
  /** Aims the cursor at {@code b}, before its first entry. */
  void reset(Block b);

  /** The block holding the current entry's handle at {@link #valueOffset()}. */
  Block block();

  boolean isValid();

  /** The current entry's key as an internal key, in the first {@link #keyLength()} bytes. */
  byte[] keyBytes();

  int keyLength();

  /** Where the current entry's 12-byte handle lies in {@link #block()}'s bytes. */
  int valueOffset();

  /** Names the current entry uniquely within its block. */
  int entryId();

  void seekToFirst();

  void seekToLast();

  /** Moves to the first entry whose key is {@code >= target}. */
  void seek(InternalKey target);

  void next();

  void prev();
}
