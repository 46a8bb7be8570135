package dev.strata.engine.version;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.manifest.ManifestFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.RowPrefix;
import dev.strata.sstable.key.UnsignedBytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One immutable state of the table set: the tables of every level. Level 0 is ordered newest first
 * (its tables overlap); every deeper level is ordered by smallest row and its tables are disjoint by
 * row, and no row is split between two tables of one level (compaction cuts outputs only between
 * rows), so at most one table per deeper level can hold a given row.
 *
 * <p>Reference-counted: the engine holds one reference on the current version, each read view one
 * more; the last release lets go of the tables, which close (and, if obsolete, delete) themselves
 * when no version lists them any more.
 *
 * <p>Thread-safe (immutable apart from the count).
 */
public final class Version {
  /** Levels in the tree. */
  public static final int NUM_LEVELS = ManifestFormat.NUM_LEVELS;

  private static final Comparator<TableRef> BY_SMALLEST_ROW =
      (a, b) -> Arrays.compareUnsigned(a.metadata().smallest().row(), b.metadata().smallest().row());

  private final List<List<TableRef>> levels;
  /**
   * Per level, the {@link RowPrefix} of each table's smallest and largest row, in the level's order:
   * {@link #tableCovering} compares these longs and reads a table's rows only on a tie, instead of
   * four dependent loads a step (table, manifest entry, key, row), which every absent Get pays once
   * per level.
   */
  private final long[][] smallestRowPrefixes;
  private final long[][] largestRowPrefixes;
  private final RefCount refs = new RefCount(this);

  private Version(List<List<TableRef>> levels) {
    this.levels = levels;
    this.smallestRowPrefixes = new long[levels.size()][];
    this.largestRowPrefixes = new long[levels.size()][];
    for (int level = 0; level < levels.size(); level++) {
      List<TableRef> tables = levels.get(level);
      smallestRowPrefixes[level] = new long[tables.size()];
      largestRowPrefixes[level] = new long[tables.size()];
      for (int i = 0; i < tables.size(); i++) {
        FileMetadata m = tables.get(i).metadata();
        smallestRowPrefixes[level][i] = RowPrefix.of(m.smallest().row());
        largestRowPrefixes[level][i] = RowPrefix.of(m.largest().row());
      }
    }
  }

  /**
   * A version of the given tables, which must be ordered as the class comment says; the caller's
   * references to the tables pass to the version.
   */
  public static Version of(List<List<TableRef>> levels) {
    if (levels.size() != NUM_LEVELS) {
      throw new IllegalArgumentException("expected " + NUM_LEVELS + " levels: " + levels.size());
    }
    List<List<TableRef>> copy = new ArrayList<>(NUM_LEVELS);
    for (List<TableRef> level : levels) {
      copy.add(List.copyOf(level));
    }
    Version v = new Version(List.copyOf(copy));
    assert v.checkInvariants() : v;
    return v;
  }

  /** An empty version. */
  public static Version empty() {
    List<List<TableRef>> levels = new ArrayList<>();
    for (int i = 0; i < NUM_LEVELS; i++) {
      levels.add(List.of());
    }
    return of(levels);
  }

  /**
   * The version this one becomes after {@code edit}: its tables without the deleted ones, plus the
   * added ones (level-0 additions are newer than every level-0 table already here). Takes a new
   * reference on every table it keeps; the added tables' references pass from the edit.
   */
  public Version apply(VersionEdit edit) {
    Set<Long> deleted = new HashSet<>(edit.deletedFileNumbers());
    List<List<TableRef>> next = new ArrayList<>(NUM_LEVELS);
    for (int level = 0; level < NUM_LEVELS; level++) {
      List<TableRef> tables = new ArrayList<>();
      for (TableRef t : edit.added(level)) {
        tables.add(t);
      }
      for (TableRef t : levels.get(level)) {
        if (!deleted.contains(t.metadata().fileNumber())) {
          t.acquire();
          tables.add(t);
        }
      }
      if (level > 0) {
        tables.sort(BY_SMALLEST_ROW);
      }
      next.add(tables);
    }
    return of(next);
  }

  /** The tables of {@code level}, in the order the class comment gives. */
  public List<TableRef> level(int level) {
    return levels.get(level);
  }

  /** The table of deeper level {@code level} (>= 1) whose row range covers {@code row}, or null. */
  public TableRef tableCovering(int level, byte[] row) {
    assert level > 0 : level;
    List<TableRef> tables = levels.get(level);
    long prefix = RowPrefix.of(row);
    int lo = 0;
    int hi = tables.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      FileMetadata m = tables.get(mid).metadata();
      if (compare(largestRowPrefixes[level][mid], m.largest().row(), prefix, row) < 0) {
        lo = mid + 1;
      } else if (compare(smallestRowPrefixes[level][mid], m.smallest().row(), prefix, row) > 0) {
        hi = mid - 1;
      } else {
        return tables.get(mid);
      }
    }
    return null;
  }

  /** Compares row a with row b, given their {@link RowPrefix}es: the prefixes, then on a tie the bytes. */
  private static int compare(long aPrefix, byte[] a, long bPrefix, byte[] b) {
    int c = Long.compareUnsigned(aPrefix, bPrefix);
    return c != 0 ? c : UnsignedBytes.compare(a, b);
  }

  /**
   * The read path's order, the one place it is written: the sorted runs a read of one row consults,
   * newest first. Each level-0 table is a run of its own (they overlap; newest first), then each
   * deeper level is one (its tables disjoint and sorted), so a row is in at most one table of a run
   * ({@link #tableInRun}). Runs {@code [0, levelZeroRuns())} are level 0's.
   */
  public int runCount() {
    return levels.get(0).size() + NUM_LEVELS - 1;
  }

  /** The runs that are level-0 tables: the first ones. */
  public int levelZeroRuns() {
    return levels.get(0).size();
  }

  /** The tables of run {@code run} (see {@link #runCount}), sorted and disjoint. */
  public List<TableRef> run(int run) {
    List<TableRef> levelZero = levels.get(0);
    return run < levelZero.size()
        ? levelZero.subList(run, run + 1)
        : levels.get(run - levelZero.size() + 1);
  }

  /** The table of run {@code run} whose row range covers {@code row}, or null. */
  public TableRef tableInRun(int run, byte[] row) {
    List<TableRef> levelZero = levels.get(0);
    if (run < levelZero.size()) {
      TableRef t = levelZero.get(run);
      return t.metadata().coversRow(row) ? t : null;
    }
    return tableCovering(run - levelZero.size() + 1, row);
  }

  /** The tables that may hold {@code row}, in the read path's order ({@link #runCount}). */
  public List<TableRef> tablesForRow(byte[] row) {
    List<TableRef> out = new ArrayList<>();
    for (int r = 0; r < runCount(); r++) {
      TableRef t = tableInRun(r, row);
      if (t != null) {
        out.add(t);
      }
    }
    return out;
  }

  /** The level-0 tables whose range covers {@code row}: those a seek to it positions on. */
  public int levelZeroCovering(byte[] row) {
    int n = 0;
    for (TableRef t : levels.get(0)) {
      if (t.metadata().coversRow(row)) {
        n++;
      }
    }
    return n;
  }

  /**
   * The level-0 tables whose range meets the rows [fromRow, toRow) (null: unbounded): those a scan
   * of them positions on.
   */
  public int levelZeroMeeting(byte[] fromRow, byte[] toRow) {
    int n = 0;
    for (TableRef t : levels.get(0)) {
      FileMetadata m = t.metadata();
      if ((fromRow == null || Arrays.compareUnsigned(m.largest().row(), fromRow) >= 0)
          && (toRow == null || Arrays.compareUnsigned(m.smallest().row(), toRow) < 0)) {
        n++;
      }
    }
    return n;
  }

  /** The tables of {@code level} whose row range meets [fromRow, toRow], both inclusive. */
  public List<TableRef> overlapping(int level, byte[] fromRow, byte[] toRow) {
    List<TableRef> out = new ArrayList<>();
    for (TableRef t : levels.get(level)) {
      FileMetadata m = t.metadata();
      if (Arrays.compareUnsigned(m.largest().row(), fromRow) >= 0
          && Arrays.compareUnsigned(m.smallest().row(), toRow) <= 0) {
        out.add(t);
      }
    }
    return out;
  }

  /** True when some level deeper than {@code level} holds a table whose range covers {@code row}. */
  public boolean deeperLevelsCover(int level, byte[] row) {
    for (int deeper = level + 1; deeper < NUM_LEVELS; deeper++) {
      if (tableCovering(deeper, row) != null) {
        return true;
      }
    }
    return false;
  }

  /** Bytes of the tables of {@code level}. */
  public long levelBytes(int level) {
    long sum = 0;
    for (TableRef t : levels.get(level)) {
      sum += t.metadata().fileSize();
    }
    return sum;
  }

  /** Every table, level by level. */
  public List<TableRef> allTables() {
    List<TableRef> out = new ArrayList<>();
    levels.forEach(out::addAll);
    return out;
  }

  /** Every table's manifest entry, level by level, in level order. */
  public List<FileMetadata> files() {
    List<FileMetadata> out = new ArrayList<>();
    for (TableRef t : allTables()) {
      out.add(t.metadata());
    }
    return out;
  }

  /** Live tables. */
  public int tableCount() {
    int n = 0;
    for (List<TableRef> level : levels) {
      n += level.size();
    }
    return n;
  }

  /** Filter bytes of all live tables. */
  public long filterBytes() {
    long sum = 0;
    for (TableRef t : allTables()) {
      sum += t.filterBytes();
    }
    return sum;
  }

  /**
   * Index bytes of all live tables, on disk. A table the table cache had closed is reopened to
   * read its properties; a failure there surfaces as UncheckedIOException, as stats() declares none.
   */
  public long indexBytes() {
    long sum = 0;
    for (TableRef t : allTables()) {
      try {
        sum += t.indexBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return sum;
  }

  /** Takes a reference if the version is still alive; false when it has been released. */
  public boolean tryAcquire() {
    return refs.tryAcquire();
  }

  /** Drops a reference; the last lets go of the tables. */
  public void release() {
    if (refs.release()) {
      allTables().forEach(TableRef::release);
    }
  }

  /**
   * The invariants: level entries at their level, level 0 newest first by sequence, deeper levels
   * sorted and disjoint by row.
   */
  public boolean checkInvariants() {
    for (int level = 0; level < NUM_LEVELS; level++) {
      List<TableRef> tables = levels.get(level);
      for (int i = 0; i < tables.size(); i++) {
        FileMetadata m = tables.get(i).metadata();
        if (m.level() != level) {
          throw new AssertionError("table " + m.fileNumber() + " listed at L" + level + ": " + m);
        }
        if (InternalKey.compare(m.smallest(), m.largest()) > 0) {
          throw new AssertionError("table range reversed: " + m);
        }
        if (i == 0) {
          continue;
        }
        FileMetadata prev = tables.get(i - 1).metadata();
        if (level == 0 && prev.largestSequence() < m.largestSequence()) {
          throw new AssertionError("L0 not newest first: " + prev + " before " + m);
        }
        if (level > 0 && Arrays.compareUnsigned(prev.largest().row(), m.smallest().row()) >= 0) {
          throw new AssertionError("L" + level + " tables overlap: " + prev + " and " + m);
        }
      }
    }
    return true;
  }

  /** File numbers of every table. */
  public Set<Long> fileNumbers() {
    Set<Long> out = new HashSet<>();
    for (TableRef t : allTables()) {
      out.add(t.metadata().fileNumber());
    }
    return out;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("Version[");
    for (int level = 0; level < NUM_LEVELS; level++) {
      Collection<TableRef> tables = levels.get(level);
      if (!tables.isEmpty()) {
        s.append(" L").append(level).append('=').append(tables.size());
      }
    }
    return s.append(" ]").toString();
  }
}
