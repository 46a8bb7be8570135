/**
 * The block cache, a package of its own (as Pebble's {@code internal/cache}): {@link
 * dev.strata.sstable.cache.ClockBlockCache} implements {@link dev.strata.sstable.cache.BlockCache}
 * for all tables of a database.
 *
 * <p>What it must do, and why. A Get touches one filter chunk per table it consults, at most one
 * index block and one data block, so index and filter blocks are the hottest bytes in the cache and
 * the ones whose loss costs most (a filter chunk miss reads a whole chunk to answer one probe). The
 * cache therefore keeps them above a floor of its capacity that data blocks cannot push them below,
 * lets them compete by use above it, keeps a streaming scan in a probation segment where it cannot
 * flush the working set, serves hits without an exclusive lock so reader threads scale, loads a block
 * once however many readers miss on it together, and charges each entry what it costs on the heap.
 * The class comment of {@code ClockBlockCache} gives the design and its sources; {@code Shard} holds
 * the eviction, {@code Segment} the queues, {@code Node} an entry and its weight.
 *
 * <p>The contract lives here too: {@code BlockCache}, the {@code CachedBlock} it holds, its key,
 * kind and stats types, and {@code HeapCost}, which weighs an entry. They were in {@code
 * dev.strata.sstable} and made this package depend on the table code it serves; moved here, the
 * dependency runs one way only, from the tables to the cache, as Pebble's {@code sstable} imports
 * {@code internal/cache}.
 *
 * <p>Layering: depends on nothing in Strata. It knows blocks only as weighed, immutable values under
 * a (file number, offset) key; it never parses, reads or verifies them (table readers verify a block
 * before they hand it over, and trust it once cached). Another implementation of {@code BlockCache}
 * (the bench module has LRU and Caffeine ones) can be passed to a table reader instead.
 *
 * <p>Concurrency: thread-safe; each shard's lock is taken on misses and stats only.
 */
package dev.strata.sstable.cache;
