package dev.strata.engine.read;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.observe.FlightRecording;
import dev.strata.engine.version.ObsoleteFiles;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.engine.write.Limits;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs every read path once per JVM, at the first open that has a table and asks for it ({@code
 * DbOptions.warmUpOnOpen}), so that its one-time costs are the open's and not the first read's.
 *
 * <p>Why: the first read of each kind in a fresh JVM loads and verifies its classes, links its
 * lambdas and resolves its call sites (a Get's filter hashing, the cache's single-flight loads, the
 * bloom filter; a cursor, a batched Get and a row read each bring more). A list of class names to
 * load would go stale as the code moves; running the paths keeps itself current.
 *
 * <p>It reads up to two of the database's tables (a level-0 one and a deeper one, so that both
 * ways a Get finds its tables run) through a table cache, block cache and counters of its own, in
 * a view of just those tables and a memtable of one cell: Gets through the view's Get entry,
 * present and absent, a batched Get, a cursor's seek, steps both ways and reverse seek, and a row
 * read (a filter chunk, an index partition and a few data blocks per table). Nothing of it shows in
 * the database's statistics or its block cache. Best effort: a failure is the business of the reads
 * that reach the tables, and the next open tries again.
 *
 * <p>It runs on a thread of its own ({@link #start}), beside the open's own table reads, which
 * wait on the device and the page cache more than they use a core.
 *
 * <p>Thread-safe (static methods only).
 */
public final class ReadPathWarmUp {
  /** The private block cache: room for the few blocks the reads touch. */
  private static final long CACHE_BYTES = 1 << 20;

  /** The block cache of {@link #compileGets}: two or three blocks, so that its Gets mostly miss. */
  private static final long COMPILE_CACHE_BYTES = 8 << 10;

  /**
   * Rounds of {@link #compileGets}, each two Gets per table: enough for the JIT to compile the Get
   * path (docs/PERFORMANCE.md, "The first Get after open", has the rounds against the first Get).
   */
  private static final int COMPILE_ROUNDS = 150;

  private static final byte[] EMPTY = new byte[0];

  /** Cursor steps each way: enough to cross from one source to the next. */
  private static final int STEPS = 4;

  /** Set once a warm-up has started in this JVM; cleared again when one fails. */
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private ReadPathWarmUp() {}

  /**
   * Starts warming the read paths on tables of {@code files} (the database in {@code dir}) on a
   * daemon thread, unless a warm-up has run in this JVM: the thread, for {@link #await}, or null.
   * With {@code offHeapBlocks} (the database's cache keeps data blocks off the heap) the private
   * cache does too, so that the slab, reference-count and copy-out paths are warm as well. Only the
   * first open of a JVM warms, so a later database with the other kind of cache is not warmed.
   */
  public static Thread start(Path dir, List<FileMetadata> files, boolean offHeapBlocks) {
    if (files.isEmpty() || STARTED.get() || !STARTED.compareAndSet(false, true)) {
      return null;
    }
    Thread t = new Thread(() -> run(dir, files, offHeapBlocks), "strata-read-warm-up");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * Waits for {@code warmUp} from {@link #start} (nothing when null) to end. An interrupt stops the
   * wait, not the warm-up, and stays set.
   */
  public static void await(Thread warmUp) {
    if (warmUp == null) {
      return;
    }
    try {
      warmUp.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void run(Path dir, List<FileMetadata> files, boolean offHeapBlocks) {
    List<FileMetadata> chosen = choose(files);
    byte[] row = chosen.get(0).smallest().row();
    byte[] memRow = Arrays.copyOf(row, row.length + 2); // a row no Get of a table asks for
    try {
      try (TableCache tables = tables(dir, CACHE_BYTES, offHeapBlocks);
          ObsoleteFiles released = new ObsoleteFiles(dir, tables, null)) {
        ReadView view = view(dir, chosen, tables, released, memRow);
        try {
          readAll(view, chosen, memRow);
        } finally {
          view.close();
        }
      }
      try (TableCache tables = tables(dir, COMPILE_CACHE_BYTES, offHeapBlocks);
          ObsoleteFiles released = new ObsoleteFiles(dir, tables, null)) {
        ReadView view = view(dir, chosen, tables, released, memRow);
        try {
          compileGets(view, chosen);
        } finally {
          view.close();
        }
      }
    } catch (IOException | RuntimeException e) {
      STARTED.set(false);
    }
  }

  /** A table cache of its own over a block cache of {@code cacheBytes}, one shard. */
  private static TableCache tables(Path dir, long cacheBytes, boolean offHeapBlocks) {
    return new TableCache(dir, TableCache.UNLIMITED,
        new ClockBlockCache(cacheBytes, 1, offHeapBlocks), new ReadCounters());
  }

  /**
   * A view of just the {@code chosen} tables, through {@code tables}, and a memtable holding one
   * cell, of {@code memRow}; the caller closes it, which hands the tables to {@code released}
   * (their readers are closed, their files kept).
   */
  private static ReadView view(
      Path dir, List<FileMetadata> chosen, TableCache tables, ObsoleteFiles released, byte[] memRow)
      throws IOException {
    List<List<TableRef>> levels = new ArrayList<>();
    for (int level = 0; level < Version.NUM_LEVELS; level++) {
      levels.add(new ArrayList<>());
    }
    for (FileMetadata f : chosen) {
      levels.get(f.level()).add(TableRef.open(dir, f, tables, released));
    }
    Version version = Version.of(levels); // holds the tables' references now
    MemTable memtable = new MemTable();
    memtable.add(ValueKind.PUT, memRow, EMPTY, 1, EMPTY);
    ReadView view = new ReadView(memtable, List.of(), version);
    version.release(); // the view's reference is the last: releasing it closes the readers
    return view;
  }

  /**
   * Runs Gets {@link #COMPILE_ROUNDS} times over a block cache of two or three blocks, so that
   * nearly every fetch misses: the miss path (read, checksum, decompress, parse, insert, evict) and
   * the in-place search run often enough to be compiled before the first Get, not only loaded.
   */
  private static void compileGets(ReadView view, List<FileMetadata> tables) throws IOException {
    long snapshot = InternalKey.MAX_SEQUENCE;
    for (int r = 0; r < COMPILE_ROUNDS; r++) {
      for (FileMetadata f : tables) {
        if (view.tryAcquire()) {
          try {
            ReadPath.get(view, snapshot, f.smallest().row(), f.smallest().column());
            ReadPath.get(view, snapshot, f.largest().row(), f.largest().column());
          } finally {
            view.release();
          }
        }
      }
    }
  }

  /** A level-0 table and a deeper one, whichever there are (a Get walks the two differently). */
  private static List<FileMetadata> choose(List<FileMetadata> files) {
    FileMetadata level0 = null;
    FileMetadata deeper = null;
    for (FileMetadata f : files) {
      if (f.level() == 0 && level0 == null) {
        level0 = f;
      } else if (f.level() > 0 && deeper == null) {
        deeper = f;
      }
    }
    List<FileMetadata> out = new ArrayList<>(2);
    if (level0 != null) {
      out.add(level0);
    }
    if (deeper != null) {
      out.add(deeper);
    }
    return out;
  }

  /** Runs each read path on the tables' first cells and rows next to them. */
  private static void readAll(ReadView view, List<FileMetadata> tables, byte[] memRow)
      throws IOException {
    long snapshot = InternalKey.MAX_SEQUENCE;
    List<byte[]> rows = new ArrayList<>();
    List<byte[]> columns = new ArrayList<>();
    for (FileMetadata f : tables) {
      InternalKey first = f.smallest();
      rows.add(first.row());
      columns.add(first.column());
      rows.add(successor(first.row())); // absent from the table: the filter or the index says so
      columns.add(EMPTY);
    }
    rows.add(memRow);
    columns.add(EMPTY);
    FlightRecording.initialized(); // the Get entry's first question: loads the recorder's class
    for (int i = 0; i < rows.size(); i++) {
      Limits.checkCell(rows.get(i), columns.get(i)); // the Get entry's argument check
      if (view.tryAcquire()) {
        try {
          ReadPath.get(view, snapshot, rows.get(i), columns.get(i));
        } finally {
          view.release();
        }
      }
    }
    byte[][] batchRows = rows.toArray(new byte[0][]);
    byte[][] batchColumns = columns.toArray(new byte[0][]);
    BatchedGets.get(view, snapshot, batchRows, batchColumns);
    // And as a batch split into parts does, on a helper thread: the rows repeated to enough keys
    // for two parts or more after the memtable's (every fifth or so is its row).
    int shared = 4 * BatchedGets.PART_KEYS;
    byte[][] sharedRows = new byte[shared][];
    byte[][] sharedColumns = new byte[shared][];
    for (int i = 0; i < shared; i++) {
      sharedRows[i] = batchRows[i % batchRows.length];
      sharedColumns[i] = batchColumns[i % batchColumns.length];
    }
    try (ReadThreads threads = new ReadThreads("warm-up", 1)) {
      BatchedGets.get(view, snapshot, sharedRows, sharedColumns, threads);
    }
    OpenReaders readers = new OpenReaders();
    for (byte[] row : rows) {
      if (view.tryAcquire()) {
        ReadPath.getRow(view, snapshot, row, readers); // releases the view's reference
      }
    }
    if (view.tryAcquire()) {
      try (DbCursor c = new DbCursor(view, snapshot, readers)) { // takes over the reference
        c.seek(rows.get(0), EMPTY);
        for (int i = 0; i < STEPS && c.isValid(); i++) {
          c.next();
        }
        for (int i = 0; i < STEPS && c.isValid(); i++) {
          c.prev();
        }
        c.seekForPrev(rows.get(rows.size() - 1), EMPTY);
      }
    }
  }

  /** The smallest row after {@code row}. */
  private static byte[] successor(byte[] row) {
    return Arrays.copyOf(row, row.length + 1);
  }
}
