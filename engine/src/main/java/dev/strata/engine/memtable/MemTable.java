package dev.strata.engine.memtable;

import dev.strata.sstable.GetResult;
import dev.strata.sstable.InternalKey;
import dev.strata.sstable.ValueKind;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory table that takes every write after the log: internal keys in {@link
 * InternalKey#ORDER} mapped to values, until it is frozen, flushed to a level-0 table and dropped.
 *
 * <p>Reads never lock: a skip list serves point lookups and ordered iteration while writers add
 * entries. A reader at snapshot {@code s} ignores entries with a sequence above {@code s}; since
 * the engine publishes a sequence number only after its entries are in the table, every entry a
 * reader may see is present for the whole read. Row tombstones are also indexed on their own, so
 * finding the newest one that hides a cell costs one skip-list search however many versions the
 * row's empty column has.
 *
 * <p>Once {@link #freeze() frozen} it is immutable: {@link #add} throws. The engine freezes it
 * (under its write lock) only after the last add has returned.
 *
 * <p>Thread-safe.
 */
public final class MemTable {

  /**
   * Memory charged per entry on top of its row, column and value bytes: the skip-list node and its
   * share of index nodes, the InternalKey object and three array headers, on a 64-bit JVM with
   * compressed pointers.
   */
  public static final int ENTRY_OVERHEAD_BYTES = 112;

  /** Extra memory charged per row tombstone for its entry in the row tombstone index. */
  public static final int ROW_TOMBSTONE_OVERHEAD_BYTES = 48;

  /** The empty column under which row tombstones are stored. */
  private static final byte[] EMPTY = new byte[0];

  private final ConcurrentSkipListMap<InternalKey, byte[]> table =
      new ConcurrentSkipListMap<>(InternalKey.ORDER);

  /** The DELETE_ROW keys of {@link #table}; they all have the empty column. */
  private final ConcurrentSkipListSet<InternalKey> rowTombstones =
      new ConcurrentSkipListSet<>(InternalKey.ORDER);

  private final AtomicLong approximateBytes = new AtomicLong();
  private final AtomicLong entryCount = new AtomicLong();
  private final AtomicLong smallestSequence = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong largestSequence = new AtomicLong(-1);
  private volatile boolean frozen;

  /** An empty, writable memtable. */
  public MemTable() {}

  /**
   * Adds an entry. Tombstones carry an empty value. No two entries of one cell may share a sequence
   * number (the engine gives each mutation its own).
   *
   * @throws IllegalStateException when the memtable is frozen
   */
  public void add(InternalKey key, byte[] value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    if (frozen) {
      throw new IllegalStateException("memtable is frozen");
    }
    assert key.kind() == ValueKind.PUT || value.length == 0 : "tombstone with a value: " + key;
    assert key.kind() != ValueKind.DELETE_ROW || key.column().length == 0
        : "row tombstone with a column: " + key;
    byte[] previous = table.put(key, value);
    assert previous == null : "duplicate internal key " + key;
    long bytes =
        ENTRY_OVERHEAD_BYTES + (long) key.row().length + key.column().length + value.length;
    if (key.kind() == ValueKind.DELETE_ROW) {
      rowTombstones.add(key);
      bytes += ROW_TOMBSTONE_OVERHEAD_BYTES;
    }
    approximateBytes.addAndGet(bytes);
    entryCount.incrementAndGet();
    smallestSequence.accumulateAndGet(key.sequence(), Math::min);
    largestSequence.accumulateAndGet(key.sequence(), Math::max);
  }

  /**
   * What this memtable knows about the cell (row, column) as of {@code snapshot}: its newest entry
   * with a sequence at most {@code snapshot}, and the row's newest row tombstone at most {@code
   * snapshot}. Either may be absent.
   */
  public GetResult get(byte[] row, byte[] column, long snapshot) {
    InternalKey cell = null;
    byte[] value = null;
    Map.Entry<InternalKey, byte[]> e = table.ceilingEntry(seekKey(row, column, snapshot));
    if (e != null
        && Arrays.equals(e.getKey().row(), row)
        && Arrays.equals(e.getKey().column(), column)) {
      cell = e.getKey();
      value = cell.kind() == ValueKind.PUT ? e.getValue() : null;
    }
    InternalKey tombstone = newestRowTombstone(row, snapshot);
    return new GetResult(
        cell, value, tombstone == null ? GetResult.NO_ROW_TOMBSTONE : tombstone.sequence());
  }

  /** The row's newest row tombstone with a sequence at most {@code snapshot}, or null. */
  public InternalKey newestRowTombstone(byte[] row, long snapshot) {
    if (rowTombstones.isEmpty()) {
      return null;
    }
    InternalKey t = rowTombstones.ceiling(seekKey(row, EMPTY, snapshot));
    return t != null && Arrays.equals(t.row(), row) ? t : null;
  }

  /** An iterator over all entries in key order, every version of every cell included. */
  public MemTableIterator iterator() {
    return new MemTableIterator(table);
  }

  /** A read-only view of all entries in key order; weakly consistent while writers add entries. */
  public NavigableMap<InternalKey, byte[]> entries() {
    return Collections.unmodifiableNavigableMap(table);
  }

  /** Memory held, approximately: entry bytes plus {@link #ENTRY_OVERHEAD_BYTES} per entry. */
  public long approximateBytes() {
    return approximateBytes.get();
  }

  /** The entries added, every version and tombstone counted. */
  public long entryCount() {
    return entryCount.get();
  }

  /** True when no entry was added. */
  public boolean isEmpty() {
    return entryCount.get() == 0;
  }

  /** The smallest sequence number added, or -1 when empty. */
  public long smallestSequence() {
    return isEmpty() ? -1 : smallestSequence.get();
  }

  /** The largest sequence number added, or -1 when empty. */
  public long largestSequence() {
    return largestSequence.get();
  }

  /** Makes the memtable immutable: every later {@link #add} throws. Idempotent. */
  public void freeze() {
    frozen = true;
  }

  /** True once {@link #freeze()} was called. */
  public boolean isFrozen() {
    return frozen;
  }

  @Override
  public String toString() {
    return "MemTable["
        + entryCount.get()
        + " entries, ~"
        + approximateBytes.get()
        + " bytes"
        + (frozen ? ", frozen]" : "]");
  }

  /**
   * The first key a lookup of (row, column) at {@code snapshot} may accept: entries of the cell
   * with a larger sequence sort before it; among equal sequences, PUT has the smallest kind id, so
   * nothing with that sequence is skipped.
   */
  private static InternalKey seekKey(byte[] row, byte[] column, long snapshot) {
    return new InternalKey(
        row, column, Math.min(snapshot, InternalKey.MAX_SEQUENCE), ValueKind.PUT);
  }
}
