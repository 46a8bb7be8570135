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
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many point reads at one snapshot, answered together (RocksDB's MultiGet): the same answers as
 * {@link ReadPath#get} for each key, with the work shared. The batch holds one view for all its
 * keys and sorts them by (row, column) once; from then on every source is walked forward, in key
 * order, once for the whole batch.
 *
 * <ol>
 *   <li>Each key gets one {@link FilterProbe}: hashed once, for the memtables' row filters and
 *       every table's filter.
 *   <li>The memtables answer what they can, newest first, as for a Get.
 *   <li>The tables are visited in the read path's order, which for every key is the order of the
 *       tables that may hold it: each level-0 table (newest first) takes the run of undecided keys
 *       its row range covers; each deeper level, whose tables are disjoint and sorted, hands each
 *       table the run of keys inside its row range. The runs are found by binary search over the
 *       sorted keys (about log2(batch) comparisons per table, not two per key). A table answers its
 *       keys together ({@link dev.strata.sstable.TableReader#getAll}): all their filter probes
 *       first, each filter chunk fetched once, then one forward walk through the index, each data
 *       block fetched once for all the keys in it. A deeper level's tables answer together too,
 *       each stage for all of them before the next: 64 random keys among 20 million give each
 *       table of the last level two or three, and it is the whole batch's cache misses that
 *       overlap, not one table's.
 * </ol>
 *
 * A batch whose keys are slow enough to be worth it (they read their blocks from files) and that
 * has a core to spare does the third step in parts instead: its keys split by range, each part a
 * batch of its own on this thread or a pool thread ({@link Batch#shareTables}); a cold batch
 * overlaps its deeper levels' tables ({@link OverlappedLevel}).
 *
 * <p>Thread-safe (stateless); the caller holds a reference on the view.
 */
public final class BatchedGets {
  private static final byte[] EMPTY = new byte[0];
  /** Keys a batch must have left for the tables to share them: two parts. */
  static final int MIN_SHARED_KEYS = 16;
  /**
   * Keys a shared part holds at most: a part whose keys read their blocks from the page cache
   * takes some 5 us a key, so a thread out of parts waits at most some 40 us for the last one.
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
   * {@link #get}, the deeper levels' table reads overlapped on {@code reads} when the batch proves
   * cold ({@link OverlappedLevel#isCold}), or its keys shared among {@code reads}' threads when
   * they are worth it ({@link OverlappedReads#worthSharing}); null reads everything on this
   * thread.
   */
  public static byte[][] get(ReadView view, long snapshot, byte[][] rows, byte[][] columns,
      OverlappedReads reads) throws IOException {
    Batch batch = BATCHES.get();
    if (reads != null) {
      reads.enter();
    }
    try {
      return batch.start(rows, columns, snapshot, reads).run(view);
    } finally {
      batch.release();
      if (reads != null) {
        reads.exit();
      }
    }
  }

  /**
   * Each thread's {@link Batch}, re-aimed by every batch: a batch runs on one thread, which starts
   * no other batch meanwhile (cold reads hand tables to other threads; shared batches hand parts
   * to other threads' {@link #PARTS}), so its arrays, probes and lookups are made once per thread
   * (grown to the largest batch seen) and a batch allocates little besides the values it returns.
   */
  private static final ThreadLocal<Batch> BATCHES = ThreadLocal.withInitial(Batch::new);

  /**
   * Each thread's {@link Batch} for parts of a shared batch ({@link Batch#shareTables}): apart
   * from {@link #BATCHES}, since the sharing batch's caller runs parts too, and a thread runs one
   * part at a time.
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
     * Scratch for one deeper level ({@link #askLevel}): the tables holding some of the keys, and
     * where each one's run ends in {@code batch}.
     */
    private TableRef[] levelTables = new TableRef[8];
    private int[] runEnds = new int[8];
    /** Where the deeper levels' reads overlap once the batch proves cold; null: never. */
    private OverlappedReads reads;
    private boolean overlap;

    Batch start(byte[][] rows, byte[][] columns, long snapshot, OverlappedReads reads) {
      int n = rows.length;
      if (decided.length < n) {
        grow(Math.max(n, 2 * decided.length));
      }
      this.rows = rows;
      this.columns = columns;
      this.snapshot = snapshot;
      this.reads = reads;
      this.overlap = false;
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
      reads = null;
    }

    byte[][] run(ReadView view) throws IOException {
      aimProbes(); // before the memtables, whose row filters take the probes' hashes
      askMemTables(view);
      overlap = reads != null && pendingCount > 1
          && OverlappedLevel.isCold(reads, view.version(), probes[pending[0]],
              probes[pending[pendingCount - 1]]);
      int helpers = overlap || reads == null || pendingCount < MIN_SHARED_KEYS
          ? 0 : reads.freeHelpers();
      if (helpers > 0 && reads.worthSharing(pendingCount)) {
        shareTables(view, helpers);
      } else if (helpers > 0) {
        // Timed, so that the next batch shares when this one's keys prove worth it.
        long start = System.nanoTime();
        int keys = pendingCount;
        askTables(view);
        reads.recordPace(System.nanoTime() - start, keys);
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

    /** The pending keys ask the tables: level 0's, newest first, then each deeper level's. */
    private void askTables(ReadView view) throws IOException {
      Version version = view.version();
      int wasted = 0; // level-0 tables asked for a key they did not decide: see WastedReads
      for (TableRef t : version.level(0)) {
        // The pending keys are sorted, so those inside the table's row range are one run.
        int from = firstRowAtOrAfter(0, t.metadata().smallest().row(), false);
        int to = firstRowAtOrAfter(from, t.metadata().largest().row(), true);
        System.arraycopy(pending, from, batch, 0, to - from);
        wasted += ask(t, to - from);
        dropDecided();
      }
      view.levelZeroReads().charge(wasted);
      for (int level = 1; level < Version.NUM_LEVELS && pendingCount > 0; level++) {
        askLevel(version.level(level));
        dropDecided();
      }
    }

    /**
     * {@link #askTables} for a batch with {@code helpers} cores to spare whose keys are worth
     * sharing at the pace last recorded ({@link OverlappedReads#worthSharing}: at 20M keys with a
     * cache a tenth of the data each key reads a data block from the page cache, about 5 us; a
     * cached key takes under 1.5): its keys split by range into parts of {@link #PART_KEYS}, each
     * asking the tables as a batch of its own ({@link #askPart}) on this thread or a helper. The
     * parts' keys are disjoint, so their answers are the batch's. Their pace is recorded, as an
     * unshared batch's is (timed as a whole, in {@link #run}), so each batch's choice follows the
     * last one's: a batch that reads files leads the next to share, a cached one not to.
     */
    private void shareTables(ReadView view, int helpers) throws IOException {
      int parts = (pendingCount + PART_KEYS - 1) / PART_KEYS;
      AtomicLong partNanos = new AtomicLong();
      reads.runAll(parts, helpers, p -> {
        int from = p * PART_KEYS;
        long start = System.nanoTime();
        askPart(view, from, Math.min(pendingCount, from + PART_KEYS));
        partNanos.addAndGet(System.nanoTime() - start);
      });
      reads.recordPace(partNanos.get(), pendingCount);
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
        part.start(partRows, partColumns, snapshot, null);
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
     * Each pending key asks the memtables, newest first, until one decides. The keys come in
     * order, so each memtable's search starts where its previous one ended ({@link
     * MemTable.Finger}): the keys a memtable is asked are a subsequence of the sorted batch.
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
        GetResult r = view.mutable().get(probes[i], snapshot, fingers[0]);
        Verdict v = Verdict.of(r);
        for (int m = 0; v == Verdict.UNKNOWN && m < frozen.size(); m++) {
          r = frozen.get(m).get(probes[i], snapshot, fingers[1 + m]);
          v = Verdict.of(r);
        }
        if (v != Verdict.UNKNOWN) {
          decided[i] = true;
          out[i] = v == Verdict.FOUND ? r.value() : null; // the memtable's copy
        }
      }
      for (int m = 0; m <= frozen.size(); m++) {
        fingers[m].aim(null);
      }
      dropDecided();
    }

    /**
     * One deeper level: its tables are disjoint and sorted by row, the pending keys sorted too, so
     * one merge pass hands each table the run of keys inside its row range, and the tables answer
     * their runs together ({@link TableRef#getAll(TableRef[], int[], int, FilterProbe[], int, long,
     * CellLookup[])}: each stage for all of them before the next, so a batch spread over many tables
     * waits for its cache misses together); a cold batch runs every table's run at once ({@link
     * OverlappedLevel}). Keys that fall between two tables are in no run: no table of the level
     * holds them.
     */
    private void askLevel(List<TableRef> tables) throws IOException {
      OverlappedLevel together = overlap ? new OverlappedLevel(reads) : null;
      int runs = 0;
      int asked = 0; // the keys handed to the level's tables so far: batch[0, asked)
      int k = 0;
      for (TableRef t : tables) {
        // Keys before the table's smallest row fall between this level's tables: none holds them.
        k = firstRowAtOrAfter(k, t.metadata().smallest().row(), false);
        int to = firstRowAtOrAfter(k, t.metadata().largest().row(), true);
        if (to > k) {
          if (together != null) {
            together.add(t, k, to);
          } else {
            System.arraycopy(pending, k, batch, asked, to - k);
            asked += to - k;
            if (runs == levelTables.length) {
              levelTables = Arrays.copyOf(levelTables, 2 * runs);
              runEnds = Arrays.copyOf(runEnds, 2 * runs);
            }
            levelTables[runs] = t;
            runEnds[runs++] = asked;
          }
        }
        k = to;
        if (k == pendingCount) {
          break;
        }
      }
      if (together != null) { // every table's run at once, then the answers as ask() takes them
        System.arraycopy(pending, 0, batch, 0, pendingCount);
        for (int b = 0; b < pendingCount; b++) {
          tableProbes[b] = probes[batch[b]];
        }
        together.getAll(tableProbes, pendingCount, snapshot, results);
        take(pendingCount);
      } else if (runs > 0) {
        for (int b = 0; b < asked; b++) {
          tableProbes[b] = probes[batch[b]];
        }
        try {
          TableRef.getAll(levelTables, runEnds, runs, tableProbes, asked, snapshot, results);
        } finally {
          Arrays.fill(levelTables, 0, runs, null); // the thread's batch keeps no table alive
        }
        take(asked);
      }
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
     * Table {@code t} answers the keys {@code batch[0, n)} (in key order) together; returns how many
     * it did not decide.
     */
    private int ask(TableRef t, int n) throws IOException {
      if (n == 0) {
        return 0;
      }
      for (int b = 0; b < n; b++) {
        tableProbes[b] = probes[batch[b]];
      }
      t.getAll(tableProbes, n, snapshot, results);
      return take(n);
    }

    /**
     * Takes the answers {@code results[0, n)} for the keys {@code batch[0, n)}; returns how many it
     * did not decide.
     */
    private int take(int n) {
      int undecided = 0;
      for (int b = 0; b < n; b++) {
        Verdict v = Verdict.of(results[b]);
        if (v != Verdict.UNKNOWN) {
          int i = batch[b];
          decided[i] = true;
          out[i] = v == Verdict.FOUND ? results[b].takeValue() : null; // a fresh copy from the block
        } else {
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
