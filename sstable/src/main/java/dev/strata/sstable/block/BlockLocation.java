package dev.strata.sstable.block;

/**
 * Where a block lies in a table file, for tools: the payload's offset and length, not counting the
 * 5-byte trailer after it (FORMAT.md, section 3).
 *
 * <p>Immutable.
 */
public record BlockLocation(long offset, int length) {}
