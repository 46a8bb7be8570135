package dev.strata.engine;

/**
 * How data blocks are compressed when a table is written. A block is stored compressed only when
 * that saves space; the codec of each block is recorded with it, so tables written under different
 * settings stay readable.
 *
 * <p>Immutable.
 */
public enum Compression {
  /** Blocks are stored as written. */
  NONE,
  /** LZ4 block compression, applied per data block when it makes the block smaller. */
  LZ4
}
