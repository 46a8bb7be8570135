package dev.strata.engine.memtable;

import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.filter.FilterKeys;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The in-memory table that takes every write after the log: internal keys in {@link
 * InternalKey#ORDER} mapped to values, until it is frozen, flushed to a level-0 table and dropped.
 *
 * <p>Entries live in an arena of direct-memory chunks, indexed by a skip list whose nodes are
 * packed in chunks of their own ({@link ArenaSkipList}): an entry costs its bytes, a 16-byte
 * header, about 35 bytes of index node, and no object, so a memtable's budget is spent
 * on data and the garbage collector neither sees millions of objects nor copies the memtable's
 * bytes ({@link MemTableMemory}). {@link #approximateBytes} counts exactly that (entries,
 * headers, index nodes, and the chunk tails no entry can use any more), so a memtable frozen at
 * its budget flushes into a table close to the budget in size.
 *
 * <p><b>Lifetime.</b> The memory goes back to its {@link MemTableMemory} when the last reference
 * is {@link #release released}: the creator holds one, and whoever reads the memtable while
 * another thread may release it holds one of its own ({@link #retain}; the engine's read views
 * do). A memtable never released (a standalone one) leaves its chunks to the collector.
 *
 * <p>Reads never lock: a reader at snapshot {@code s} ignores entries with a sequence above {@code
 * s}; since the engine publishes a sequence number only after its entries are in the table, every
 * entry a reader may see is present for the whole read. Row tombstones are also indexed on their
 * own (they are rare; an object each is fine), so finding the newest one that hides a cell costs one
 * search however many versions the row's empty column has.
 *
 * <p>Once {@link #freeze() frozen} it is immutable: {@link #add} throws. The engine freezes it
 * (under its write lock) only after the last add has returned.
 *
 * <p>Thread-safe: adds are serialized (the engine has one writer at a time anyway); reads run
 * concurrently with them and with each other.
 */
public final class MemTable {

  /** Bytes an entry's header costs in the arena, on top of its row, column and value. */
  public static final int ENTRY_HEADER_BYTES = ArenaEntries.HEADER_BYTES;

  /** Extra memory charged per row tombstone for its entry in the row tombstone index. */
  public static final int ROW_TOMBSTONE_OVERHEAD_BYTES = 64;

  /** The empty column under which row tombstones are stored. */
  private static final byte[] EMPTY = new byte[0];

  private final ArenaSkipList table;

  /** References: the creator's, and one per holder that may outlive it (a read view). */
  private final AtomicInteger refs = new AtomicInteger(1);

  /**
   * The rows of every entry ({@link FilterKeys#rowHash}, the tables' row filter key): a lookup of
   * a row no entry has answers {@link GetResult#ABSENT} without searching the skip list (RocksDB's
   * memtable whole-key filtering). A search costs some 25 key comparisons and, in a memtable of
   * hundreds of thousands of entries, about a microsecond of cache misses; most lookups of a read
   * path are for keys the memtable does not hold.
   *
   * <p>Concurrency: the writer sets an entry's bits before it links the entry, so a reader that
   * can see an entry (through the list's release and acquire, or through the sequence number the
   * engine publishes after the add) sees its bits. Bits are only ever set, so a reader racing
   * with the writer reads every bit set before, in whatever halves a long is read.
   */
  private final BlockedBloomFilter rows;

  /** Hashes the rows {@link #rows} takes; under {@link #writeLock}. */
  private final FilterKeys.RowHasher rowHasher = new FilterKeys.RowHasher();

  /** The DELETE_ROW keys of {@link #table}; they all have the empty column. */
  private final ConcurrentSkipListSet<InternalKey> rowTombstones =
      new ConcurrentSkipListSet<>(InternalKey.ORDER);

  /** Serializes writers; readers never take it. */
  private final Object writeLock = new Object();

  /** Written under {@link #writeLock}, read by anyone. */
  private volatile long rowTombstoneBytes;

  private volatile long entryCount;
  private volatile long smallestSequence = Long.MAX_VALUE;
  private volatile long largestSequence = -1;
  private volatile boolean frozen;

  /**
   * Bytes of an entry {@link #rows} is sized for: a 16-byte key and a 100-byte value cost about
   * 150 with their header and index. Smaller entries raise the false positives (10 bits an entry
   * at 128 bytes, 5 at 64: about 1 % and 8 %); a larger filter misses the processor's caches more
   * often on every put. 64 MiB makes a 640 KiB filter; in a 2M-key fill its hash and bits took
   * under 2 % of the writing thread's time (async-profiler).
   */
  private static final int PLANNED_ENTRY_BYTES = 128;

  /** Bits of {@link #rows} per entry: under 1 % false positives (the tables' default). */
  private static final double FILTER_BITS_PER_ENTRY = 10;

  /**
   * Entries the filter is sized for at most (20 MiB of filter, reached at a budget of 2 GiB): the
   * filter is allocated whole when the memtable is made, and a budget near its bound must not make
   * an array it could never fill. More entries only raise the false positives.
   */
  private static final long MAX_FILTER_ENTRIES = 1L << 24;

  /** The budget a memtable made without one plans its filter for. */
  private static final long DEFAULT_BUDGET_BYTES = 4L << 20;

  /**
   * An empty, writable, standalone memtable planned for {@value #DEFAULT_BUDGET_BYTES} bytes of
   * entries, in memory of its own ({@link MemTableMemory#unpooled()}).
   */
  public MemTable() {
    this(DEFAULT_BUDGET_BYTES);
  }

  /**
   * An empty, writable, standalone memtable whose row filter is sized for {@code budgetBytes},
   * in memory of its own ({@link MemTableMemory#unpooled()}).
   */
  public MemTable(long budgetBytes) {
    this(budgetBytes, MemTableMemory.unpooled());
  }

  /**
   * An empty, writable memtable whose row filter is sized for {@code budgetBytes} (the engine's
   * {@code memtableBytes}) of entries of {@link #PLANNED_ENTRY_BYTES} (more entries only raise its
   * false positives), keeping its entries in {@code memory}.
   */
  public MemTable(long budgetBytes, MemTableMemory memory) {
    rows = BlockedBloomFilter.create(
        Math.min(MAX_FILTER_ENTRIES, Math.max(1, budgetBytes / PLANNED_ENTRY_BYTES)),
        FILTER_BITS_PER_ENTRY);
    table = new ArenaSkipList(Objects.requireNonNull(memory, "memory"));
  }

  /**
   * Takes a reference for a holder that may read the memtable after its creator released it; the
   * caller must hold one already (the creator's, or a view's). Fails fast on a released memtable.
   *
   * @throws IllegalStateException when the memtable's last reference is gone
   */
  public void retain() {
    if (refs.getAndIncrement() <= 0) {
      refs.decrementAndGet();
      throw new IllegalStateException("memtable used after release: " + this);
    }
  }

  /**
   * Drops a reference; the last gives the memtable's memory back, so no reader may use it after
   * that (every reader holds a reference of its own).
   *
   * @throws IllegalStateException when released more often than retained
   */
  public void release() {
    int n = refs.decrementAndGet();
    if (n < 0) {
      throw new IllegalStateException("memtable released too often: " + this);
    }
    if (n == 0) {
      synchronized (writeLock) { // after the last add: a writer never races its own release
        frozen = true;
        table.release();
      }
    }
  }

  /** References held now, for tests and invariant checks. */
  int references() {
    return refs.get();
  }

  /** {@link #add(ValueKind, byte[], byte[], long, byte[])} of an internal key. */
  public void add(InternalKey key, byte[] value) {
    Objects.requireNonNull(key, "key");
    add(key.kind(), key.row(), key.column(), key.sequence(), value);
  }

  /**
   * Adds an entry, copying its bytes. Tombstones carry an empty value, row tombstones the empty
   * column. No two entries of one cell may share a sequence number (the engine gives each mutation
   * its own).
   *
   * @throws IllegalStateException when the memtable is frozen
   */
  public void add(ValueKind kind, byte[] row, byte[] column, long sequence, byte[] value) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(value, "value");
    assert kind == ValueKind.PUT || value.length == 0 : "tombstone with a value: " + kind;
    assert kind != ValueKind.DELETE_ROW || column.length == 0 : "row tombstone with a column";
    assert sequence >= 0 && sequence <= InternalKey.MAX_SEQUENCE : "sequence=" + sequence;
    synchronized (writeLock) {
      if (frozen) {
        throw new IllegalStateException("memtable is frozen");
      }
      insert(kind, row, column, sequence, value);
      // Count last: a reader that sees the count sees the entry (volatile write after insert).
      widenSequences(sequence, sequence);
      entryCount = entryCount + 1;
    }
  }

  /**
   * Adds every entry of {@code group} ({@link SortedGroup#sort sorted}), copying their bytes, as
   * {@link #add} would one by one: in ascending order, so that each insert starts from the splice
   * the one before left, under one acquisition of the write lock and with one update of the count
   * and of the sequence bounds for the whole group.
   *
   * @throws IllegalStateException when the memtable is frozen
   */
  public void addSorted(SortedGroup group) {
    int n = group.size();
    if (n == 0) {
      return;
    }
    synchronized (writeLock) {
      if (frozen) {
        throw new IllegalStateException("memtable is frozen");
      }
      for (int r = 0; r < n; r++) {
        int e = group.entry(r);
        insert(group.kind(e), group.row(e), group.column(e), group.sequence(e), group.value(e));
      }
      widenSequences(group.firstSequence(), group.lastSequence());
      entryCount = entryCount + n; // last: a reader that sees the count sees the entries
    }
  }

  /** Links one entry, under the write lock; the caller counts it after. */
  private void insert(ValueKind kind, byte[] row, byte[] column, long sequence, byte[] value) {
    rows.putHash(rowHasher.hash(row)); // before the entry is linked: see rows
    table.insert(row, column, sequence, kind, value);
    if (kind == ValueKind.DELETE_ROW) {
      rowTombstones.add(new InternalKey(row.clone(), EMPTY, sequence, kind));
      rowTombstoneBytes += ROW_TOMBSTONE_OVERHEAD_BYTES + row.length;
    }
  }

  /**
   * Widens the sequence bounds to [smallest, largest], under the write lock. They are written only
   * when they move: each volatile store is a fence, and a write group sorted by key passes its
   * sequence numbers out of order, so they rarely move.
   */
  private void widenSequences(long smallest, long largest) {
    if (smallest < smallestSequence) {
      smallestSequence = smallest;
    }
    if (largest > largestSequence) {
      largestSequence = largest;
    }
  }

  /**
   * What this memtable knows about the cell (row, column) as of {@code snapshot}: its newest entry
   * with a sequence at most {@code snapshot}, and the row's newest row tombstone at most {@code
   * snapshot}. Either may be absent. The value is a copy out of the arena, the caller's to keep.
   */
  public GetResult get(byte[] row, byte[] column, long snapshot) {
    return get(FilterProbe.of(row, column), snapshot);
  }

  /**
   * {@link #get(byte[], byte[], long)} for {@code probe}'s cell, whose row hash the row filter
   * takes: a Get hashes its key once for the memtables and every table, and only when a memtable
   * has entries (a read-only database's Gets under a ROWCOL filter need the cell hash alone).
   */
  public GetResult get(FilterProbe probe, long snapshot) {
    if (!mayHoldRow(probe)) {
      return GetResult.ABSENT; // no entry of the row: neither the cell nor a row tombstone
    }
    // The first key the lookup may accept: entries of the cell with a larger sequence sort before
    // it; among equal sequences PUT has the smallest kind id, so nothing with that sequence is
    // skipped. Searched by its parts: no search key is encoded, and a miss allocates nothing.
    return answer(probe.row(), probe.column(), snapshot, table.seekCell(probe.row(),
        probe.column(), Math.min(snapshot, InternalKey.MAX_SEQUENCE), ValueKind.PUT));
  }

  /**
   * {@link #get(FilterProbe, long)} for one of a run of lookups in ascending (row, column) order at
   * one snapshot (a batch's), which {@code finger} carries from each to the next: the search starts
   * where the previous one ended ({@link ArenaSkipList#seekCellFrom}).
   *
   * @throws IllegalArgumentException when the finger was aimed at another memtable
   */
  public GetResult get(FilterProbe probe, long snapshot, Finger finger) {
    if (finger.table != this) {
      throw new IllegalArgumentException("finger aimed at another memtable");
    }
    if (!mayHoldRow(probe)) {
      return GetResult.ABSENT; // the finger stays: it precedes this key, so the next one too
    }
    return answer(probe.row(), probe.column(), snapshot, table.seekCellFrom(finger.predecessors,
        probe.row(), probe.column(), Math.min(snapshot, InternalKey.MAX_SEQUENCE), ValueKind.PUT));
  }

  /**
   * False when no entry has {@code probe}'s row: the memtable is empty (the count is written after
   * the entry, so a reader that may see an entry sees the count), or the row filter says so.
   */
  private boolean mayHoldRow(FilterProbe probe) {
    return !isEmpty() && rows.mightContainHash(probe.rowHash());
  }

  /** The lookup's answer, given the first node at or after its search key. */
  private GetResult answer(byte[] row, byte[] column, long snapshot, long node) {
    InternalKey cell = null;
    byte[] value = null;
    if (node != 0) {
      ArenaEntries entries = table.entries();
      long entry = table.entryOf(node);
      if (entries.sameCell(entry, row, column)) {
        cell = entries.key(entry);
        value = cell.kind() == ValueKind.PUT ? entries.value(entry) : null;
      }
    }
    InternalKey tombstone = newestRowTombstone(row, snapshot);
    if (cell == null && tombstone == null) {
      return GetResult.ABSENT;
    }
    return new GetResult(
        cell, value, tombstone == null ? GetResult.NO_ROW_TOMBSTONE : tombstone.sequence());
  }

  /**
   * Where a run of ascending lookups in one memtable stands ({@link #get(byte[], byte[], long,
   * Finger)}): the last node before the previous lookup's key on every level of the skip list.
   * Reusable: {@link #aim} starts a new run.
   *
   * <p>Not thread-safe: one run on one thread at a time.
   */
  public static final class Finger {
    private final long[] predecessors = new long[ArenaSkipList.MAX_HEIGHT];
    private MemTable table;

    /** Starts a run of lookups in {@code table} (null lets go of the last one's). */
    public Finger aim(MemTable table) {
      this.table = table;
      Arrays.fill(predecessors, 0); // the head: before every key
      return this;
    }
  }

  /** The row's newest row tombstone with a sequence at most {@code snapshot}, or null. */
  public InternalKey newestRowTombstone(byte[] row, long snapshot) {
    if (rowTombstones.isEmpty()) {
      return null;
    }
    InternalKey t =
        rowTombstones.ceiling(
            new InternalKey(row, EMPTY, Math.min(snapshot, InternalKey.MAX_SEQUENCE), ValueKind.PUT));
    return t != null && Arrays.equals(t.row(), row) ? t : null;
  }

  /** An iterator over all entries in key order, every version of every cell included. */
  public MemTableIterator iterator() {
    return new MemTableIterator(table);
  }

  /**
   * Memory the entries take: their bytes and headers, the index nodes, the row tombstone index,
   * and the ends of arena chunks no entry fits in any more. Not counted: the unused end of the
   * chunks being filled (at most about 2 MiB, a chunk of entries and one of nodes).
   */
  public long approximateBytes() {
    return table.bytesUsed() + rowTombstoneBytes;
  }

  /** Memory held by the arena's chunks, used or not, the row tombstone index and the row filter. */
  public long bytesHeld() {
    return table.bytesHeld() + rowTombstoneBytes + rows.bitSize() / 8;
  }

  /** The entries added, every version and tombstone counted. */
  public long entryCount() {
    return entryCount;
  }

  /** True when no entry was added. */
  public boolean isEmpty() {
    return entryCount == 0;
  }

  /** The smallest sequence number added, or -1 when empty. */
  public long smallestSequence() {
    return isEmpty() ? -1 : smallestSequence;
  }

  /** The largest sequence number added, or -1 when empty. */
  public long largestSequence() {
    return largestSequence;
  }

  /** Makes the memtable immutable: every later {@link #add} throws. Idempotent. */
  public void freeze() {
    synchronized (writeLock) {
      frozen = true;
    }
  }

  /** True once {@link #freeze()} was called. */
  public boolean isFrozen() {
    return frozen;
  }

  @Override
  public String toString() {
    return "MemTable["
        + entryCount
        + " entries, ~"
        + approximateBytes()
        + " bytes"
        + (frozen ? ", frozen]" : "]");
  }
}
