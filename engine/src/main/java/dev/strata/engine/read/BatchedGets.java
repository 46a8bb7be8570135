package dev.strata.engine.read;

import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.CellLookup;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.key.UnsignedBytes;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * Many point reads at one snapshot, answered together (RocksDB's MultiGet): the same answers as
 * {@link ReadPath#get} for each key, with the work shared. A batch is a plan and its execution.
 *
 * <p><b>The plan.</b> The batch holds one view for all its keys and sorts them by (row, column)
 * once ({@link CellOrder}); each key gets one {@link FilterProbe}, hashed once. Then it walks the
 * sources in the read path's own order, once for the whole batch, each source taking the keys still
 * undecided: the memtables newest first, then every sorted run of the version ({@link
 * dev.strata.engine.version.Version#runCount}: each level-0 table newest first, then each deeper
 * level). A run hands each of its tables the keys inside the table's row range, found by binary
 * search over the sorted keys (about log2(batch) comparisons per table, not two per key).
 *
 * <p><b>The execution.</b> The tables of a run answer their keys together, stage by stage ({@link
 * dev.strata.sstable.TableReader#getAll}): every key's filter probe, each filter chunk fetched
 * once; then the index; then each data block fetched once for all the keys in it. The tables of a
 * deeper level run each stage for all of them before the next, so the whole batch's cache misses
 * overlap, not one table's.
 *
 * <p><b>Parallelism is the caller's choice.</b> With {@link ReadThreads} (the application set
 * {@code DbOptions.multiGetThreads}), a batch of at least {@link #MIN_SHARED_KEYS} undecided keys
 * after the memtables splits them by range into parts of {@link #PART_KEYS}, and each part walks the
 * runs as a batch of its own, on this thread or a pool thread. The parts' keys are disjoint, so
 * their answers are the batch's. Nothing is decided by a clock: the same batch on the same options
 * always takes the same path.
 *
 * <p>Thread-safe (stateless); the caller holds a reference on the view.
 */
public final class BatchedGets {
  private static final byte[] EMPTY = new byte[0];
  /** Keys a batch must have left after the memtables to be split into parts: two parts. */
  static final int MIN_SHARED_KEYS = 16;
  /**
   * Keys a part holds at most: few enough that the parts balance among the threads, enough that a
   * part's keys still share blocks and stages.
   */
  static final int PART_KEYS = 8;

  private BatchedGets() {}

  /**
   * The values of cells (rows[i], columns[i]) as of {@code snapshot}, aligned with the input; null
   * where absent or deleted.
   */
  public static byte[][] get(ReadView view, long snapshot, byte[][] rows, byte[][] columns)
      throws IOException {
    return get(view, snapshot, rows, columns, null);
  }

  /**
   * {@link #get}, its keys split into parts that run on {@code threads} when the batch is large
   * enough (see the class comment); null runs everything on this thread.
   */
  public static byte[][] get(ReadView view, long snapshot, byte[][] rows, byte[][] columns,
      ReadThreads threads) throws IOException {
    Batch batch = BATCHES.get();
    try {
      return batch.start(rows, columns, snapshot).run(view, threads);
    } finally {
      batch.release();
    }
  }

  /**
   * Each thread's {@link Batch}, re-aimed by every batch: a batch runs on one thread, which starts
   * no other batch meanwhile (parts go to other threads' {@link #PARTS}), so its arrays, probes and
   * lookups are made once per thread (grown to the largest batch seen) and a batch allocates little
   * besides the values it returns.
   */
  private static final ThreadLocal<Batch> BATCHES = ThreadLocal.withInitial(Batch::new);

  /**
   * Each thread's {@link Batch} for parts of a split batch ({@link Batch#askInParts}): apart from
   * {@link #BATCHES}, since the splitting batch's caller runs parts too, and a thread runs one part
   * at a time.
   */
  private static final ThreadLocal<Batch> PARTS = ThreadLocal.withInitial(Batch::new);

  /**
   * One batch's state: the keys' (row, column) order and which are still undecided. {@code
   * pending[0, pendingCount)} are the undecided keys' input indices, in key order.
   */
  private static final class Batch {
    private byte[][] rows;
    private byte[][] columns;
    private long snapshot;
    private byte[][] out;
    private int size;
    private boolean[] decided = new boolean[0];
    /** Each key's probe, at its input index: reusable, re-aimed by every batch. */
    private FilterProbe[] probes = new FilterProbe[0];
    private int[] pending = new int[0];
    private int pendingCount;
    /** Scratch, reused by every table: the input indices of the keys handed to one table. */
    private int[] batch = new int[0];
    /** Scratch: those keys' probes, and the table's answers for them. */
    private FilterProbe[] tableProbes = new FilterProbe[0];
    private CellLookup[] results = new CellLookup[0];
    private final CellOrder cellOrder = new CellOrder();
    /** Each memtable's search position, the mutable one's first: see {@link #askMemTables}. */
    private MemTable.Finger[] fingers = new MemTable.Finger[0];
    /**
     * Scratch for one run ({@link #askRun}): the tables holding some of the keys, and where each
     * one's keys end in {@code batch}.
     */
    private TableRef[] runTables = new TableRef[8];
    private int[] runEnds = new int[8];

    Batch start(byte[][] rows, byte[][] columns, long snapshot) {
      int n = rows.length;
      if (decided.length < n) {
        grow(Math.max(n, 2 * decided.length));
      }
      this.rows = rows;
      this.columns = columns;
      this.snapshot = snapshot;
      this.size = n;
      out = new byte[n][];
      Arrays.fill(decided, 0, n, false);
      cellOrder.sort(rows, columns, pending);
      pendingCount = n;
      return this;
    }

    private void grow(int capacity) {
      decided = new boolean[capacity];
      probes = new FilterProbe[capacity];
      results = new CellLookup[capacity];
      for (int i = 0; i < capacity; i++) {
        probes[i] = FilterProbe.reusable();
        results[i] = new CellLookup();
      }
      pending = new int[capacity];
      batch = new int[capacity];
      tableProbes = new FilterProbe[capacity];
    }

    /** Lets go of the caller's keys and values, so a thread's batch does not keep them alive. */
    void release() {
      for (int i = 0; i < size; i++) {
        probes[i].aim(EMPTY, EMPTY);
        results[i].takeValue();
      }
      Arrays.fill(tableProbes, 0, size, null);
      rows = null;
      columns = null;
      out = null;
    }

    byte[][] run(ReadView view, ReadThreads threads) throws IOException {
      aimProbes(); // before the memtables, whose row filters take the probes' hashes
      askMemTables(view);
      if (threads != null && pendingCount >= MIN_SHARED_KEYS) {
        askInParts(view, threads);
      } else {
        askTables(view);
      }
      return out;
    }

    private void aimProbes() {
      for (int k = 0; k < pendingCount; k++) {
        int i = pending[k];
        probes[i].aim(rows[i], columns[i]);
      }
    }

    /** The pending keys ask the tables, run after run in the read path's order. */
    private void askTables(ReadView view) throws IOException {
      Version version = view.version();
      int wasted = 0; // level-0 tables that searched for a key they did not decide: see WastedReads
      for (int run = 0; run < version.runCount() && pendingCount > 0; run++) {
        int undecided = askRun(version.run(run));
        if (run < version.levelZeroRuns()) {
          wasted += undecided;
        }
        dropDecided();
      }
      view.levelZeroReads().charge(wasted);
    }

    /**
     * {@link #askTables} in parts: the pending keys split by range into parts of {@link
     * #PART_KEYS}, each asking the tables as a batch of its own ({@link #askPart}) on this thread
     * or one of {@code threads}. The parts' keys are disjoint, so their answers are the batch's.
     */
    private void askInParts(ReadView view, ReadThreads threads) throws IOException {
      int parts = (pendingCount + PART_KEYS - 1) / PART_KEYS;
      threads.runAll(parts, p -> {
        int from = p * PART_KEYS;
        askPart(view, from, Math.min(pendingCount, from + PART_KEYS));
      });
    }

    /**
     * The keys {@code pending[from, to)} ask the tables as a batch of this thread's {@link #PARTS},
     * which puts its answers in this batch's {@code out} (at indices no other part writes). The
     * part's probes take the batch's hashes ({@link FilterProbe#aimAs}): the batch's probes were
     * aimed, and hashed for its memtables, before the parts were handed out, and no thread changes
     * them while the parts run.
     */
    private void askPart(ReadView view, int from, int to) throws IOException {
      Batch part = PARTS.get();
      int n = to - from;
      byte[][] partRows = new byte[n][];
      byte[][] partColumns = new byte[n][];
      for (int j = 0; j < n; j++) {
        partRows[j] = rows[pending[from + j]];
        partColumns[j] = columns[pending[from + j]];
      }
      try {
        part.start(partRows, partColumns, snapshot);
        for (int j = 0; j < n; j++) { // with the hashes the batch computed: one hash per key
          part.probes[j].aimAs(probes[pending[from + j]]);
        }
        part.askTables(view);
        for (int j = 0; j < n; j++) {
          out[pending[from + j]] = part.out[j];
        }
      } finally {
        part.release();
      }
    }

    /**
     * Each pending key asks the memtables, newest first, until one decides ({@link
     * ReadPath#askMemTables}). The keys come in order, so each memtable's search starts where its
     * previous one ended ({@link MemTable.Finger}): the keys a memtable is asked are a subsequence of
     * the sorted batch.
     */
    private void askMemTables(ReadView view) {
      List<MemTable> frozen = view.frozen();
      if (fingers.length < 1 + frozen.size()) {
        fingers = new MemTable.Finger[1 + frozen.size()];
        Arrays.setAll(fingers, m -> new MemTable.Finger());
      }
      fingers[0].aim(view.mutable());
      for (int m = 0; m < frozen.size(); m++) {
        fingers[1 + m].aim(frozen.get(m));
      }
      for (int k = 0; k < pendingCount; k++) {
        int i = pending[k];
        GetResult r = ReadPath.askMemTables(view, probes[i], snapshot, fingers);
        if (r != null) {
          decided[i] = true;
          out[i] = Verdict.of(r) == Verdict.FOUND ? r.value() : null; // the memtable's copy
        }
      }
      for (int m = 0; m <= frozen.size(); m++) {
        fingers[m].aim(null);
      }
      dropDecided();
    }

    /**
     * One sorted run of tables: disjoint and sorted by row, as the pending keys are, so one merge
     * pass hands each table the keys inside its row range, and the tables answer them together
     * ({@link TableRef#getAll(TableRef[], int[], int, FilterProbe[], int, long, CellLookup[])}:
     * each stage for all of them before the next). Keys that fall between two tables are in no
     * table's range: no table of the run holds them. Returns how many keys the run's tables
     * searched their blocks for (past their filters) and did not decide.
     */
    private int askRun(List<TableRef> tables) throws IOException {
      int runs = 0;
      int asked = 0; // the keys handed to the run's tables so far: batch[0, asked)
      int k = 0;
      for (TableRef t : tables) {
        k = firstRowAtOrAfter(k, t.metadata().smallest().row(), false);
        int to = firstRowAtOrAfter(k, t.metadata().largest().row(), true);
        if (to > k) {
          System.arraycopy(pending, k, batch, asked, to - k);
          asked += to - k;
          if (runs == runTables.length) {
            runTables = Arrays.copyOf(runTables, 2 * runs);
            runEnds = Arrays.copyOf(runEnds, 2 * runs);
          }
          runTables[runs] = t;
          runEnds[runs++] = asked;
        }
        k = to;
        if (k == pendingCount) {
          break;
        }
      }
      if (runs == 0) {
        return 0;
      }
      for (int b = 0; b < asked; b++) {
        tableProbes[b] = probes[batch[b]];
      }
      try {
        TableRef.getAll(runTables, runEnds, runs, tableProbes, asked, snapshot, results);
      } finally {
        Arrays.fill(runTables, 0, runs, null); // the thread's batch keeps no table alive
      }
      return take(asked);
    }

    /**
     * The first position in {@code pending[from, pendingCount)} whose row is at or after {@code
     * row} ({@code after}: strictly after), by binary search over the sorted keys: a table's run of
     * the batch costs about log2(batch) row comparisons, not two per key.
     */
    private int firstRowAtOrAfter(int from, byte[] row, boolean after) {
      int lo = from;
      int hi = pendingCount;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        int c = UnsignedBytes.compare(rows[pending[mid]], row);
        if (c < 0 || (after && c == 0)) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    /**
     * Takes the answers {@code results[0, n)} for the keys {@code batch[0, n)}; returns how many
     * tables searched their blocks (past their filters) for a key and did not decide it.
     */
    private int take(int n) {
      int undecided = 0;
      for (int b = 0; b < n; b++) {
        Verdict v = Verdict.of(results[b]);
        if (v != Verdict.UNKNOWN) {
          int i = batch[b];
          decided[i] = true;
          out[i] = v == Verdict.FOUND ? results[b].takeValue() : null; // a fresh copy from the block
        } else if (results[b].didSearchBlocks()) {
          undecided++;
        }
      }
      return undecided;
    }

    /** Removes the decided keys from {@code pending}, keeping the others in key order. */
    private void dropDecided() {
      int kept = 0;
      for (int k = 0; k < pendingCount; k++) {
        if (!decided[pending[k]]) {
          pending[kept++] = pending[k];
        }
      }
      pendingCount = kept;
    }
  }
}
