/**
 * SSTables and the block cache: {@link dev.strata.sstable.TableWriter} writes an immutable sorted
 * table once, {@link dev.strata.sstable.TableReader} answers point lookups through the table's
 * partitioned Bloom filter and iterates it, and {@link dev.strata.sstable.cache.ClockBlockCache} holds the
 * data, index and filter blocks of all tables of a database. {@link dev.strata.sstable.SstableFormat}
 * and {@code FORMAT.md} (section 3) specify the bytes.
 *
 * <p>Layering: depends on {@code bloom} (the filter, its hash and {@code Checksums}), lz4-java and
 * its own {@code cache} package (the cache's contract: {@code BlockCache}, {@code CachedBlock},
 * {@code HeapCost}), which depends on nothing here; the engine builds on it. Nothing here knows
 * about logs, manifests or levels.
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
