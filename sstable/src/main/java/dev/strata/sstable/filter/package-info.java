/**
 * A table's partitioned filter, read side and keys: {@link dev.strata.sstable.filter.FilterKeys} (the
 * canonical filter keys, {@code 0x01 row}, {@code 0x02 rowLength:u16 row column}, {@code 0x03
 * prefix}, and their hashes), {@link dev.strata.sstable.filter.FilterProbe} (a lookup's hashes,
 * computed once for every table a Get consults), {@link dev.strata.sstable.filter.FilterIndex} (the
 * last filter key and handle of each chunk, pinned by the reader; one binary search finds the one
 * chunk that can hold a key), {@link dev.strata.sstable.filter.FilterChunk} (a chunk as the block
 * cache holds it, a {@code BlockedBloomFilter} queried in place), {@link
 * dev.strata.sstable.filter.FilterType} (what a table's filter holds, a persisted id) and {@link
 * dev.strata.sstable.filter.FilterChunkInfo} (a chunk, for tools).
 *
 * <p>Invariants: writers and probes hash through {@code FilterKeys} only, so the bytes hashed at a
 * probe are exactly the bytes hashed at insert (no false negatives); the tag keeps the row, cell and
 * prefix domains apart and the row length makes cells canonical; chunk payloads start 64-byte
 * aligned; chunks are loaded lazily through the block cache, never pinned at open (DESIGN.md).
 *
 * <p>Layering: depends on {@code bloom}, {@code block}, {@code key}, {@code format} and the cache's
 * contract. The writer side, {@code FilterWriter}, stays in the root package with {@code
 * TableWriter}: it works in the writer's {@code WriteBuffers} and reads its {@code TableOptions}, and
 * Pebble too keeps its table filter writer in {@code sstable/} beside the bloom implementation in a
 * package of its own. The engine uses {@code FilterProbe} and {@code FilterType} (the sstable twin of
 * its public {@code BloomType}); all of it is internal to the storage core, not the embedding API.
 *
 * <pre>{@code
 * FilterProbe probe = FilterProbe.of(row, column);
 * int chunk = filterIndex.find(row, column);          // -1: every chunk ends before the key
 * boolean mayHold = chunk >= 0 && loadChunk(chunk).filter.mightContainHash(probe.cellHash());
 * }</pre>
 *
 * <p>Concurrency: probes, the index and chunks are immutable once built and shared by readers.
 */
package dev.strata.sstable.filter;
