package dev.strata.sstable.cache;

import java.io.IOException;
import java.util.Set;

/**
 * The block cache all tables of a database share: parsed, verified data, index and filter blocks,
 * weighed by what they cost on the heap. {@code dev.strata.sstable.cache.ClockBlockCache} is the
 * implementation.
 *
 * <pre>{@code
 * BlockCache cache = new ClockBlockCache(64 << 20, 16);
 * TableReader t = TableReader.open(path, fileNumber, cache, counters);
 * }</pre>
 *
 * <p>Implementations are thread-safe.
 */
public interface BlockCache {

  /** Reads and verifies one block when the cache does not hold it. */
  @FunctionalInterface
  interface Loader<T extends CachedBlock> {
    /**
     * The block, read from disk and verified; called at most once per miss. A {@link
     * CachedBlock#borrowed} block only for a cache that {@link BlockCache#takesBorrowedBlocks}.
     */
    T load() throws IOException;
  }

  /**
   * The cached block for {@code key}, or the block {@code loader} loads, which is then cached (when it
   * fits). Concurrent calls that miss on the same key load it once: the others wait for that load and
   * share its block. When the load fails, the loader's exception reaches the loading caller and every
   * caller waiting on that load; nothing is cached, and a later call loads again. A key always names
   * blocks of one kind and type.
   */
  <T extends CachedBlock> T getOrLoad(BlockCacheKey key, BlockKind kind, Loader<T> loader)
      throws IOException;

  /**
   * {@link #getOrLoad}, and pins the entry: it stays cached, charged to the cache, never evicted,
   * until a matching {@link #unpin}; pins of one key nest. Pinned entries may take the cache past
   * its capacity (every unpinned entry gives way first), as RocksDB's pinned index and filter
   * blocks do. A cache that cannot pin (the default) caches the block as {@code getOrLoad} does;
   * with capacity 0 nothing is cached or pinned.
   */
  default <T extends CachedBlock> T getOrLoadPinned(BlockCacheKey key, BlockKind kind, Loader<T> loader)
      throws IOException {
    return getOrLoad(key, kind, loader);
  }

  /**
   * Drops one pin of {@code key}'s entry; after the last the entry ages like any other. Nothing
   * for a key that holds no pin.
   */
  default void unpin(BlockCacheKey key) {}

  /**
   * The cached block for {@code key} without loading it, or null: a hit counted as {@link #getOrLoad}
   * counts one, a null counted as nothing (the caller goes on to {@link #getOrLoad}). Lets a reader
   * take a hit without making a loader for it, so a cache hit allocates nothing.
   */
  default <T extends CachedBlock> T getIfPresent(BlockCacheKey key, BlockKind kind) {
    return null;
  }

  /**
   * {@link #getIfPresent(BlockCacheKey, BlockKind)} for the block at {@code offset} of table {@code
   * fileNumber}, without a key object: the Get path's lookup of a data block, whose key it would
   * otherwise make per call. By default makes the key and asks {@code getIfPresent}.
   */
  default <T extends CachedBlock> T getIfPresent(long fileNumber, long offset, BlockKind kind) {
    return getIfPresent(new BlockCacheKey(fileNumber, offset), kind);
  }

  /**
   * {@link #getIfPresent(long, long, BlockKind)}, returning a data block held off the heap as
   * {@code view} (aimed at it, the caller's to reuse once done with the block) rather than as a new
   * view: a hit then allocates nothing. By default ignores {@code view}.
   */
  default <T extends CachedBlock> T getIfPresent(long fileNumber, long offset, BlockKind kind,
      OffHeapBlock view) {
    return getIfPresent(fileNumber, offset, kind);
  }

  /**
   * What a caller may keep to reach an index or filter block again without looking its key up
   * ({@link #entryIfPresent}, {@link #blockOf}): a table reader keeps one per filter chunk and index
   * partition, so the probe of a hot chunk skips the cache's lookup. It holds no block once the cache
   * has let go of it, so keeping it keeps nothing uncharged alive.
   */
  interface Entry {}

  /**
   * {@link #getIfPresent(long, long, BlockKind)} of the blocks at {@code offsets[0, n)} of files
   * {@code fileNumbers[0, n)} (a batch's blocks may lie in several tables of a level), into {@code
   * out[0, n)} (null where absent). A cache may take each lookup's steps for all the blocks before
   * any block's next step, so a batch's lookups wait for their cache misses together.
   */
  default void getAllIfPresent(long[] fileNumbers, long[] offsets, int n, BlockKind kind,
      CachedBlock[] out) {
    for (int k = 0; k < n; k++) {
      out[k] = getIfPresent(fileNumbers[k], offsets[k], kind);
    }
  }

  /**
   * {@link #getAllIfPresent(long[], long[], int, BlockKind, CachedBlock[])}, returning the data
   * block of {@code k} held off the heap as {@code views[k]} (aimed at it) rather than as a new
   * view. By default ignores {@code views}.
   */
  default void getAllIfPresent(long[] fileNumbers, long[] offsets, int n, BlockKind kind,
      CachedBlock[] out, OffHeapBlock[] views) {
    getAllIfPresent(fileNumbers, offsets, n, kind, out);
  }

  /**
   * The entry holding {@code key}'s block, or null: the block is not cached (or still loading), it is
   * a data block (whose off-heap bytes an entry could not guard), or the cache keeps no entries (the
   * default). Counts nothing; read the block with {@link #blockOf}.
   */
  default Entry entryIfPresent(BlockCacheKey key, BlockKind kind) {
    return null;
  }

  /**
   * The block of {@code entry} (from {@link #entryIfPresent} with the same kind), counted and
   * recorded as a hit like {@link #getIfPresent}; or null once the cache has let go of it (evicted,
   * refused, or the cache closed), when the caller looks the key up again. A block read just as it
   * is evicted is still whole: entries hold only index and filter blocks, which live on the heap.
   */
  default <T extends CachedBlock> T blockOf(Entry entry, BlockKind kind) {
    return null;
  }

  /**
   * {@link #blockOf} counting no hit: for a batch, which counts the hits of all its blocks at once
   * ({@link #countHits}). An atomic add per block would fence the batch's reads, each waiting for
   * the one before instead of all of them overlapping.
   */
  default <T extends CachedBlock> T blockOfUncounted(Entry entry) {
    return null;
  }

  /** Counts {@code n} hits of {@code kind} taken with {@link #blockOfUncounted}. */
  default void countHits(BlockKind kind, int n) {}

  /**
   * Reads {@code entry} and the first fields of its block, counting nothing and changing nothing,
   * and returns something computed from what it read (which the caller keeps, so the reads stay).
   * A batch touches the entries of all the blocks it is about to take ({@link #blockOfUncounted})
   * first, so that their cache misses wait together rather than one after the other.
   */
  default int touch(Entry entry) {
    return 0;
  }

  /**
   * Caches {@code block} under {@code key} unless the cache holds (or is loading) a block of that
   * key, counting neither a hit nor a miss: a table writer's metadata, put as it is written ({@code
   * TableWriter.cacheMetadataIn}), so the table's first reads find it. The block must be what a
   * loader of that key would return. Admitted as a loaded block of {@code kind} is, so metadata stays
   * within the cache's metadata share. Nothing by default.
   */
  default <T extends CachedBlock> void put(BlockCacheKey key, BlockKind kind, T block) {}

  /**
   * Drops the cached blocks of the tables numbered in {@code fileNumbers}, whose files were deleted
   * (a compaction's inputs): their memory goes back at once instead of when the cache would have
   * aged them out, which matters for the metadata a table's writer put in ({@link #put}). Blocks a
   * reader pinned stay until it unpins them. Nothing by default.
   */
  default void evictFiles(Set<Long> fileNumbers) {}

  /**
   * Caches data block (fileNumber, offset), which the caller read and checked itself after a miss
   * ({@link #getIfPresent} returned null), unless the cache holds it already or is loading it; counts
   * the miss. The caller goes on with {@code block} whether or not it was kept. No loading entry
   * stands for the read, so concurrent misses of one block may each read it. A {@link
   * CachedBlock#borrowed} block only for a cache that {@link #takesBorrowedBlocks}. By default
   * {@link #put}s the block's {@link CachedBlock#owned} form.
   */
  default void admitData(long fileNumber, long offset, CachedBlock block) {
    admitRead(fileNumber, offset, BlockKind.DATA, block);
  }

  /**
   * {@link #admitData} for a block of any {@code kind}: an index partition a Get read itself is
   * admitted as a loaded one is, within the metadata's priority. By default {@link #put}s the
   * block's {@link CachedBlock#owned} form.
   */
  default void admitRead(long fileNumber, long offset, BlockKind kind, CachedBlock block) {
    put(new BlockCacheKey(fileNumber, offset), kind, block.owned());
  }

  /**
   * Whether a loader may return a {@link CachedBlock#borrowed} block: the cache then copies what it
   * keeps (into its off-heap memory, or {@link CachedBlock#owned}) and gives the waiters of that load
   * its own copy, or has them look again, so the borrowed block reaches the loading caller alone.
   * False by default: the cache keeps and shares what its loaders return.
   */
  default boolean takesBorrowedBlocks() {
    return false;
  }

  /** A snapshot of the counters and the bytes held. */
  CacheStats stats();

  /** The capacity in bytes; 0 means nothing is cached. */
  long capacityBytes();

  /**
   * Drops every block and frees what the cache holds outside the heap; the cache then caches
   * nothing. The database closes its cache when it closes. Nothing by default.
   */
  default void close() {}
}
