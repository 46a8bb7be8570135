/**
 * What the bytes of a table file are, below every part that reads or writes them: {@link
 * dev.strata.sstable.format.SstableFormat} (the grammar of the whole file, its version history and
 * every constant, size and offset, one class as Lucene's {@code XxxFormat}s and Pebble's {@code
 * sstable/table.go} comment), {@link dev.strata.sstable.format.Bytes} (the little-endian and varint
 * codec on plain arrays) and the two ways bytes fail: {@link
 * dev.strata.sstable.format.CorruptTableException} (damaged bytes, always naming the file and the
 * offset) and {@link dev.strata.sstable.format.FormatVersionException} (well-formed bytes of a version
 * this reader does not read).
 *
 * <p>Invariants: readers and writers take every number of the format from {@code SstableFormat},
 * never from a literal; {@code FORMAT.md} (section 3) is the byte-exact specification and this
 * package its summary. The persisted ids of block types and compressions live with the blocks
 * ({@code block}), the filter-key tags with their hashing ({@code filter.FilterKeys}).
 *
 * <p>Layering: the bottom of {@code dev.strata.sstable}; depends on nothing in Strata. Every other
 * table package ({@code key}, {@code block}, {@code index}, {@code filter}, {@code io} and the root)
 * builds on it. Internal to the storage core: the engine uses {@code SstableFormat}'s file names and
 * limits and {@code CorruptTableException} (which it turns into its public {@code
 * CorruptionException}); none of it is part of the embedding API ({@code dev.strata.engine.Db}).
 *
 * <pre>{@code
 * Path p = SstableFormat.tablePath(dir, 7);                 // dir/000007.sst
 * long n = SstableFormat.parseFileNumber("000007.sst");     // 7
 * int length = Bytes.getU32(block, offset);                 // bounds checked by the caller
 * }</pre>
 *
 * <p>Concurrency: constants and stateless codecs; thread-safe.
 */
package dev.strata.sstable.format;
