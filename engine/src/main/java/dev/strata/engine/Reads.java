package dev.strata.engine;

import dev.strata.engine.observe.FlightRecording;
import dev.strata.engine.observe.SlowReadEvent;
import dev.strata.engine.read.BatchedGets;
import dev.strata.engine.read.DbCursor;
import dev.strata.engine.read.DbScanner;
import dev.strata.engine.read.InternalIterator;
import dev.strata.engine.read.MergingIterator;
import dev.strata.engine.read.OpenReaders;
import dev.strata.engine.read.ReadThreads;
import dev.strata.engine.read.PrefixScans;
import dev.strata.engine.read.ReadPath;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.write.Limits;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The read entry points of an open database, after {@link Db} has checked their arguments: each
 * acquires the published view, then takes its snapshot sequence (in that order: see {@link
 * EngineState#acquireView}), and hands both to the read path ({@link ReadPath}, {@link
 * BatchedGets}, a {@link DbScanner} or {@link DbCursor}). Reads never take the database mutex.
 *
 * <p>Thread-safe: any number of threads may read at once.
 */
final class Reads {
  private static final byte[] EMPTY = new byte[0];

  private final EngineState state;
  /** The directory as slow-read events name it. */
  private final String dirName;
  /** Gets served, multiGet keys included (DbStats.gets). */
  private final LongAdder gets;
  /** Open scanners and cursors, which Db.close() closes so none keeps a file open past it. */
  private final OpenReaders readers;
  /** Which tables prefix scans read, and their counters. */
  private final PrefixScans prefixScans;
  /** Live snapshots; flushes and compactions keep what they see. */
  private final Snapshots snapshots;
  /**
   * Where a batched Get runs parts of itself, when the options ask for it ({@code
   * multiGetThreads}); null: on the caller's thread alone. Closed by Db.close().
   */
  private final ReadThreads multiGetThreads;

  Reads(
      EngineState state,
      LongAdder gets,
      OpenReaders readers,
      PrefixScans prefixScans,
      Snapshots snapshots,
      int multiGetThreads) {
    this.state = state;
    this.dirName = state.dir.toString();
    this.gets = gets;
    this.readers = readers;
    this.prefixScans = prefixScans;
    this.snapshots = snapshots;
    this.multiGetThreads =
        multiGetThreads > 0 ? new ReadThreads(dirName, multiGetThreads) : null;
  }

  /** Ends the threads of batched Gets, once the batches running are done with them. */
  void close() {
    if (multiGetThreads != null) {
      multiGetThreads.close();
    }
  }

  /** Db.get: the value of cell (row, column), as of {@code s} (null: now). */
  byte[] get(Snapshot s, byte[] row, byte[] column) throws IOException {
    ensureOpen();
    long pinned = pinnedSequence(s);
    gets.increment();
    SlowReadEvent slow = FlightRecording.startRead();
    ReadView v = state.acquireView();
    long snapshot = s == null ? state.lastSequence : pinned; // after the view: see acquireView
    try {
      return ReadPath.get(v, snapshot, row, column);
    } finally {
      v.release();
      FlightRecording.finishRead(slow, dirName, "get", 1);
    }
  }

  /** Db.getRow: the live columns of {@code row}, as of {@code s} (null: now). */
  NavigableMap<byte[], byte[]> getRow(Snapshot s, byte[] row) throws IOException {
    ensureOpen();
    long pinned = pinnedSequence(s);
    ReadView v = acquireView();
    long snapshot = s == null ? state.lastSequence : pinned; // after the view: see acquireView
    return ReadPath.getRow(v, snapshot, row, readers);
  }

  /** Db.scan: a scanner over rows [from, to), as of {@code s} (null: now). */
  CellScanner scan(Snapshot s, byte[] fromRowInclusive, byte[] toRowExclusive)
      throws IOException {
    ensureOpen();
    long pinned = pinnedSequence(s);
    ReadView v = acquireView();
    long snapshot = s == null ? state.lastSequence : pinned; // after the view: see acquireView
    byte[] from = fromRowInclusive == null ? null : fromRowInclusive.clone();
    byte[] to = toRowExclusive == null ? null : toRowExclusive.clone();
    List<InternalIterator> sources;
    try {
      sources = ReadPath.allSources(v);
    } catch (IOException | RuntimeException e) {
      v.release();
      throw e;
    }
    // Each level-0 table the range meets costs a positioning a tree without level 0 would not.
    v.levelZeroReads().charge(v.version().levelZeroMeeting(from, to));
    return new DbScanner(v, new MergingIterator(sources), snapshot, from, to, readers);
  }

  /** Db.scanPrefix: a scanner over the rows starting with {@code rowPrefix}, as of now. */
  CellScanner scanPrefix(byte[] rowPrefix) throws IOException {
    ensureOpen();
    byte[] prefix = rowPrefix.clone();
    ReadView v = acquireView();
    long snapshot = state.lastSequence; // after the view: see acquireView
    List<InternalIterator> sources;
    try {
      sources = prefixScans.sources(v, prefix);
    } catch (IOException | RuntimeException e) {
      v.release();
      throw e;
    }
    return new DbScanner(v, new MergingIterator(sources), snapshot,
        prefix.length == 0 ? null : prefix, PrefixScans.end(prefix), readers);
  }

  /** Db.multiGet(keys): the values under {@code keys}, rows with the empty column, as of now. */
  List<byte[]> multiGet(List<byte[]> keys) throws IOException {
    Limits.requireNonNull(keys, "keys");
    byte[][] rows = new byte[keys.size()][];
    byte[][] columns = new byte[keys.size()][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = keys.get(i);
      Limits.checkKey(rows[i]);
      columns[i] = EMPTY;
    }
    return getAll(rows, columns);
  }

  /** Db.multiGet(rows, columns): the lists checked (same size, every cell), then read. */
  List<byte[]> multiGet(List<byte[]> rows, List<byte[]> columns) throws IOException {
    Limits.requireNonNull(rows, "rows");
    Limits.requireNonNull(columns, "columns");
    if (rows.size() != columns.size()) {
      throw new IllegalArgumentException(
          "rows and columns differ in size: " + rows.size() + " and " + columns.size());
    }
    byte[][] r = new byte[rows.size()][];
    byte[][] c = new byte[rows.size()][];
    for (int i = 0; i < r.length; i++) {
      r[i] = rows.get(i);
      c[i] = columns.get(i);
      Limits.checkCell(r[i], c[i]);
    }
    return getAll(r, c);
  }

  /** The values of cells (rows[i], columns[i]), as of now. */
  private List<byte[]> getAll(byte[][] rows, byte[][] columns) throws IOException {
    ensureOpen();
    gets.add(rows.length);
    SlowReadEvent slow = FlightRecording.startRead();
    ReadView v = acquireView();
    long snapshot = state.lastSequence; // after the view: see acquireView
    try {
      return Collections.unmodifiableList(Arrays.asList(BatchedGets.get(v, snapshot, rows, columns, multiGetThreads)));
    } finally {
      v.release();
      FlightRecording.finishRead(slow, dirName, "multiGet", rows.length);
    }
  }

  /** Db.mayContain: false when cell (row, column) is certainly absent. */
  boolean mayContain(byte[] row, byte[] column) throws IOException {
    ensureOpen();
    ReadView v = acquireView();
    long snapshot = state.lastSequence; // after the view: see acquireView
    try {
      return ReadPath.mayContain(v, snapshot, row, column);
    } finally {
      v.release();
    }
  }

  /** Db.cursor: an unpositioned cursor, as of {@code s} (null: now). */
  CellCursor cursor(Snapshot s) throws IOException {
    ensureOpen();
    long pinned = pinnedSequence(s);
    ReadView v = acquireView();
    return new DbCursor(v, s == null ? state.lastSequence : pinned, readers); // after the view
  }

  /**
   * Pins the database as of now: reads through the snapshot see exactly the writes acknowledged
   * before this call, until the snapshot is closed.
   */
  Snapshot snapshot() {
    ensureOpen();
    return snapshots.take(() -> state.lastSequence);
  }

  private long pinnedSequence(Snapshot s) {
    return s == null ? -1 : snapshots.sequenceOf(s);
  }

  /**
   * Acquires the current view; a read takes its snapshot (lastSequence) after this, never before
   * (see EngineState.acquireView).
   */
  private ReadView acquireView() {
    return state.acquireView();
  }

  private void ensureOpen() {
    state.ensureOpen();
  }
}
