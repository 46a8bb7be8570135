package dev.strata.sstable.filter;

import dev.strata.sstable.block.BlockLocation;

/**
 * One filter chunk of a table, for tools: where it lies and the last filter key it covers (a row,
 * and under {@code ROWCOL} a column; the chunk covers every filter key after the previous chunk's
 * last key up to this one).
 *
 * <p>Immutable (the arrays are copies).
 */
public record FilterChunkInfo(BlockLocation location, byte[] lastRow, byte[] lastColumn) {}
