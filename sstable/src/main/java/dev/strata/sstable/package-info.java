/**
 * SSTables: {@link dev.strata.sstable.TableWriter} writes an immutable sorted table once, {@link
 * dev.strata.sstable.TableReader} answers point lookups through the table's partitioned Bloom filter
 * and iterates it ({@link dev.strata.sstable.TableIterator}), through a {@link
 * dev.strata.sstable.cache.BlockCache} shared by all tables of a database. This root package is the
 * tables' face to the engine: the reader and writer, their options ({@code TableOptions}, {@code
 * TableReadOptions}), what they report ({@code TableProperties}, {@code TableMetadata}, {@code
 * GetResult}, {@code TableReadStats}, {@code ReadCounters}), the footer, and the writer's side of the
 * filter ({@code FilterWriter}, {@code WriteBuffers}). The reader is a facade over package-private
 * parts that each own their state and reach the others only through their methods, as LevelDB's
 * {@code Table} over its {@code FilterBlockReader}, or RocksDB's {@code BlockBasedTable} over its
 * partitioned filter and index readers and {@code BlockFetcher}:
 *
 * <pre>
 *   TableReader     the facade: open, close, get, getAll, mayContain, iterators, layout
 *   TableOpener     the open: footer, properties, filter index and top index checked; what to pin
 *   BlockFetcher    blocks from the file (StoredBlocks checks them) or through the block cache,
 *                   under (file number, offset), counted as hits or reads; off-heap copies; pins
 *   FilterReader    row range, filter index, kept chunk entries, row-tombstone filter: the single
 *                   Get's admission (an Admission) and the batch's, in three stages
 *   IndexReader     top level, partitions (kept entries), locate a key (a Position); a batch's
 *                   partitions found together
 *   PointLookup     a Get's index and data part, searched in place, into a CellLookup
 *   BatchLookup     a batch over one table or a level's tables, stage by stage (BatchCounts holds
 *                   its counts until a stage ends)
 *   TableLayout     where the blocks lie, for tools; TableVerifier checks every block on disk
 *   TableCursor     an iterator's position (TableIterator), over the index and a data block
 * </pre>
 *
 * A Get reads top to bottom: {@code TableReader.get}, {@code FilterReader.admit} (one chunk through
 * the cache), {@code PointLookup.get}, {@code IndexReader.locate} (one partition), {@code
 * BlockFetcher.blockAt} (one data block), {@code PointSearch.scan}.
 *
 * <p>The parts it composes sit in packages by concern, as Pebble's {@code sstable/} splits {@code
 * block}, {@code rowblk} and {@code tablefilters} off its reader and writer; each has its own essay:
 *
 * <pre>
 *   dev.strata.sstable            TableReader and its parts (above), TableWriter, Footer, options,
 *                                 results
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
