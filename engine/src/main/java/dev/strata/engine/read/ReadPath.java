package dev.strata.engine.read;

import dev.strata.engine.Cell;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.CellLookup;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * DESIGN.md's read path over one {@link ReadView} at one snapshot: which sources a read consults,
 * in which order, and when it stops.
 *
 * <ul>
 *   <li>A point read asks the memtables newest first, then the tables that may hold the row, in
 *       the order of {@link dev.strata.engine.version.Version#runCount}; each table checks its row
 *       range and its filter chunk before it touches an index or data block. The first source whose
 *       {@link Verdict} is not UNKNOWN decides.
 *   <li>A row read merges the memtables with those tables whose row filter admits the row.
 *   <li>A scan merges every source; filters cannot help a range.
 * </ul>
 *
 * <p>Thread-safe (stateless); the caller holds a reference on the view.
 */
public final class ReadPath {
  private static final byte[] EMPTY = new byte[0];

  /**
   * Each thread's probe and table lookup holder for {@link #get}, reused by every Get: a Get runs
   * on one thread and calls no other Get, so one of each per thread serves them all, and a Get
   * allocates neither.
   */
  private static final ThreadLocal<GetScratch> SCRATCH = ThreadLocal.withInitial(GetScratch::new);

  /** See {@link #SCRATCH}. */
  private static final class GetScratch {
    final FilterProbe probe = FilterProbe.reusable();
    final CellLookup found = new CellLookup();
  }

  private ReadPath() {}

  /** The value of cell (row, column) as of {@code snapshot}, or null when absent or deleted. */
  public static byte[] get(ReadView view, long snapshot, byte[] row, byte[] column)
      throws IOException {
    GetScratch scratch = SCRATCH.get();
    // Hashed once, for the memtables' row filters and every table's filter.
    FilterProbe probe = scratch.probe.aim(row, column);
    GetResult r = askMemTables(view, probe, snapshot, null);
    if (r != null) {
      return Verdict.of(r) == Verdict.FOUND ? r.value() : null; // the memtable's copy, ours to hand out
    }
    CellLookup found = scratch.found;
    // Version.runCount's order, walked in place: a Get makes no list.
    Version version = view.version();
    int wasted = 0; // level-0 tables searched that did not decide: see WastedReads
    for (int run = 0; run < version.runCount(); run++) {
      TableRef t = version.tableInRun(run, row);
      if (t == null) {
        continue;
      }
      t.get(probe, snapshot, found);
      Verdict verdict = Verdict.of(found);
      if (verdict != Verdict.UNKNOWN) {
        view.levelZeroReads().charge(wasted);
        return verdict == Verdict.FOUND ? found.takeValue() : null; // a fresh copy from the block
      }
      if (run < version.levelZeroRuns() && found.didSearchBlocks()) {
        wasted++;
      }
    }
    view.levelZeroReads().charge(wasted);
    return null;
  }

  /**
   * The memtables' word on {@code probe}'s cell as of {@code snapshot}, asked newest first (the
   * mutable one, then the frozen ones): the first result that decides, or null when none does. With
   * {@code fingers} (the mutable memtable's first, then the frozen ones'), each search starts where
   * the finger's last ended: a batch asks its keys in order.
   */
  static GetResult askMemTables(
      ReadView view, FilterProbe probe, long snapshot, MemTable.Finger[] fingers) {
    GetResult r =
        fingers == null
            ? view.mutable().get(probe, snapshot)
            : view.mutable().get(probe, snapshot, fingers[0]);
    if (Verdict.of(r) != Verdict.UNKNOWN) {
      return r;
    }
    List<MemTable> frozen = view.frozen();
    for (int m = 0; m < frozen.size(); m++) {
      r =
          fingers == null
              ? frozen.get(m).get(probe, snapshot)
              : frozen.get(m).get(probe, snapshot, fingers[1 + m]);
      if (Verdict.of(r) != Verdict.UNKNOWN) {
        return r;
      }
    }
    return null;
  }

  /**
   * False only when (row, column) is certainly absent as of {@code snapshot}: the memtables' newest
   * word on it is a delete, or none knows it and every table that may hold its row is excluded by
   * its range or filter. Reads filter chunks at most, never an index or data block (RocksDB's
   * keyMayExist).
   */
  public static boolean mayContain(ReadView view, long snapshot, byte[] row, byte[] column)
      throws IOException {
    FilterProbe probe = FilterProbe.of(row, column);
    GetResult r = askMemTables(view, probe, snapshot, null);
    if (r != null) {
      return Verdict.of(r) == Verdict.FOUND;
    }
    for (TableRef t : view.version().tablesForRow(row)) {
      if (t.mayContain(probe)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The live columns of {@code row} as of {@code snapshot}, column to value in unsigned byte order:
   * a scan of the row over the sources that may hold it ({@link #rowSources}). Takes over the
   * caller's reference on {@code view} and releases it before returning; the scan is registered in
   * {@code readers} while it runs.
   */
  public static NavigableMap<byte[], byte[]> getRow(
      ReadView view, long snapshot, byte[] row, OpenReaders readers) throws IOException {
    List<InternalIterator> sources;
    try {
      sources = rowSources(view, row);
    } catch (IOException | RuntimeException e) {
      view.release();
      throw e;
    }
    NavigableMap<byte[], byte[]> out = new TreeMap<>(Arrays::compareUnsigned);
    byte[] successor = Arrays.copyOf(row, row.length + 1); // the smallest row after `row`
    try (DbScanner cells =
        new DbScanner(view, new MergingIterator(sources), snapshot, row, successor, readers)) {
      while (cells.hasNext()) {
        Cell c = cells.next();
        out.put(c.column(), c.value());
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return out;
  }

  /** Iterators over every source that may hold {@code row}; tables its filter excludes are left out. */
  public static List<InternalIterator> rowSources(ReadView view, byte[] row) throws IOException {
    List<InternalIterator> sources = memTableSources(view);
    FilterProbe probe = FilterProbe.of(row, EMPTY);
    boolean ok = false;
    try {
      for (TableRef t : view.version().tablesForRow(row)) {
        if (t.mightContainRow(probe)) {
          sources.add(t.iterator());
        }
      }
      ok = true;
      return sources;
    } finally {
      if (!ok) {
        sources.forEach(InternalIterator::close);
      }
    }
  }

  /**
   * The newest row tombstone of {@code row} visible at {@code snapshot}, or null: the row's start
   * read from the sources that may hold the row. Cursors ask it when they enter a row anywhere but
   * at its start.
   */
  public static InternalKey rowTombstone(ReadView view, long snapshot, byte[] row)
      throws IOException {
    try (MergingIterator m = new MergingIterator(rowSources(view, row))) {
      m.seek(new InternalKey(row, EMPTY, InternalKey.MAX_SEQUENCE, ValueKind.PUT));
      NewestVersions first = new NewestVersions(m, snapshot);
      return first.next() && Arrays.equals(first.newest().row(), row) ? first.rowTombstone() : null;
    }
  }

  /**
   * Iterators over every memtable and table of the view: one per level-0 table and one per deeper
   * level ({@link LevelIterator}), so a scan leases one table reader per deeper level at a time.
   */
  public static List<InternalIterator> allSources(ReadView view) throws IOException {
    List<InternalIterator> sources = memTableSources(view);
    boolean ok = false;
    try {
      tableSources(view.version(), TableRef::iterator, sources);
      ok = true;
      return sources;
    } finally {
      if (!ok) {
        sources.forEach(InternalIterator::close);
      }
    }
  }

  /**
   * Adds to {@code out} an iterator per level-0 table of {@code version} and one per non-empty
   * deeper level, each table's iterator made by {@code opener}; on failure the caller closes {@code
   * out}.
   */
  public static void tableSources(
      Version version, LevelIterator.Opener opener, List<InternalIterator> out)
      throws IOException {
    for (int run = 0; run < version.runCount(); run++) {
      List<TableRef> tables = version.run(run);
      if (run < version.levelZeroRuns()) {
        out.add(opener.open(tables.get(0)));
      } else if (!tables.isEmpty()) {
        out.add(new LevelIterator(tables, opener));
      }
    }
  }

  static List<InternalIterator> memTableSources(ReadView view) {
    List<InternalIterator> sources = new ArrayList<>();
    sources.add(new MemTableSource(view.mutable()));
    for (MemTable m : view.frozen()) {
      sources.add(new MemTableSource(m));
    }
    return sources;
  }
}
