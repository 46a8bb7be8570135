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
 * <p>Off the heap. A cache of gigabytes of blocks on the heap costs the collector: G1 copies and
 * marks the live blocks, in pauses that grow with the cache (docs/PERFORMANCE.md). With
 * {@code offHeapData} each shard keeps data blocks' bytes in a {@code SlabArena}: direct buffers of
 * up to 256 KiB, allocated as the shard fills and at most its capacity, cut into 512-byte slots that
 * any block can use (a block takes the slots its length needs, chained by an int link per slot and
 * adjacent where they come from a fresh slab), so there is no fragmentation to manage. The heap
 * holds no object per cached block: its entry (key, first slot, length, reference count, queue
 * links) is a 64-byte stride of primitive arrays in the shard's {@code DataEntries}, found by a
 * key table of its own, so a cache filling with blocks gives the young collections nothing of them
 * to copy. A reader gets an {@code OffHeapBlock}, a view it may reuse from one lookup to the next.
 * {@code strata-bench cacheheap} measures the heap per cached block.
 * Release is deterministic: an off-heap block is reference counted, the cache holds one reference
 * until it evicts the block, a reader that reads it in place takes one, and the last release
 * returns the slots at once. A reader that copies the bytes out takes none: it copies
 * optimistically and checks the block's state after ({@code OffHeapBlock.tryCopyTo}), and only
 * when the block went meanwhile retries under a reference, whose failure counts a miss. Closing the
 * cache frees every slab (through {@code invokeCleaner}, not the collector), a slab still read when
 * its reader is done (an optimistic reader included: {@code SlabReaders}). Index and filter blocks stay on the heap: small, hot, and read in place by
 * every Get. A charge counts the slots and the heap objects together, so the capacity bound covers
 * both.
 *
 * <p>Concurrency: thread-safe; each shard's lock is taken on misses and stats only; an off-heap
 * hit copied out adds two reads of the block's state word and an increment and a decrement of a
 * count striped by thread, and writes nothing another core's hit on the same block reads.
 */
package dev.strata.sstable.cache;
