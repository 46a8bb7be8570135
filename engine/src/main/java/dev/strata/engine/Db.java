package dev.strata.engine;

import dev.strata.engine.compaction.FilterChoice;
import dev.strata.engine.compaction.OutputTables;
import dev.strata.engine.compaction.SnapshotStripes;
import dev.strata.engine.fs.Closeables;
import dev.strata.engine.fs.DirectoryLock;
import dev.strata.engine.observe.BeanRegistration;
import dev.strata.engine.observe.DbDescription;
import dev.strata.engine.read.OpenReaders;
import dev.strata.engine.read.PrefixScans;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.write.Limits;
import dev.strata.engine.write.Mutation;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.ClockBlockCache;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.SortedMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * An embedded LSM key-value store: cells addressed by (row, column), or by key in the key-value
 * view (a key is a row with the empty column).
 *
 * <pre>{@code
 * try (Db db = Db.open(Path.of("data"))) {
 *   db.put(row, column, value);
 *   byte[] v = db.get(row, column);
 *   try (CellScanner cells = db.scan(null, null)) {
 *     while (cells.hasNext()) System.out.println(cells.next());
 *   }
 * }
 * }</pre>
 *
 * <p>Writes go to the log (one checksummed record per write or batch, grouped with concurrent
 * writers into one file write) and then to the memtable; a full memtable is frozen and flushed to a
 * level-0 table by the background thread, which also runs leveled compaction. A Get walks the
 * memtables, then the tables newest first, skipping every table whose Bloom filter says the key is
 * absent; the first source that knows the cell decides.
 *
 * <p><b>What a failed write means.</b> A write that throws {@link IOException} has an unknown
 * outcome, as in RocksDB: it is not visible in this process, but it may or may not be there after
 * a reopen (a group of concurrent writes fails together, and a failed fsync cannot say which bytes
 * reached the disk). It is never applied in part. Recovery keeps a prefix of the history: see
 * {@link WalRecoveryMode}. An interrupt of the writing thread fails nothing: the write is redone and
 * the interrupt flag stays set.
 *
 * <p>Thread-safe: any number of threads may read and write at once.
 */
public final class Db implements AutoCloseable {
  /** Longest row in bytes; rows are 1..MAX_ROW_LENGTH. */
  public static final int MAX_ROW_LENGTH = Limits.MAX_ROW_LENGTH;

  /** Longest column in bytes; columns are 0..MAX_COLUMN_LENGTH. */
  public static final int MAX_COLUMN_LENGTH = Limits.MAX_COLUMN_LENGTH;

  /** Longest value in bytes; values are 0..MAX_VALUE_LENGTH. */
  public static final int MAX_VALUE_LENGTH = Limits.MAX_VALUE_LENGTH;

  private final Path dir;
  private final DbOptions options;
  /** The open table readers, at most options.files().maxOpenFiles() of them. */
  private final TableCache tables;
  /** The management bean's registration (see {@link BeanRegistration}); null until the open ends. */
  private volatile BeanRegistration management;
  /** Where flushes and compactions write their tables, and recovery its replayed logs. */
  private final OutputTables outputs;
  /** Memtables, logs, the current version and the published view: see EngineState. */
  private final EngineState state;
  private final BackgroundWork background;
  private final WritePath writePath;
  private final Reads reads;
  /** The counters and the tree's shape, as DbStats and the introspection calls give them. */
  private final Statistics statistics;
  /** How a close, or a failed open, lets everything go. */
  private final Shutdown shutdown;

  /** Builds the parts of an open database; the parts they share are made here and passed on. */
  private Db(Path dir, DbOptions options, EngineHooks hooks, DirectoryLock lock) {
    this.dir = dir;
    this.options = options;
    BlockCache cache = new ClockBlockCache(options.blockCache().blockCacheBytes(),
        options.effectiveBlockCacheShards(), options.blockCacheOffHeap());
    ReadCounters readCounters = new ReadCounters(); // compaction counts into its own
    this.tables = new TableCache(dir, options.files().maxOpenFiles(), cache, readCounters);
    this.state =
        new EngineState(dir, hooks.fileLayer(), tables, options);
    if (options.files().readOnly()) {
      tables.servesReadOnlyOpen();
    }
    tables.pins(options.blockCache().pinL0FilterAndIndexBlocksInCache(),
        options.filters().filtersPinnedIn(options.blockCache().blockCacheBytes()));
    tables.readsWith(options.files().tableReadOptions());
    Snapshots snapshots = new Snapshots(); // flushes and compactions keep what they see
    this.outputs = new OutputTables(dir, hooks.fileLayer(),
        new FilterChoice(options, () -> Statistics.shape(state)),
        options.compaction().targetFileSizeBytes(), state.versions::newFileNumber, tables,
        state.versions.obsoleteFiles(), () -> SnapshotStripes.of(snapshots.sequences()),
        hooks.maxTableBlockBytes(), options.compaction().maxSubcompactions(), () -> state.closing);
    BackgroundErrors errors = new BackgroundErrors(dir, state.mutex);
    this.background = new BackgroundWork(state, options, tables, outputs, errors);
    this.writePath = new WritePath(state, options, errors, background);
    LongAdder gets = new LongAdder();
    OpenReaders readers = new OpenReaders(); // scanners and cursors: close() closes them
    PrefixScans prefixScans = new PrefixScans();
    this.reads =
        new Reads(
            state, gets, readers, prefixScans, snapshots, options.reads().multiGetThreads());
    this.statistics =
        new Statistics(state, readCounters, cache, tables, gets, prefixScans, snapshots, background);
    this.shutdown =
        new Shutdown(
            state, options.files().readOnly(), background, writePath, snapshots, readers, reads,
            tables, cache, lock);
  }

  /** Opens the database in {@code dir} with {@link DbOptions#defaults()}. */
  public static Db open(Path dir) throws IOException {
    return open(dir, DbOptions.defaults());
  }

  /**
   * Opens (creating if missing) the database in {@code dir}, taking an exclusive lock on it: a
   * second open of the same directory, from this process or another, fails with an IOException that
   * says it is locked. Replays the logs a crash left (see {@link WalRecoveryMode}); when they fit
   * in the memtable they stay its logs, else they are flushed to a table first.
   *
   * @throws CorruptionException when the manifest, a log (other than a torn last record) or a table
   *     is damaged
   */
  public static Db open(Path dir, DbOptions options) throws IOException {
    return open(dir, options, EngineHooks.NONE);
  }

  /** Opens as {@link #open(Path, DbOptions)} does, with what a test substitutes in the engine. */
  static Db open(Path dir, DbOptions options, EngineHooks hooks) throws IOException {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(options, "options");
    // Like a read or a write, an open sets a pending interrupt aside: the lock, the log replay and
    // the manifest would each fail with it. (One arriving mid-open may still fail it, with nothing
    // lost: a failed open leaves the directory as a crash would.)
    return InterruptSetAside.call(() -> openSetUp(dir, options, hooks));
  }

  private static Db openSetUp(Path dir, DbOptions options, EngineHooks hooks)
      throws IOException {
    if (options.reads().warmUpOnOpen()) {
      OpenPreload.start();
    }
    // A read-only open writes nothing, not even the lock file: see DbOptions.Builder.readOnly.
    if (!options.files().readOnly()) {
      Files.createDirectories(dir);
    }
    DirectoryLock lock = options.files().readOnly() ? null : DirectoryLock.acquire(dir);
    // A failed open releases everything it took, the lock last, so the caller can fix the cause
    // and open again in this process.
    Db db;
    try {
      db = new Db(dir, options, hooks, lock);
    } catch (Throwable t) {
      Closeables.closeSuppressing(t, lock);
      throw t;
    }
    try {
      Startup startup = new Startup(db.state, options, db.tables, db.outputs, db.background);
      Recovery r = startup.recover();
      db.statistics.droppedAtOpen(r.replay.droppedBytes(), r.replay.droppedRecords());
      startup.openTablesAhead();
      startup.startBackgroundWork();
      db.management =
          BeanRegistration.start(dir, options.files().readOnly(),
              new DbManagement(db, dir.toString()), options.reads().warmUpOnOpen());
      return db;
    } catch (Throwable t) {
      Closeables.closeSuppressing(t, db.shutdown::abandonOpen);
      throw t;
    }
  }

  /** What tests substitute or observe in an open database; never used by the engine itself. */
  TestSeams seams() {
    return new TestSeams(background, writePath, tables, state.memory, management);
  }

  /** Puts {@code value} under {@code key} (row {@code key}, empty column). */
  public void put(byte[] key, byte[] value) throws IOException {
    Limits.checkKeyPut(key, value);
    write(List.of(Mutation.put(key, Mutation.EMPTY, value)));
  }

  /** Deletes {@code key} (row {@code key}, empty column). */
  public void delete(byte[] key) throws IOException {
    Limits.checkKey(key);
    write(List.of(Mutation.delete(key, Mutation.EMPTY)));
  }

  /** Puts {@code value} into cell (row, column). */
  public void put(byte[] row, byte[] column, byte[] value) throws IOException {
    Limits.checkPut(row, column, value);
    write(List.of(Mutation.put(row, column, value)));
  }

  /** Deletes cell (row, column). */
  public void delete(byte[] row, byte[] column) throws IOException {
    Limits.checkCell(row, column);
    write(List.of(Mutation.delete(row, column)));
  }

  /** Deletes every column of {@code row} written before this call. */
  public void deleteRow(byte[] row) throws IOException {
    Limits.checkRow(row);
    write(List.of(Mutation.deleteRow(row)));
  }

  /** Applies {@code batch}, its commit markers included, atomically: all or, across a crash, none. */
  public void write(WriteBatch batch) throws IOException {
    Limits.requireNonNull(batch, "batch");
    ensureWritable();
    if (!batch.isEmpty()) {
      writePath.write(batch.mutations(), batch.markerUpdates());
    }
  }

  /** Queues the write and returns once it is in the log and the memtable (see WritePath). */
  private void write(List<Mutation> mutations) throws IOException {
    ensureWritable();
    writePath.write(mutations);
  }

  /** The commit markers as of the last acknowledged write, by name (see WriteBatch); a copy. */
  public SortedMap<byte[], byte[]> commitMarkers() {
    state.ensureOpen();
    return state.markers.toMap();
  }

  /** The value of the commit marker {@code name} (see WriteBatch), or null when there is none. */
  public byte[] commitMarker(byte[] name) {
    Limits.requireNonNull(name, "name");
    state.ensureOpen();
    return state.markers.get(name);
  }

  /** The value under {@code key} (row {@code key}, empty column), or null when absent or deleted. */
  public byte[] get(byte[] key) throws IOException {
    Limits.checkKey(key);
    return reads.get(null, key, Mutation.EMPTY);
  }

  /** The value of cell (row, column), or null when absent or deleted. */
  public byte[] get(byte[] row, byte[] column) throws IOException {
    Limits.checkCell(row, column);
    return reads.get(null, row, column);
  }

  /** The value of cell (row, column) as of {@code snapshot}, or null when absent or deleted then. */
  public byte[] get(Snapshot snapshot, byte[] row, byte[] column) throws IOException {
    Limits.requireNonNull(snapshot, "snapshot");
    Limits.checkCell(row, column);
    return reads.get(snapshot, row, column);
  }

  /**
   * The live columns of {@code row} with their values, in unsigned byte order of the column; empty
   * (never null) when there are none. Tables whose row filter says the row is absent are skipped.
   */
  public NavigableMap<byte[], byte[]> getRow(byte[] row) throws IOException {
    Limits.checkRow(row);
    return reads.getRow(null, row);
  }

  /** The live columns of {@code row} as of {@code snapshot}; see {@link #getRow(byte[])}. */
  public NavigableMap<byte[], byte[]> getRow(Snapshot snapshot, byte[] row) throws IOException {
    Limits.requireNonNull(snapshot, "snapshot");
    Limits.checkRow(row);
    return reads.getRow(snapshot, row);
  }

  /**
   * The live cells with {@code fromRowInclusive <= row < toRowExclusive} (null: unbounded), in
   * (row, column) order, as of this call: later writes are not seen. Close the scanner to release
   * the files it pins; I/O errors while iterating surface as {@link UncheckedIOException}.
   * Closing the database closes its open scanners: after {@link #close()} every use of one throws
   * {@link IllegalStateException}, and none keeps a file open.
   */
  public CellScanner scan(byte[] fromRowInclusive, byte[] toRowExclusive) throws IOException {
    return reads.scan(null, fromRowInclusive, toRowExclusive);
  }

  /**
   * The live cells with {@code fromRowInclusive <= row < toRowExclusive} as of {@code snapshot};
   * see {@link #scan(byte[], byte[])}.
   */
  public CellScanner scan(Snapshot snapshot, byte[] fromRowInclusive, byte[] toRowExclusive)
      throws IOException {
    Limits.requireNonNull(snapshot, "snapshot");
    return reads.scan(snapshot, fromRowInclusive, toRowExclusive);
  }

  /**
   * The live cells of the rows starting with {@code rowPrefix}, in (row, column) order, as of this
   * call (the empty prefix: every row). With {@link DbOptions.Builder#prefixBloomLength} n and a
   * prefix of at least n bytes, tables whose filter says no row starts with the prefix are skipped
   * (counted in {@link DbStats.PrefixScanStats#tablesSkipped()}). Close the scanner as for {@link
   * #scan}.
   */
  public CellScanner scanPrefix(byte[] rowPrefix) throws IOException {
    Limits.requireNonNull(rowPrefix, "rowPrefix");
    return reads.scanPrefix(rowPrefix);
  }

  /**
   * The values under {@code keys} (key-value view: rows with the empty column), aligned with the
   * list, null where absent or deleted: the same answers as {@link #get(byte[])} for each, read
   * together ({@link dev.strata.engine.read.BatchedGets}). Each counts as a Get.
   */
  public List<byte[]> multiGet(List<byte[]> keys) throws IOException {
    return reads.multiGet(keys);
  }

  /**
   * The values of cells (rows[i], columns[i]), aligned with the lists, null where absent or
   * deleted; see {@link #multiGet(List)}.
   *
   * @throws IllegalArgumentException when the lists differ in size
   */
  public List<byte[]> multiGet(List<byte[]> rows, List<byte[]> columns) throws IOException {
    return reads.multiGet(rows, columns);
  }

  /**
   * False when cell (row, column) is certainly absent; true when it may be present. Reads no data
   * block: the memtables, then the row ranges and filters of the tables that could hold it
   * (RocksDB's keyMayExist). Never false for a live cell.
   */
  public boolean mayContain(byte[] row, byte[] column) throws IOException {
    Limits.checkCell(row, column);
    return reads.mayContain(row, column);
  }

  /**
   * A cursor over the live cells as of this call, unpositioned: seek it first. It moves both ways
   * and pins the files it reads until closed; closing the database closes it.
   */
  public CellCursor cursor() throws IOException {
    return reads.cursor(null);
  }

  /** A cursor over the live cells as of {@code snapshot}; see {@link #cursor()}. */
  public CellCursor cursor(Snapshot snapshot) throws IOException {
    Limits.requireNonNull(snapshot, "snapshot");
    return reads.cursor(snapshot);
  }

  /**
   * Pins the database as of now: reads through the snapshot see exactly the writes acknowledged
   * before this call, until the snapshot is closed. Compactions keep the versions it needs.
   */
  public Snapshot snapshot() {
    return reads.snapshot();
  }

  /**
   * Writes the memtable out as a table; durable on return, batches of commit markers alone
   * included (their log is forced when the memtable holds no entry). Waits for the flush of the memtable it
   * froze (or, when the memtable was empty, of the newest one already frozen), not for anything
   * frozen after it: flushes complete in freezing order, so that one covers every earlier write.
   */
  public void flush() throws IOException {
    ensureWritable();
    writePath.flush();
  }

  /**
   * Forces the log to the device without a flush, like RocksDB's {@code SyncWAL}: on return every
   * write acknowledged before the call survives a power loss, as if written with {@code
   * syncWrites(true)} (a no-op then). It forces the log taking writes and those of frozen memtables
   * not yet flushed, without holding up writers, flushes or reads. The forced lengths are not
   * recorded in the manifest, as a clean close records them: a later loss of those bytes (a device
   * that lied about the fsync) is dropped as a torn tail rather than failing the open, and a call
   * costs the log fsyncs only, no manifest write. A failed fsync stops writes until reopen.
   */
  public void syncWal() throws IOException {
    ensureWritable();
    writePath.syncWal();
  }

  /**
   * Starts a bulk load: until the returned handle is closed, level 0 is compacted only once it
   * holds {@code level0CompactionTrigger} tables, and the level-0 write stalls rise with it, for
   * writes in random key order whose every flush overlaps all of level 1 (see {@link BulkLoad}).
   *
   * @throws IllegalArgumentException when {@code level0CompactionTrigger} is not in [1, {@value
   *     CompactionOptions#MAX_LEVEL0_COMPACTION_TRIGGER}]
   */
  public BulkLoad bulkLoad(int level0CompactionTrigger) {
    ensureWritable();
    return new BulkLoad(state, background, writePath, level0CompactionTrigger);
  }

  /** Flushes, then compacts every table into the last level, dropping tombstones; waits for it. */
  public void compact() throws IOException {
    flush();
    background.compactAll();
  }

  /** A snapshot of the read-path counters and of the table set now. */
  public DbStats stats() {
    state.ensureOpen();
    return statistics.dbStats();
  }

  /** Counters of the write path: acknowledged writes and the log writes that carried them. */
  public WriteStats writeStats() {
    state.ensureOpen();
    return writePath.stats();
  }

  /** The options the database was opened with. */
  public DbOptions options() {
    return options;
  }

  /**
   * A multi-line summary of the database now, like RocksDB's {@code rocksdb.stats}: tables and
   * bytes per level, the read path's counters, prefix scans, writes and snapshots.
   */
  public String describe() {
    return DbDescription.format(dir.toString(), stats(), writeStats(), levelStats());
  }

  /**
   * An estimate of the entries the database holds now (RocksDB's {@code rocksdb.estimate-num-keys}):
   * the entries of the memtables and of every table, tombstones and overwritten versions included,
   * so it counts a key once per version a compaction has not yet merged. Reads nothing from disk:
   * a count kept by the memtables and the manifest.
   */
  public long approximateEntries() {
    state.ensureOpen();
    return statistics.approximateEntries();
  }

  /** The number of tables at each level now, level 0 first. */
  public List<Integer> tablesPerLevel() {
    state.ensureOpen();
    return statistics.tablesPerLevel();
  }

  /** The bytes of the tables at each level now, level 0 first (what the compaction picker sizes). */
  public List<Long> bytesPerLevel() {
    state.ensureOpen();
    return statistics.bytesPerLevel();
  }

  /**
   * Each level that holds tables, level 0 first: tables, entries, bytes, filter bytes, the filters'
   * bits per key and their model's expected false positives ({@link LevelStats}). Reads nothing
   * from disk: the manifest records every figure.
   */
  public List<LevelStats> levelStats() {
    state.ensureOpen();
    return statistics.levelStats();
  }

  /**
   * Whether a flush or compaction is running or due now. False means the tree has quiesced: with
   * no more writes it stays as it is; a benchmark waits for this before it measures reads.
   */
  public boolean backgroundWorkPending() {
    state.ensureOpen();
    return background.pending();
  }

  /**
   * Waits for background work to finish, closes the log and every file, and releases the lock.
   * Writes acknowledged before are in the log (and with {@code syncWrites} on disk); the next open
   * replays them. Idempotent.
   */
  @Override
  public void close() throws IOException {
    // As in open: a pending interrupt would fail the wait for the background threads and the
    // logs' last writes.
    InterruptSetAside.run(() -> shutdown.close(management));
  }

  /** For every call that writes: the database is open, and not read-only. */
  private void ensureWritable() {
    state.ensureOpen();
    if (options.files().readOnly()) {
      throw new IllegalStateException("database is open read-only: " + dir);
    }
  }
}
