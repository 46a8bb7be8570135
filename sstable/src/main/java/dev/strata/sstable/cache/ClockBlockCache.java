package dev.strata.sstable.cache;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;

/**
 * The block cache: sharded, bounded by what its entries cost on the heap, with a priority floor for
 * index and filter blocks, a probation segment against scans, lock-free hits and single-flight misses.
 *
 * <pre>{@code
 * BlockCache cache = new ClockBlockCache(64 << 20);
 * TableReader t = TableReader.open(path, fileNumber, cache, counters);
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class ClockBlockCache implements BlockCache {
  /*
   * Design.
   *
   * Sharding. A key is hashed to one of N shards, each owning capacity/N bytes (the remainder spread
   * over the first shards) and one lock. The lock guards eviction and the segment queues; it is never
   * taken on a hit.
   *
   * Hits. Each shard keeps a NodeTable from key to node, read without a lock and keyed by two longs,
   * so a lookup allocates no key. A hit is a table read, a volatile read of the node's block and,
   * while the node's frequency is below 3, one racy volatile write raising it: CLOCK's reference
   * bit widened to S3-FIFO's two-bit counter [1]. Hits on a hot block stop
   * writing once its counter saturates, so readers of the same blocks do not bounce a cache line, and
   * nothing on the hit path is exclusive. Lost updates only blur a hint.
   *
   * Segments. Under the lock a shard keeps three FIFO queues:
   *   metadata  index and filter blocks, up to METADATA_SHARE of the shard;
   *   (ghost)   fingerprints of data blocks recently evicted from probation (class Ghost);
   *   probation new data blocks, PROBATION_SHARE of the shard [1];
   *   main      data blocks hit while on probation, and metadata beyond its share.
   * To make room the clock takes the probation head while probation is over its share (a block hit
   * there moves to main, one never hit leaves its fingerprint in the ghost and goes: a scan streams
   * through probation without touching main; a block missed again while its ghost remains enters
   * main directly), else the main head (a block whose counter is above 0 gets another lap with the
   * counter lowered, one at 0 leaves), else, for a metadata block only, the metadata head.
   *
   * The metadata floor. Metadata enters its own segment and never competes with data while it stays
   * within its share. Beyond the share the coldest metadata node (by the same clock) moves to main,
   * where it ages by use like any data block; a metadata node hit again in main goes back to the
   * metadata segment. So the share is a floor, not a ceiling: a burst of data blocks can push
   * metadata down to its share and no further (a data block that would fit only below the floor is
   * returned uncached), and metadata above it survives as long as it is used.
   * This is RocksDB's high-priority pool, whose overflow is demoted into the normal LRU rather than
   * evicted [2].
   *
   * No self-eviction. Room is made before a node is queued, so the new node is never the victim; a
   * block costing more than its whole shard is returned to its caller and not cached.
   *
   * Pins. A pinned node (getOrLoadPinned, for the index and filter blocks of the tables a database
   * pins) leaves the clock for a fourth queue the hand never visits, keeping its charge; every other
   * node gives way to it, and pinned nodes alone may take a shard past its capacity, as RocksDB's
   * cache does without a strict capacity limit. Its last unpin puts it back in the clock (metadata
   * into its segment), and the shard sheds what it then holds over capacity.
   *
   * Entries. A node is the entry a reader may keep (BlockCache.Entry) for an index or filter block:
   * its block field is cleared when the shard lets go of it, so a kept node says "evicted" and keeps
   * no block alive. Hits through it touch and count as table hits do.
   *
   * Single flight. A miss puts a loading node in the table under the shard's lock, after looking
   * again there (the lock-free lookup may miss a node while the table doubles); concurrent misses
   * of the same key find it and wait on its future instead of loading [3]. A failed load removes the
   * node and completes the future with the loader's exception, which every waiter throws too; nothing
   * is cached and the next call loads again. Blocks a reader read itself (admitRead) skip this.
   *
   * Weights. An entry costs its block's heap bytes (CachedBlock.sizeBytes) plus Node.ENTRY_BYTES for
   * the node and its table slots, or for an off-heap block its slots plus DataEntries.ENTRY_BYTES;
   * the ghost's array and, off the heap, the slab arena's slot links (4 bytes per 512-byte slot, in
   * its slabs) are charged to their shard up front; the bound holds for that total.
   *
   * Off-heap data blocks (offHeapData). Each shard then owns a SlabArena of its capacity, and a
   * loaded data block is admitted as an entry of the shard's DataEntries: its bytes copied into the
   * arena's slots, its key, first slot, length, reference count and queue links stored in primitive
   * arrays, and its loading node dropped from the NodeTable once the entry is found by lookups. So
   * the heap holds no object per off-heap block: a cache filling with a million blocks leaves the
   * young collections nothing of them to copy or promote (each node made to load a block dies
   * young). Index partitions a reader read itself (admitRead) go off the heap too, flagged
   * metadata, in a metadata queue; filter chunks, one-level indexes and pinned blocks stay on the
   * heap. Data and index lookups look in DataEntries first and return an OffHeapBlock, a view the
   * reader may reuse and copies out (a Get's partition into its thread's); a reader checks its
   * flag, as a block of the other kind means a damaged handle. The entries' own queues merge with
   * the segments of the same name (ShardClock), so the clock treats a block alike on and off the
   * heap. Its charge is its slots and entry, so the shard's bound covers heap and direct memory,
   * and the arena (sized to the shard) has a slot for every charged byte. Room is made before the
   * copy, so the copy finds the slots the evictions freed; it fails only while readers still hold
   * evicted blocks, and the block then stays on the heap in its node. The cache holds one reference
   * to each off-heap block and drops it when the block leaves (evict, refused, close); readers in
   * place take their own, so a slot is reused only once no such reader uses it, and an entry number
   * only once its last reference went (a new generation, which a stale view's retain, or its
   * optimistic copy's validation, refuses: OffHeapBlock). A load's waiters share its block, but for
   * a borrowed one (CachedBlock.borrowed, its caller's alone): they get the cache's copy, or look again.
   *
   * [1] Yang et al., "FIFO queues are all you need for cache eviction" (S3-FIFO), SOSP 2023.
   * [2] RocksDB LRUCache: high_pri_pool_ratio; entries beyond the pool move to the low-priority list.
   * [3] Caffeine's computeIfAbsent: one load per key, concurrent callers wait for it.
   */

  /**
   * The share of each shard below which index and filter blocks never give way to data blocks
   * (chosen with {@code strata-bench cachesim}; docs/PERFORMANCE.md has its runs).
   */
  public static final double METADATA_SHARE = 0.9;

  /** The share of each shard that new data blocks wait in before they are promoted. */
  public static final double PROBATION_SHARE = 0.1;

  /** The shard count {@link #ClockBlockCache(long)} uses. */
  public static final int DEFAULT_SHARDS = 16;

  /** The most shards a cache may have. */
  public static final int MAX_SHARDS = 1024;

  /** The cache's own cost per entry, charged on top of the block's heap bytes. */
  public static final int ENTRY_BYTES = Node.ENTRY_BYTES;

  private final long capacity;
  private final boolean offHeapData;
  private final Shard[] shards;
  private final CacheCounters counters = new CacheCounters();

  /** A cache of {@code capacityBytes} in {@link #DEFAULT_SHARDS} shards. */
  public ClockBlockCache(long capacityBytes) {
    this(capacityBytes, DEFAULT_SHARDS);
  }

  /** A cache of {@code capacityBytes} in {@code shardCount} shards, with the default shares. */
  public ClockBlockCache(long capacityBytes, int shardCount) {
    this(capacityBytes, shardCount, METADATA_SHARE);
  }

  /**
   * A cache of {@code capacityBytes} (0 disables caching: every call runs its loader) in {@code
   * shardCount} shards, keeping index and filter blocks against data blocks up to {@code
   * metadataShare} of each shard.
   */
  public ClockBlockCache(long capacityBytes, int shardCount, double metadataShare) {
    this(capacityBytes, shardCount, metadataShare, false);
  }

  /**
   * A cache of {@code capacityBytes} in {@code shardCount} shards, with the default shares, holding
   * data blocks off the heap when {@code offHeapData}: in direct-memory slabs of up to 256 KiB that
   * {@link #close} frees.
   */
  public ClockBlockCache(long capacityBytes, int shardCount, boolean offHeapData) {
    this(capacityBytes, shardCount, METADATA_SHARE, offHeapData);
  }

  /**
   * A cache of {@code capacityBytes} (0 disables caching: every call runs its loader) in {@code
   * shardCount} shards, keeping index and filter blocks against data blocks up to {@code
   * metadataShare} of each shard, and data blocks off the heap when {@code offHeapData} (see {@link
   * OffHeapBlock}).
   */
  public ClockBlockCache(long capacityBytes, int shardCount, double metadataShare, boolean offHeapData) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("capacityBytes must be >= 0: " + capacityBytes);
    }
    if (shardCount < 1 || shardCount > MAX_SHARDS) {
      throw new IllegalArgumentException("shardCount must be in [1, " + MAX_SHARDS + "]: " + shardCount);
    }
    if (!(metadataShare >= 0 && metadataShare <= 1)) {
      throw new IllegalArgumentException("metadataShare must be in [0, 1]: " + metadataShare);
    }
    this.capacity = capacityBytes;
    this.offHeapData = offHeapData && capacityBytes > 0;
    this.shards = new Shard[shardCount];
    for (int i = 0; i < shardCount; i++) {
      long share = capacityBytes / shardCount + (i < capacityBytes % shardCount ? 1 : 0);
      shards[i] = new Shard(share, metadataShare, PROBATION_SHARE, counters, this.offHeapData);
    }
  }

  /** Whether data blocks are held off the heap. */
  public boolean offHeapData() {
    return offHeapData;
  }

  /** Direct memory the cache's slabs hold now (0 when it keeps everything on the heap). */
  public long offHeapReservedBytes() {
    long sum = 0;
    for (Shard s : shards) {
      sum += s.offHeapReservedBytes();
    }
    return sum;
  }

  /**
   * Empties the cache and frees its slabs: each at once, or, if a reader still copies from one of its
   * slots, when that reader is done. The cache then caches nothing (loads still run). Idempotent.
   */
  @Override
  public void close() {
    for (Shard s : shards) {
      s.close();
    }
  }

  /** Yes: see {@link Shard#admitLoaded}. */
  @Override
  public boolean takesBorrowedBlocks() {
    return true;
  }

  @Override
  public long capacityBytes() {
    return capacity;
  }

  @Override
  public <T extends CachedBlock> T getOrLoad(BlockCacheKey key, BlockKind kind, Loader<T> loader)
      throws IOException {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(kind, "kind");
    if (capacity == 0) {
      counters.miss(kind);
      return Objects.requireNonNull(loader.load(), "loader returned null");
    }
    long hash = key.mixedHash();
    Shard shard = shardOf(hash);
    OffHeapBlock offHeap =
        kind != BlockKind.FILTER ? shard.offHeapHit(key.fileNumber(), key.offset(), hash, null) : null;
    if (offHeap != null) {
      counters.hit(kind);
      return cast(offHeap);
    }
    Node n = shard.table.get(key.fileNumber(), key.offset(), hash);
    if (n == null) {
      Node mine = new Node(key.fileNumber(), key.offset(), kind);
      Object found = shard.putIfAbsent(mine, hash); // the lock-free lookups can miss: see NodeTable
      if (found == null) {
        return shard.load(mine, loader);
      }
      if (found instanceof OffHeapBlock held) {
        // Of another kind than asked only under a damaged handle: the reader checks the block's
        // kind and reports it (an off-heap block is a data block or an index partition).
        held.touch();
        counters.hit(kind);
        return cast(held);
      }
      n = (Node) found;
    }
    CachedBlock block = n.block;
    if (block == null) {
      block = n.await();
      if (block == null) {
        // Let go of (evicted or refused) between the lookup and the read: look it up again.
        return getOrLoad(key, kind, loader);
      }
    }
    n.touch();
    counters.hit(kind);
    return cast(block);
  }

  @Override
  public <T extends CachedBlock> void put(BlockCacheKey key, BlockKind kind, T block) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(block, "block");
    if (capacity > 0) {
      long hash = key.mixedHash();
      shardOf(hash).admitRead(key.fileNumber(), key.offset(), hash, kind, block);
    }
  }

  /** {@inheritDoc} Makes no key; a block kept off the heap, no node either. */
  @Override
  public void admitRead(long fileNumber, long offset, BlockKind kind, CachedBlock block) {
    counters.miss(kind);
    if (capacity > 0) {
      long hash = BlockCacheKey.mixedHash(fileNumber, offset);
      shardOf(hash).admitRead(fileNumber, offset, hash, kind, block);
    }
  }

  @Override
  public void evictFiles(Set<Long> fileNumbers) {
    if (capacity == 0 || fileNumbers.isEmpty()) {
      return;
    }
    for (Shard s : shards) {
      s.dropFiles(fileNumbers);
    }
  }

  @Override
  public <T extends CachedBlock> T getOrLoadPinned(BlockCacheKey key, BlockKind kind, Loader<T> loader)
      throws IOException {
    while (true) {
      T block = getOrLoad(key, kind, loader);
      if (capacity == 0) {
        return block;
      }
      CachedBlock pinned = shardOf(key.mixedHash()).pin(key, kind, block);
      if (pinned != null) {
        return cast(pinned);
      }
      // Evicted since, and another caller's load of it is in flight: wait for that one, pin again.
    }
  }

  @Override
  public void unpin(BlockCacheKey key) {
    Objects.requireNonNull(key, "key");
    if (capacity > 0) {
      shardOf(key.mixedHash()).unpin(key);
    }
  }

  @Override
  public <T extends CachedBlock> T getIfPresent(BlockCacheKey key, BlockKind kind) {
    Objects.requireNonNull(key, "key");
    return getIfPresent(key.fileNumber(), key.offset(), kind);
  }

  /**
   * {@inheritDoc} Makes no key: the key is looked up as two longs. A data block held off the heap
   * is returned as a new view; {@link #getIfPresent(long, long, BlockKind, OffHeapBlock)} reuses
   * the caller's and so allocates nothing.
   */
  @Override
  public <T extends CachedBlock> T getIfPresent(long fileNumber, long offset, BlockKind kind) {
    return getIfPresent(fileNumber, offset, kind, null);
  }

  /** {@inheritDoc} Allocates nothing when {@code view} is given. */
  @Override
  public <T extends CachedBlock> T getIfPresent(long fileNumber, long offset, BlockKind kind,
      OffHeapBlock view) {
    Objects.requireNonNull(kind, "kind");
    if (capacity == 0) {
      return null;
    }
    long hash = BlockCacheKey.mixedHash(fileNumber, offset);
    Shard shard = shardOf(hash);
    if (kind != BlockKind.FILTER) {
      OffHeapBlock held = shard.offHeapHit(fileNumber, offset, hash, view);
      if (held != null) {
        counters.hit(kind);
        return cast(held);
      }
    }
    Node n = shard.table.get(fileNumber, offset, hash);
    CachedBlock block = n == null ? null : n.block;
    if (block == null) {
      return null; // absent, or being loaded: getOrLoad waits for it
    }
    n.touch();
    counters.hit(kind);
    return cast(block);
  }

  @Override
  public void getAllIfPresent(long[] fileNumbers, long[] offsets, int n, BlockKind kind,
      CachedBlock[] out) {
    getAllIfPresent(fileNumbers, offsets, n, kind, out, null);
  }

  /**
   * {@inheritDoc} With {@code views}, in two passes over the blocks: each block's buckets first
   * (kept in {@code views[k]}), then each chain walked and its block taken. A lookup is a chain of
   * dependent loads (bucket slot, entry or node, block), each of which may miss the processor's
   * caches; the loads of one pass depend on nothing of the same pass, so their misses are in flight
   * together. Allocates nothing when {@code views} is given.
   */
  @Override
  public void getAllIfPresent(long[] fileNumbers, long[] offsets, int n, BlockKind kind,
      CachedBlock[] out, OffHeapBlock[] views) {
    Objects.requireNonNull(kind, "kind");
    Objects.checkFromIndexSize(0, n, Math.min(Math.min(fileNumbers.length, offsets.length), out.length));
    if (capacity == 0) {
      Arrays.fill(out, 0, n, null);
      return;
    }
    boolean offHeap = offHeapData && kind != BlockKind.FILTER;
    for (int k = 0; views != null && k < n; k++) {
      long hash = BlockCacheKey.mixedHash(fileNumbers[k], offsets[k]);
      Shard shard = shardOf(hash);
      views[k].stash(offHeap ? shard.offHeapEntries().head(hash) : DataEntries.NONE, shard.table.head(hash));
    }
    int hits = 0;
    for (int k = 0; k < n; k++) {
      long hash = BlockCacheKey.mixedHash(fileNumbers[k], offsets[k]);
      Shard shard = shardOf(hash);
      OffHeapBlock view = views == null ? null : views[k];
      CachedBlock block = offHeap ? shard.offHeapHitFrom(fileNumbers[k], offsets[k], hash, view) : null;
      if (block == null) {
        Node node = view != null
            ? NodeTable.find(view.stashedNode(), fileNumbers[k], offsets[k])
            : shard.table.get(fileNumbers[k], offsets[k], hash);
        block = node == null ? null : node.block;
        if (block != null) {
          node.touch();
        }
      }
      if (view != null) {
        view.dropStashedNode(); // keeps no node reachable; an aimed view keeps its entry
      }
      hits += block == null ? 0 : 1;
      out[k] = block; // absent, or being loaded: the caller's getOrLoad waits for it
    }
    counters.hits(kind, hits);
  }

  @Override
  public Entry entryIfPresent(BlockCacheKey key, BlockKind kind) {
    Objects.requireNonNull(key, "key");
    if (capacity == 0 || !kind.isProtected()) {
      return null; // a data block may live off the heap: its readers must take a reference
    }
    long hash = key.mixedHash();
    Node n = shardOf(hash).table.get(key.fileNumber(), key.offset(), hash);
    return n == null || n.block == null ? null : n;
  }

  @Override
  public int touch(Entry entry) {
    CachedBlock block = ((Node) entry).block;
    return block == null ? 0 : block.sizeBytes();
  }

  @Override
  public <T extends CachedBlock> T blockOf(Entry entry, BlockKind kind) {
    T block = blockOfUncounted(entry);
    if (block != null) {
      counters.hit(kind);
    }
    return block;
  }

  @Override
  public <T extends CachedBlock> T blockOfUncounted(Entry entry) {
    Node n = (Node) entry;
    CachedBlock block = n.block; // null once the shard dropped it: see Shard.drop
    if (block == null) {
      return null;
    }
    n.touch();
    return cast(block);
  }

  @Override
  public void countHits(BlockKind kind, int n) {
    counters.hits(kind, n);
  }

  private Shard shardOf(long hash) {
    return shards[(int) (((hash >>> 32) * shards.length) >>> 32)];
  }

  @Override
  public CacheStats stats() {
    long bytes = 0;
    long blocks = 0;
    long metadata = 0;
    long pinned = 0;
    for (Shard s : shards) {
      long[] held = s.held();
      bytes += held[0];
      blocks += held[1];
      metadata += held[2];
      pinned += held[3];
    }
    return counters.snapshot(capacity, bytes, blocks, metadata, pinned);
  }

  /** The direct bytes of the slabs' slot links, charged up front with the shards' fixed bytes; for tests. */
  long offHeapLinkBytes() {
    return Arrays.stream(shards).mapToLong(Shard::linkBytes).sum();
  }

  /** Checks every shard's accounting and bounds; throws on a violation. For tests. */
  void checkInvariants() {
    for (Shard s : shards) {
      s.checkInvariants();
    }
  }

  /** The bytes held below the metadata floor, over all shards; for tests. */
  long metadataSegmentBytes() {
    long sum = 0;
    for (Shard s : shards) {
      sum += s.metadataSegmentBytes();
    }
    return sum;
  }

  @SuppressWarnings("unchecked") // a key always names blocks of one kind: its loaders return one type
  private static <T extends CachedBlock> T cast(CachedBlock b) {
    return (T) b;
  }
}
