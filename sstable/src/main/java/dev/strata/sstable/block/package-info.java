/**
 * Blocks, the unit a table is read, verified, cached and compressed in (Pebble's {@code
 * sstable/block} and {@code rowblk}): {@link dev.strata.sstable.block.BlockBuilder} writes the
 * prefix-compressed entries and restart points of a data, index or filter-index block; {@link
 * dev.strata.sstable.block.Block#parse} checks every varint, length and restart point of one before
 * anything reads it; {@link dev.strata.sstable.block.BlockCursor} walks and seeks a parsed block;
 * {@link dev.strata.sstable.block.PointSearch} does a Get's index and data block searches on the
 * bytes in place. {@link dev.strata.sstable.block.BlockHandle} says where a block lies (and {@link
 * dev.strata.sstable.block.BlockLocation} says so to tools), {@link
 * dev.strata.sstable.block.BlockType} and {@link dev.strata.sstable.block.BlockCompression} are the
 * persisted ids in every block trailer's type byte, and {@link
 * dev.strata.sstable.block.Lz4Decompressor} decompresses LZ4, in plain Java ({@link
 * dev.strata.sstable.block.Lz4BlockDecoder}) until lz4-java's native decoder has loaded.
 *
 * <p>Format ({@code SstableFormat} has the grammar): {@code Block := payload type:u8 crc:u32}, the
 * type byte {@code blockType.id << 4 | compression.id} ({@link
 * dev.strata.sstable.block.BlockType#trailerType}); {@code Entries := Entry* restart:u32[n] n:u32}.
 * Invariants: a block is verified (checksum, then {@code parse}) before it is cached or read, so
 * cursors and searches over it only {@code assert}; a {@code Block} is immutable once parsed (but for
 * each thread's scratch block) and is what the block cache holds for data, index and filter-index
 * blocks, except a data block a cache holds off the heap: the cache keeps its payload in its slabs,
 * and {@link dev.strata.sstable.block.OffHeapCopy} gives back a {@code Block} over a copy, its
 * restart points read from the payload's end.
 *
 * <p>Layering: depends on {@code format}, {@code key} and the cache's contract ({@code
 * cache.CachedBlock}, {@code cache.HeapCost}, {@code cache.OffHeapBlock}); {@code index},
 * {@code filter} and the root build on it. It knows nothing of files, filters or what an index entry means. Internal to the storage
 * core: public only so that those neighbours (and {@code Lz4Decompressor} for the engine's open,
 * {@code BlockCompression} for its options) can reach it; not part of the embedding API.
 *
 * <pre>{@code
 * BlockBuilder b = new BlockBuilder(SstableFormat.DATA_RESTART_INTERVAL);
 * b.add(key, keyLength, value, 0, value.length);
 * byte[] payload = b.finish();
 * Block block = Block.parse(payload, payload.length, BlockType.DATA, file, offset);
 * BlockCursor c = new BlockCursor();
 * c.reset(block);
 * c.seek(target);
 * }</pre>
 *
 * <p>Concurrency: parsed blocks, handles and ids are immutable and shared; builders, cursors and
 * searches belong to one thread.
 */
package dev.strata.sstable.block;
