/**
 * SSTables: {@link dev.strata.sstable.TableWriter} writes an immutable sorted table once, {@link
 * dev.strata.sstable.TableReader} answers point lookups through the table's partitioned Bloom filter
 * and iterates it ({@link dev.strata.sstable.TableIterator}), through a {@link
 * dev.strata.sstable.cache.BlockCache} shared by all tables of a database. This root package is the
 * tables' face to the engine: the reader and writer, their options ({@code TableOptions}, {@code
 * TableReadOptions}), what they report ({@code TableProperties}, {@code TableMetadata}, {@code
 * GetResult}, {@code TableReadStats}, {@code ReadCounters}), the footer, and the writer's side of the
 * filter ({@code FilterWriter}, {@code WriteBuffers}). The reader composes package-private parts with
 * one job each: {@code TableFilters} decides whether a Get or a batch's key must look in the table
 * at all (its row range, filter chunks and row-tombstone filter), {@code TableBatch} runs a batch of
 * Gets over one table or a level's tables in stages ({@code getAll}, with its per-thread arrays in
 * {@code BatchScratch}), {@code StoredBlocks} reads a stored block from the file and checks it
 * (checksum, type, compression) before parsing it, {@code TableVerifier} checks a whole table past
 * the cache ({@code verifyChecksums}), {@code KeptEntries} keeps the cache keys and entries of its
 * metadata blocks, and {@code CountingLoader} tells a cache hit from a read. {@code TableFilters}
 * and {@code TableBatch} are functions of the reader's state rather than objects it points to: an
 * object more on the Get's path measured slower at scale (see {@code TableFilters}).
 *
 * <p>The parts it composes sit in packages by concern, as Pebble's {@code sstable/} splits {@code
 * block}, {@code rowblk} and {@code tablefilters} off its reader and writer; each has its own essay:
 *
 * <pre>
 *   dev.strata.sstable            TableReader, TableWriter, TableCursor, Footer, options, results,
 *                                 TableFilters, TableBatch, StoredBlocks, TableVerifier
 *                                 (package-private parts of the reader)
 *     |-- index                   IndexWriter, IndexCursor, IndexSeparators
 *     |-- filter                  FilterIndex, FilterProbe, FilterKeys, FilterChunk, FilterType
 *     |     (index and filter both build on block)
 *     |-- block                   Block, BlockBuilder, BlockCursor, PointSearch, BlockHandle, ids
 *     |-- key                     InternalKey, ValueKind, KeyCodec, EncodedKeys
 *     |-- io                      TableFile, DirectReads, BulkReadahead, BulkBuffers
 *     |-- format                  SstableFormat, Bytes, CorruptTableException, FormatVersionException
 *     `-- cache                   BlockCache, ClockBlockCache (depends on nothing here)
 * </pre>
 *
 * <p>Dependencies point down only, with no cycle between the packages: the root uses all of them;
 * {@code index} and {@code filter} use {@code block}; {@code block} uses {@code key}; {@code block},
 * {@code filter} and the root use the cache's contract; everything uses {@code format}, which uses
 * nothing. {@code SstableFormat} and {@code
 * FORMAT.md} (section 3) specify the bytes.
 *
 * <p>Layering: depends on {@code bloom} (the filter, its hash and {@code Checksums}) and lz4-java; the
 * engine builds on it. Nothing here knows about logs, manifests or levels. Everything in {@code
 * dev.strata.sstable} and its sub-packages is internal to the storage core: public where the next
 * package or the engine needs it, never part of the embedding API, which is {@code
 * dev.strata.engine.Db} alone (API.md).
 *
 * <pre>{@code
 * BlockCache cache = new ClockBlockCache(64 << 20);
 * try (TableWriter w = TableWriter.create(SstableFormat.tablePath(dir, 7), TableOptions.defaults())) {
 *   w.add(new InternalKey(row, column, 42, ValueKind.PUT), value);
 *   w.finish();
 * }
 * try (TableReader t = TableReader.open(SstableFormat.tablePath(dir, 7), 7, cache)) {
 *   GetResult r = t.get(FilterProbe.of(row, column), InternalKey.MAX_SEQUENCE);
 * }
 * }</pre>
 *
 * <p>Concurrency: readers and the cache are thread-safe; writers and iterators belong to one thread.
 */
package dev.strata.sstable;
