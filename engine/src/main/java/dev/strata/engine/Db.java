package dev.strata.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.compaction.BackgroundThreads;
import dev.strata.engine.compaction.Compaction;
import dev.strata.engine.compaction.CompactionPicker;
import dev.strata.engine.compaction.OutputTables;
import dev.strata.engine.compaction.SnapshotStripes;
import dev.strata.engine.fs.Closeables;
import dev.strata.engine.fs.DirectoryLock;
import dev.strata.engine.fs.FileDescriptors;
import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.log.BatchCodec;
import dev.strata.engine.log.LogFormat;
import dev.strata.engine.log.LogWriter;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.manifest.ManifestWriteException;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.observe.DbDescription;
import dev.strata.engine.observe.MBeans;
import dev.strata.engine.observe.FlightRecording;
import dev.strata.engine.observe.SlowReadEvent;
import dev.strata.engine.read.BatchedGets;
import dev.strata.engine.read.DbCursor;
import dev.strata.engine.read.DbScanner;
import dev.strata.engine.read.InternalIterator;
import dev.strata.engine.read.MergingIterator;
import dev.strata.engine.read.OpenReaders;
import dev.strata.engine.read.PrefixScans;
import dev.strata.engine.read.ReadPath;
import dev.strata.engine.read.ReadPathWarmUp;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.write.Limits;
import dev.strata.engine.write.Mutation;
import dev.strata.engine.write.WriteController;
import dev.strata.engine.write.WriterQueue;
import dev.strata.engine.write.WriterQueue.Writer;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.CacheStats;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableReadStats;
import dev.strata.sstable.cache.ClockBlockCache;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import javax.management.ObjectName;

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
/*
 * Concurrency. Mutable engine state (the memtable, the frozen memtables, the log, the current
 * version, the writer queue, background flags) is guarded by one ReentrantLock, `mutex`. Reads never
 * take it: they acquire the volatile `view` (memtables + version, reference-counted) and read the
 * volatile `lastSequence` as their snapshot. A write is visible once `lastSequence` covers it, which
 * is published only after its entries are in the memtable, so a read never sees half a batch.
 *
 * Writes queue up (write.WriterQueue, LevelDB's writer queue): the writer at the head becomes the
 * leader, takes the batches queued behind it as one group, appends them to the log in one write
 * with the mutex released (only the head of the queue touches the log), inserts them into the
 * memtable, publishes their sequence numbers, and wakes the group. Switching the memtable and the
 * log happens only at the head of the queue (a flush request is queued like a write, as a barrier),
 * so it never races a leader's log write.
 *
 * Two background threads (compaction.BackgroundThreads) run flushes and compactions, so a flush
 * never waits for a compaction. Their edits cannot conflict: a flush only adds a level-0 table
 * newer than anything a compaction reads, and the single compaction thread picks from the current
 * version, so no table is in two compactions. Each job works with the mutex released (its inputs
 * are immutable: a frozen memtable, or tables of a version it holds a reference on) and installs
 * its edit against whatever version is current when it finishes, under the mutex. Flushes install
 * in freezing order (one flush thread, oldest frozen memtable first), so the log number an install
 * records is always that of the oldest memtable not yet in a table. Files leave the disk only when
 * no version lists them any more (version.TableRef), so a running job or read never loses one.
 *
 * Writers are held back so that compaction keeps up (write.WriteController): level 0 at its
 * slowdown trigger delays each write group, at its stop trigger stops writes, and a memtable is
 * frozen only when level 0 has room for it once flushed, so level 0 never exceeds the stop trigger.
 * A memtable too large for one table becomes several; its flush waits, before it installs, for a
 * level-0 compaction when they would not fit (the only case where a flush waits for a compaction).
 */
public final class Db implements AutoCloseable {
  /** Longest row in bytes; rows are 1..MAX_ROW_LENGTH. */
  public static final int MAX_ROW_LENGTH = Limits.MAX_ROW_LENGTH;

  /** Longest column in bytes; columns are 0..MAX_COLUMN_LENGTH. */
  public static final int MAX_COLUMN_LENGTH = Limits.MAX_COLUMN_LENGTH;

  /** Longest value in bytes; values are 0..MAX_VALUE_LENGTH. */
  public static final int MAX_VALUE_LENGTH = Limits.MAX_VALUE_LENGTH;

  private static final System.Logger LOG = System.getLogger(Db.class.getName());
  private static final byte[] EMPTY = new byte[0];

  /** Frozen memtables allowed to wait for flush before writers stall. */
  private static final int MAX_FROZEN_MEMTABLES = 2;

  /** Bytes of batches a leader groups into one log write, at most (LevelDB's 1 MiB). */
  private static final long MAX_GROUP_BYTES = 1 << 20;

  private final Path dir;
  private final DbOptions options;
  /** Logs and tables are written through this: the real file system but in fault tests. */
  private final FileLayer files;
  /** The exclusive directory lock; null for a read-only open, which takes none. */
  private final DirectoryLock lock;
  private final BlockCache cache;
  /** The open table readers, at most options.maxOpenFiles() of them. */
  private final TableCache tables;
  /** Read costs of Gets and scans; compaction counts into a counter of its own. */
  private final ReadCounters readCounters = new ReadCounters();
  private final LongAdder gets = new LongAdder();
  private final LongAdder writesAcknowledged = new LongAdder();
  private final LongAdder logWrites = new LongAdder();
  private final LongAdder logSyncs = new LongAdder();
  private final CompactionPicker picker;
  private final OutputTables outputs;
  /** Open scanners, which close() closes so none keeps a file open past it. */
  private final OpenReaders readers = new OpenReaders();
  private final BackgroundThreads background = new BackgroundThreads();
  private final WriteController writeController;

  /** Run before each flush and compaction reads its inputs, without the mutex; test seams. */
  private volatile Runnable beforeFlush = () -> {};

  private volatile Runnable beforeCompaction = () -> {};
  /** Run under the mutex when a writer starts to wait in makeRoom; for tests of write stops. */
  private volatile Runnable onWriterStop = () -> {};
  /** The directory as slow-read events name it. */
  private final String dirName;
  /** The registered management bean's name; null when registration failed. */
  private volatile ObjectName management;
  /** Which tables prefix scans read, and their counters. */
  private final PrefixScans prefixScans = new PrefixScans();
  /** Live snapshots; flushes and compactions keep what they see. */
  private final Snapshots snapshots = new Snapshots();

  private final ReentrantLock mutex = new ReentrantLock();
  /** Signalled when background work finishes a step, fails, or stops. */
  private final Condition backgroundProgress = mutex.newCondition();

  /** Writers waiting their turn; the head writes the group (group commit). */
  private final WriterQueue writers;

  @GuardedBy("mutex")
  private MemTable mem = new MemTable();

  /** Frozen memtables with the log that holds each, newest first. */
  @GuardedBy("mutex")
  private final ArrayDeque<Frozen> frozen = new ArrayDeque<>();

  @GuardedBy("mutex")
  private LogWriter log;

  /**
   * The oldest log holding entries of the mutable memtable: the current log, except after a
   * recovery that kept the replayed logs (see resumeLogs), when the memtable spans them all.
   */
  @GuardedBy("mutex")
  private long memLogNumber;

  /** The current version, its manifest and the file numbers. */
  private final VersionSet versions;

  @GuardedBy("mutex")
  private boolean flushScheduled;

  @GuardedBy("mutex")
  private boolean compactionScheduled;

  /** The flush thread waits for level 0 to be compacted before it installs (awaitLevelZeroRoom). */
  @GuardedBy("mutex")
  private boolean flushWaitsForLevelZero;

  /** The picker's estimate for the current version, kept for the write controller. */
  @GuardedBy("mutex")
  private long pendingCompactionBytes;

  @GuardedBy("mutex")
  private long manualCompactionsRequested;

  @GuardedBy("mutex")
  private long manualCompactionsDone;

  @GuardedBy("mutex")
  private boolean closing;

  /** What the open's log replay dropped (DbStats): set before the database is published. */
  private long walBytesDroppedAtOpen;

  private long walRecordsDroppedAtOpen;

  private volatile ReadView view;
  private volatile long lastSequence;
  /** Failures of flushes and compactions: retried when they lost nothing, else final. */
  private final BackgroundErrors backgroundErrors;
  private volatile boolean closed;

  private Db(Path dir, DbOptions options, DirectoryLock lock) {
    this.dir = dir;
    this.dirName = dir.toString();
    this.options = options;
    this.files = options.fileLayer();
    this.lock = lock;
    this.cache = new ClockBlockCache(options.blockCacheBytes(), options.effectiveBlockCacheShards());
    this.tables = new TableCache(dir, options.maxOpenFiles(), cache, readCounters, mutex);
    if (options.readOnly()) {
      tables.servesReadOnlyOpen();
    }
    if (options.pinL0FilterAndIndexBlocksInCache()) {
      tables.pinsLevelZeroMetadata();
    }
    this.picker = new CompactionPicker(options);
    this.writeController = options.writeController();
    this.versions = new VersionSet(dir, mutex, files);
    this.backgroundErrors = new BackgroundErrors(dir, mutex);
    this.writers =
        new WriterQueue(
            mutex,
            MAX_GROUP_BYTES,
            () -> {
              if (closing) {
                backgroundProgress.signalAll(); // close() waits for the queue to drain
              }
            });
    this.outputs =
        new OutputTables(
            dir,
            files,
            options.tableOptions(),
            options.targetFileSizeBytes(),
            versions::newFileNumber,
            tables,
            () -> SnapshotStripes.of(snapshots.sequences()),
            options.maxTableBlockBytes(),
            options.maxSubcompactions());
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
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(options, "options");
    OpenPreload.start();
    // A read-only open writes nothing, not even the lock file: see DbOptions.Builder.readOnly.
    if (!options.readOnly()) {
      Files.createDirectories(dir);
    }
    DirectoryLock lock = options.readOnly() ? null : DirectoryLock.acquire(dir);
    // A failed open releases everything it took, the lock last, so the caller can fix the cause
    // and open again in this process.
    Db db;
    try {
      db = new Db(dir, options, lock);
    } catch (Throwable t) {
      Closeables.closeSuppressing(t, lock);
      throw t;
    }
    try {
      db.recover();
      db.openTablesAhead();
      db.startBackgroundWork();
      db.management = MBeans.register(dir, new DbManagement(db, dir.toString()));
      return db;
    } catch (Throwable t) {
      Closeables.closeSuppressing(t, db::abandonOpen);
      throw t;
    }
  }

  /**
   * Brings the on-disk state to a clean start: the logs a crash left are replayed; they stay the
   * memtable's logs when they fit in it ({@link #resumeLogs}), else they are written to a level-0
   * table and a new log begins (never appending after a dropped stretch); the manifest records it,
   * and files no manifest lists (outputs of an interrupted flush or compaction) are deleted.
   */
  private void recover() throws IOException {
    Recovery r = Recovery.run(dir, tables, options);
    walBytesDroppedAtOpen = r.replay.droppedBytes();
    walRecordsDroppedAtOpen = r.replay.droppedRecords();
    mutex.lock();
    try {
      if (options.readOnly()) {
        // Serve what recovery found: the tables and, in memory, the replayed logs. Nothing is
        // written or deleted, no log is opened and no background work is scheduled.
        versions.start(Version.of(r.levels), r.nextFileNumber);
        lastSequence = r.lastSequence;
        mem = r.replayed;
        publishView();
        return;
      }
      versions.start(Version.of(r.levels), r.nextFileNumber);
      lastSequence = r.lastSequence;
      if (!resumeLogs(r)) {
        VersionEdit edit = new VersionEdit();
        if (!r.replayed.isEmpty()) {
          outputs.flush(r.replayed).forEach(edit::add);
        }
        long logNumber = versions.newFileNumber();
        log =
            LogWriter.create(files, FileNames.log(dir, logNumber), logNumber, options.syncWrites());
        memLogNumber = logNumber;
        publishView();
        install(edit, logNumber);
      }
      versions.deleteUnlistedFiles();
    } finally {
      mutex.unlock();
    }
    tables.reclaimRetired();
  }

  /**
   * Opens the tables of the recovered version before the first read needs them, level 0 first
   * (see {@link TableCache#openAhead}): what opening a table reads (footer, properties, filter
   * index, index root) then counts in {@code bytesReadAtOpen} and costs the open, as in RocksDB,
   * and the first Get reads only the blocks it needs. Before background work starts, so no
   * compaction deletes a table under it. Takes at most half of the descriptors the process has
   * left: the reads open the rest when they need them, as they would have without this. The
   * first open in a JVM also runs the Get path once on the side ({@link ReadPathWarmUp}).
   */
  private void openTablesAhead() {
    List<FileMetadata> files;
    mutex.lock();
    try {
      files = versions.current().files();
    } finally {
      mutex.unlock();
    }
    tables.openAhead(files, FileDescriptors.free() / 2);
    if (!files.isEmpty()) {
      ReadPathWarmUp.onceInThisJvm(dir, files.get(0));
    }
  }

  /** Schedules the flushes and compactions recovery left due; none for a read-only open. */
  private void startBackgroundWork() {
    if (options.readOnly()) {
      return;
    }
    mutex.lock();
    try {
      scheduleBackgroundWork();
    } finally {
      mutex.unlock();
    }
  }

  /**
   * Recovery without a flush (RocksDB's {@code avoid_flush_during_recovery}), so that reopening
   * needs no free space: when the replayed logs fit in the memtable, they become the memtable's
   * logs and the newest one takes the next writes. It applies only when nothing was dropped but a
   * torn tail of the newest log (cut off here, so the log is a clean prefix again), and when that
   * log ends with the newest sequence number (a new record must follow its last one, see {@link
   * dev.strata.engine.log.LogReplay}). The older logs are forced first: a power loss must not cut
   * them behind records appended to the newest. Returns false, having changed nothing, otherwise.
   */
  @GuardedBy("mutex")
  private boolean resumeLogs(Recovery r) throws IOException {
    if (r.logs.isEmpty() || r.replayed.approximateBytes() >= options.memtableBytes()) {
      return false;
    }
    if (r.replay.stop() != null && !r.replay.tornTailOnly()) {
      return false;
    }
    if (r.replay.records() > 0 && r.replay.lastReplayedSequence() != r.lastSequence) {
      return false;
    }
    long newest = r.logs.lastKey();
    Path newestFile = r.logs.get(newest);
    long validLength =
        r.replay.stop() == null ? Files.size(newestFile) : r.replay.stop().offset();
    if (validLength < LogFormat.FILE_HEADER_BYTES) {
      return false; // a log whose header was never written whole: start a new one
    }
    for (Path older : r.logs.headMap(newest).values()) {
      LogWriter.force(files, older);
    }
    log = LogWriter.reopen(files, newestFile, newest, validLength, options.syncWrites());
    mem = r.replayed;
    memLogNumber = r.logs.firstKey();
    publishView();
    return true;
  }

  /**
   * Makes every compaction run {@code hook} on the compaction thread, without the mutex, before it
   * reads its inputs: a test holds compactions there to show what does not wait for them.
   */
  void beforeEachCompaction(Runnable hook) {
    beforeCompaction = Objects.requireNonNull(hook, "hook");
  }

  /**
   * Makes every writer run {@code hook}, under the mutex, when it starts to wait for room (a stop,
   * which {@link WriteStats#stops} counts once it ends): a test learns the writer is stopped now.
   */
  void onEachWriterStop(Runnable hook) {
    onWriterStop = Objects.requireNonNull(hook, "hook");
  }

  /** Table readers open now, leased or not; for tests of the {@code maxOpenFiles} bound. */
  int openTableReaders() {
    return tables.openReaders();
  }

  /** Makes every flush run {@code hook} on the flush thread, without the mutex, before it writes. */
  void beforeEachFlush(Runnable hook) {
    beforeFlush = Objects.requireNonNull(hook, "hook");
  }

  /** Releases what a failed open holds. */
  private void abandonOpen() throws IOException {
    closed = true;
    mutex.lock();
    try {
      closing = true; // a background step scheduled by recover() does nothing now
    } finally {
      mutex.unlock();
    }
    try {
      background.shutdown(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    mutex.lock();
    try {
      if (log != null) {
        Closeables.closeSuppressing(null, log);
      }
      if (view != null) {
        view.release();
      }
      versions.close();
    } finally {
      mutex.unlock();
      tables.close();
      if (lock != null) {
        lock.close();
      }
    }
  }

  // ---------------------------------------------------------------- writes

  /** Puts {@code value} under {@code key} (row {@code key}, empty column). */
  public void put(byte[] key, byte[] value) throws IOException {
    Limits.checkKeyPut(key, value);
    write(List.of(Mutation.put(key, EMPTY, value)));
  }

  /** Deletes {@code key} (row {@code key}, empty column). */
  public void delete(byte[] key) throws IOException {
    Limits.checkKey(key);
    write(List.of(Mutation.delete(key, EMPTY)));
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

  /** Applies {@code batch} atomically: all of it or, also across a crash, none. */
  public void write(WriteBatch batch) throws IOException {
    Limits.requireNonNull(batch, "batch");
    if (!batch.isEmpty()) {
      write(batch.mutations());
    } else {
      ensureWritable();
    }
  }

  /**
   * Queues the write and returns once it is in the log and the memtable. The mutations' arrays are
   * the caller's own (a single put's, not copied) or a batch's copies: they are read while the call
   * lasts, encoded into the log record and copied into the memtable's arena, and never kept. The thread that reaches the head of the queue writes its group.
   */
  private void write(List<Mutation> mutations) throws IOException {
    ensureWritable();
    mutex.lock();
    try {
      Writer head = writers.enqueue(mutations);
      if (head != null) {
        lead(head);
      }
    } finally {
      mutex.unlock();
    }
  }

  /**
   * Runs at the head of the writer queue: writes the head's group, then hands the head on. For a
   * barrier it freezes the memtable and returns the newest frozen memtable (the one it froze, or
   * the one before when the memtable was empty; null when none waits), whose flush makes every
   * write before the barrier durable.
   */
  @GuardedBy("mutex")
  private Frozen lead(Writer head) throws IOException {
    assert mutex.isHeldByCurrentThread();
    List<Writer> group = List.of(head);
    Throwable failure = null;
    try {
      if (closing) {
        throw new IllegalStateException("database is closed: " + dir);
      }
      throwIfBackgroundFailed();
      if (head.isBarrier()) {
        makeRoom(true);
        return frozen.peekFirst();
      }
      makeRoom(false); // may wait: writers queued meanwhile join this group
      group = writers.group(head);
      delayIfSlowingDown(group);
      appendGroup(group);
      return null;
    } catch (Throwable t) {
      failure = t;
      throw t;
    } finally {
      writers.finish(group, failure);
    }
  }

  /**
   * Logs the group in one write and applies it to the memtable, with the mutex released: only the
   * head of the queue gets here, and the memtable takes concurrent readers. A failed log write
   * fails the group only: the log writer cuts the file back to its last complete record and takes
   * the next group (an interrupt it even retries). Only a log writer that could not do so (a failed
   * fsync, a failed repair) stops all further writes, because the log's durable state is unknown.
   */
  @GuardedBy("mutex")
  private void appendGroup(List<Writer> group) throws IOException {
    long first = lastSequence + 1;
    List<byte[]> records = group.size() == 1 ? null : new ArrayList<>(group.size());
    long seq = first;
    if (records == null) { // the usual group of one: no list to grow
      records = List.of(BatchCodec.encode(seq, group.get(0).mutations()));
      seq += group.get(0).mutations().size();
    } else {
      for (Writer w : group) {
        records.add(BatchCodec.encode(seq, w.mutations()));
        seq += w.mutations().size();
      }
    }
    MemTable target = mem;
    LogWriter targetLog = log;
    mutex.unlock();
    try {
      targetLog.append(records);
      logWrites.increment();
      if (options.syncWrites()) {
        logSyncs.increment();
      }
    } catch (IOException e) {
      if (targetLog.failed()) {
        backgroundErrors.recordPermanent(e);
      }
      throw e;
    } finally {
      mutex.lock();
    }
    seq = first;
    for (Writer w : group) {
      for (Mutation m : w.mutations()) {
        target.add(m.kind(), m.row(), m.column(), seq++, m.value());
      }
    }
    lastSequence = seq - 1;
    writesAcknowledged.add(group.size());
  }

  /**
   * Waits until a write may go ahead, freezing the memtable when it is full or when {@code freeze}
   * asks for it (a barrier). Writes stop while the write controller says so; a memtable is frozen
   * only when fewer than {@link #MAX_FROZEN_MEMTABLES} wait for their flush and level 0 has room
   * for every frozen memtable. A stop is counted once, with the whole time it lasted.
   */
  @GuardedBy("mutex")
  private void makeRoom(boolean freeze) throws IOException {
    assert mutex.isHeldByCurrentThread();
    boolean stopped = false;
    long stoppedAt = 0;
    try {
      while (true) {
        throwIfBackgroundFailed();
        if (closing) {
          throw new IllegalStateException("database is closed: " + dir);
        }
        int levelZero = versions.current().level(0).size();
        boolean wait;
        if (freeze) {
          if (mem.isEmpty()) {
            return;
          }
          wait = !roomToFreeze(levelZero);
        } else if (writeController.mustStop(levelZero, pendingCompactionBytes)) {
          wait = true;
        } else if (mem.approximateBytes() < options.memtableBytes()) {
          return;
        } else {
          wait = !roomToFreeze(levelZero);
        }
        if (!wait) {
          freezeMemTable();
          if (freeze) {
            return;
          }
        } else {
          // Waiting for a flush or compaction that keeps failing would hang the writer: it fails
          // now with the failure, and the job retries on its own (BackgroundErrors).
          backgroundErrors.throwIfRetrying();
          if (!stopped) {
            stopped = true;
            stoppedAt = System.nanoTime();
            onWriterStop.run();
          }
          backgroundProgress.awaitUninterruptibly();
        }
      }
    } finally {
      if (stopped) {
        writeController.recordStop(System.nanoTime() - stoppedAt);
      }
    }
  }

  @GuardedBy("mutex")
  private boolean roomToFreeze(int levelZero) {
    return frozen.size() < MAX_FROZEN_MEMTABLES
        && !writeController.mustNotFreeze(levelZero, frozen.size());
  }

  /**
   * Delays the group when level 0 or the pending compaction bytes are in the slowdown range, with
   * the mutex released: writers arriving meanwhile queue behind the group.
   */
  @GuardedBy("mutex")
  private void delayIfSlowingDown(List<Writer> group) {
    long bytes = 0;
    for (Writer w : group) {
      bytes += w.bytes();
    }
    long delay =
        writeController.delayNanos(
            versions.current().level(0).size(), pendingCompactionBytes, bytes);
    if (delay == 0) {
      return;
    }
    long start = System.nanoTime();
    mutex.unlock();
    try {
      for (long left = delay; left > 0; left = start + delay - System.nanoTime()) {
        LockSupport.parkNanos(left); // not interruptible: a write in progress is never abandoned
      }
    } finally {
      mutex.lock();
    }
    writeController.recordSlowdown(System.nanoTime() - start);
  }

  /** Freezes the memtable (if it holds anything) behind a new log and schedules its flush. */
  @GuardedBy("mutex")
  private void freezeMemTable() throws IOException {
    assert mutex.isHeldByCurrentThread();
    if (mem.isEmpty()) {
      return;
    }
    long number = versions.newFileNumber();
    LogWriter next = LogWriter.create(files, FileNames.log(dir, number), number, options.syncWrites());
    LogWriter old = log;
    log = next;
    mem.freeze();
    frozen.addFirst(new Frozen(mem, memLogNumber));
    mem = new MemTable();
    memLogNumber = number;
    publishView();
    scheduleBackgroundWork(); // first: whatever happens to the old log, its memtable gets flushed
    retire(old);
  }

  /**
   * Forces a log that takes no more writes, with its directory entry, then closes it. Without
   * this, under {@code syncWrites(false)}, a power loss could keep the next log's records while
   * this one loses its tail: a history with a hole, of which recovery keeps only the part before
   * it (see {@link WalRecoveryMode}). So the older log is whole on disk before the newer one takes
   * a write (the caller is at the head of the writer queue). A failure here loses nothing the
   * process holds: the frozen memtable is flushed from memory all the same; it is logged.
   */
  @GuardedBy("mutex")
  private void retire(LogWriter old) {
    try {
      if (!options.syncWrites()) { // with syncWrites every append was forced, and the entry too
        old.sync();
        files.syncDirectory(dir);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "could not force " + old.file() + " before switching logs; its memtable is flushed from"
              + " memory, until then a power loss may cut this log",
          e);
    } finally {
      try {
        old.close();
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "could not close " + old.file(), e);
      }
    }
  }

  /** A frozen memtable waiting for its flush, with the log that holds it. */
  private static final class Frozen {
    final MemTable mem;
    final long logNumber;

    /** Set once the memtable is in a table the manifest lists; flush() waits for it. */
    @GuardedBy("mutex")
    boolean flushed;

    Frozen(MemTable mem, long logNumber) {
      this.mem = mem;
      this.logNumber = logNumber;
    }
  }

  // ---------------------------------------------------------------- reads

  /** The value under {@code key} (row {@code key}, empty column), or null when absent or deleted. */
  public byte[] get(byte[] key) throws IOException {
    Limits.checkKey(key);
    return read(null, key, EMPTY);
  }

  /** The value of cell (row, column), or null when absent or deleted. */
  public byte[] get(byte[] row, byte[] column) throws IOException {
    Limits.checkCell(row, column);
    return read(null, row, column);
  }

  /** The value of cell (row, column) as of {@code snapshot}, or null when absent or deleted then. */
  public byte[] get(Snapshot snapshot, byte[] row, byte[] column) throws IOException {
    Limits.requireNonNull(snapshot, "snapshot");
    Limits.checkCell(row, column);
    return read(snapshot, row, column);
  }

  private byte[] read(Snapshot s, byte[] row, byte[] column) throws IOException {
    ensureOpen();
    long pinned = pinnedSequence(s);
    gets.increment();
    SlowReadEvent slow = FlightRecording.startRead();
    ReadView v = acquireView();
    long snapshot = s == null ? lastSequence : pinned; // after the view: see acquireView
    try {
      return ReadPath.get(v, snapshot, row, column);
    } finally {
      v.release();
      FlightRecording.finishRead(slow, dirName, "get", 1);
    }
  }

  /**
   * The live columns of {@code row} with their values, in unsigned byte order of the column; empty
   * (never null) when there are none. Tables whose row filter says the row is absent are skipped.
   */
  public NavigableMap<byte[], byte[]> getRow(byte[] row) throws IOException {
    return readRow(null, row);
  }

  /** The live columns of {@code row} as of {@code snapshot}; see {@link #getRow(byte[])}. */
  public NavigableMap<byte[], byte[]> getRow(Snapshot snapshot, byte[] row) throws IOException {
    Limits.requireNonNull(snapshot, "snapshot");
    return readRow(snapshot, row);
  }

  private NavigableMap<byte[], byte[]> readRow(Snapshot s, byte[] row) throws IOException {
    Limits.checkRow(row);
    ensureOpen();
    long pinned = pinnedSequence(s);
    ReadView v = acquireView();
    long snapshot = s == null ? lastSequence : pinned; // after the view: see acquireView
    List<InternalIterator> sources;
    try {
      sources = ReadPath.rowSources(v, row);
    } catch (IOException | RuntimeException e) {
      v.release();
      throw e;
    }
    NavigableMap<byte[], byte[]> out = new TreeMap<>(Arrays::compareUnsigned);
    byte[] successor = Arrays.copyOf(row, row.length + 1); // the smallest row after `row`
    try (DbScanner cells =
        new DbScanner(v, new MergingIterator(sources), snapshot, row, successor, readers)) {
      while (cells.hasNext()) {
        Cell c = cells.next();
        out.put(c.column(), c.value());
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return out;
  }

  /**
   * The live cells with {@code fromRowInclusive <= row < toRowExclusive} (null: unbounded), in
   * (row, column) order, as of this call: later writes are not seen. Close the scanner to release
   * the files it pins; I/O errors while iterating surface as {@link UncheckedIOException}.
   * Closing the database closes its open scanners: after {@link #close()} every use of one throws
   * {@link IllegalStateException}, and none keeps a file open.
   */
  public CellScanner scan(byte[] fromRowInclusive, byte[] toRowExclusive) throws IOException {
    return openScan(null, fromRowInclusive, toRowExclusive);
  }

  /**
   * The live cells with {@code fromRowInclusive <= row < toRowExclusive} as of {@code snapshot};
   * see {@link #scan(byte[], byte[])}.
   */
  public CellScanner scan(Snapshot snapshot, byte[] fromRowInclusive, byte[] toRowExclusive)
      throws IOException {
    Limits.requireNonNull(snapshot, "snapshot");
    return openScan(snapshot, fromRowInclusive, toRowExclusive);
  }

  private CellScanner openScan(Snapshot s, byte[] fromRowInclusive, byte[] toRowExclusive)
      throws IOException {
    ensureOpen();
    long pinned = pinnedSequence(s);
    ReadView v = acquireView();
    long snapshot = s == null ? lastSequence : pinned; // after the view: see acquireView
    byte[] from = fromRowInclusive == null ? null : fromRowInclusive.clone();
    byte[] to = toRowExclusive == null ? null : toRowExclusive.clone();
    List<InternalIterator> sources;
    try {
      sources = ReadPath.allSources(v);
    } catch (IOException | RuntimeException e) {
      v.release();
      throw e;
    }
    return new DbScanner(v, new MergingIterator(sources), snapshot, from, to, readers);
  }

  /**
   * The live cells of the rows starting with {@code rowPrefix}, in (row, column) order, as of this
   * call (the empty prefix: every row). With {@link DbOptions.Builder#prefixBloomLength} n and a
   * prefix of at least n bytes, tables whose filter says no row starts with the prefix are skipped
   * (counted in {@link DbStats#prefixTablesSkipped()}). Close the scanner as for {@link #scan}.
   */
  public CellScanner scanPrefix(byte[] rowPrefix) throws IOException {
    Limits.requireNonNull(rowPrefix, "rowPrefix");
    ensureOpen();
    byte[] prefix = rowPrefix.clone();
    ReadView v = acquireView();
    long snapshot = lastSequence; // after the view: see acquireView
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

  /**
   * The values under {@code keys} (key-value view: rows with the empty column), aligned with the
   * list, null where absent or deleted: the same answers as {@link #get(byte[])} for each, read
   * together ({@link dev.strata.engine.read.BatchedGets}). Each counts as a Get.
   */
  public List<byte[]> multiGet(List<byte[]> keys) throws IOException {
    Limits.requireNonNull(keys, "keys");
    byte[][] rows = new byte[keys.size()][];
    byte[][] columns = new byte[keys.size()][];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = keys.get(i);
      Limits.checkKey(rows[i]);
      columns[i] = EMPTY;
    }
    return readAll(rows, columns);
  }

  /**
   * The values of cells (rows[i], columns[i]), aligned with the lists, null where absent or
   * deleted; see {@link #multiGet(List)}.
   *
   * @throws IllegalArgumentException when the lists differ in size
   */
  public List<byte[]> multiGet(List<byte[]> rows, List<byte[]> columns) throws IOException {
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
    return readAll(r, c);
  }

  private List<byte[]> readAll(byte[][] rows, byte[][] columns) throws IOException {
    ensureOpen();
    gets.add(rows.length);
    SlowReadEvent slow = FlightRecording.startRead();
    ReadView v = acquireView();
    long snapshot = lastSequence; // after the view: see acquireView
    try {
      return Collections.unmodifiableList(Arrays.asList(BatchedGets.get(v, snapshot, rows, columns)));
    } finally {
      v.release();
      FlightRecording.finishRead(slow, dirName, "multiGet", rows.length);
    }
  }

  /**
   * False when cell (row, column) is certainly absent; true when it may be present. Reads no data
   * block: the memtables, then the row ranges and filters of the tables that could hold it
   * (RocksDB's keyMayExist). Never false for a live cell.
   */
  public boolean mayContain(byte[] row, byte[] column) throws IOException {
    Limits.checkCell(row, column);
    ensureOpen();
    ReadView v = acquireView();
    long snapshot = lastSequence; // after the view: see acquireView
    try {
      return ReadPath.mayContain(v, snapshot, row, column);
    } finally {
      v.release();
    }
  }

  /**
   * A cursor over the live cells as of this call, unpositioned: seek it first. It moves both ways
   * and pins the files it reads until closed; closing the database closes it.
   */
  public CellCursor cursor() throws IOException {
    return openCursor(null);
  }

  /** A cursor over the live cells as of {@code snapshot}; see {@link #cursor()}. */
  public CellCursor cursor(Snapshot snapshot) throws IOException {
    Limits.requireNonNull(snapshot, "snapshot");
    return openCursor(snapshot);
  }

  private CellCursor openCursor(Snapshot s) throws IOException {
    ensureOpen();
    long pinned = pinnedSequence(s);
    ReadView v = acquireView();
    return new DbCursor(v, s == null ? lastSequence : pinned, readers); // after the view
  }

  /**
   * Pins the database as of now: reads through the snapshot see exactly the writes acknowledged
   * before this call, until the snapshot is closed. Compactions keep the versions it needs.
   */
  public Snapshot snapshot() {
    ensureOpen();
    return snapshots.take(() -> lastSequence);
  }

  /** The sequence {@code s} pins (checked: open and of this database); -1 for null (now). */
  private long pinnedSequence(Snapshot s) {
    return s == null ? -1 : snapshots.sequenceOf(s);
  }

  /**
   * Acquires the current view. A read takes its snapshot after this, never before: a flush or
   * compaction keeps only the newest version of a cell (besides those a registered {@link Snapshot}
   * sees), so a view published after the snapshot may
   * hold a cell's newer version (invisible at the snapshot) without the older one the snapshot
   * needs. Every table of a view acquired first holds only entries at or below the snapshot.
   */
  private ReadView acquireView() {
    while (true) {
      ReadView v = view;
      if (v.tryAcquire()) {
        return v;
      }
      ensureOpen();
    }
  }

  // ---------------------------------------------------------------- flush and compaction

  /**
   * Writes the memtable out as a table; durable on return. Waits for the flush of the memtable it
   * froze (or, when the memtable was empty, of the newest one already frozen), not for anything
   * frozen after it: flushes complete in freezing order, so that one covers every earlier write.
   */
  public void flush() throws IOException {
    ensureWritable();
    mutex.lock();
    try {
      Writer head = writers.enqueue(null); // a barrier leads its own group: never null
      Frozen target = lead(head);
      while (target != null && !target.flushed) {
        throwIfBackgroundFailed();
        if (closing) {
          throw new IllegalStateException("database is closed: " + dir);
        }
        backgroundErrors.throwIfRetrying();
        backgroundProgress.awaitUninterruptibly();
      }
      throwIfBackgroundFailed();
    } finally {
      mutex.unlock();
    }
  }

  /** Flushes, then compacts every table into the last level, dropping tombstones; waits for it. */
  public void compact() throws IOException {
    flush();
    mutex.lock();
    try {
      long ticket = ++manualCompactionsRequested;
      scheduleBackgroundWork();
      while (manualCompactionsDone < ticket) {
        throwIfBackgroundFailed();
        if (closing) {
          throw new IllegalStateException("database is closed: " + dir);
        }
        backgroundErrors.throwIfRetrying();
        backgroundProgress.awaitUninterruptibly();
      }
    } finally {
      mutex.unlock();
    }
  }

  @GuardedBy("mutex")
  private void scheduleBackgroundWork() {
    assert mutex.isHeldByCurrentThread();
    if (closing || backgroundErrors.failedPermanently()) {
      return;
    }
    if (!flushScheduled && !frozen.isEmpty()) {
      flushScheduled = true;
      background.submitFlush(this::flushStep);
    }
    boolean manual = manualCompactionsDone < manualCompactionsRequested;
    boolean auto = options.autoCompaction() && compactionNeeded();
    if (!compactionScheduled && (manual || auto)) {
      compactionScheduled = true;
      background.submitCompaction(this::compactionStep);
    }
  }

  /** One step on the flush thread: flushes the oldest frozen memtable. */
  private void flushStep() {
    mutex.lock();
    try {
      backgroundErrors.awaitRetry(backgroundProgress, () -> closing);
      if (!closing && !frozen.isEmpty()) {
        flushOldestFrozen();
        backgroundErrors.succeeded();
      }
    } catch (Throwable t) {
      recordBackgroundError(t);
    } finally {
      flushScheduled = false;
      scheduleBackgroundWork();
      backgroundProgress.signalAll();
      mutex.unlock();
    }
    tables.reclaimRetired(); // what the install retired: closed and deleted without the mutex
  }

  /** One step on the compaction thread: the manual compaction asked for, or one the tree needs. */
  private void compactionStep() {
    mutex.lock();
    try {
      backgroundErrors.awaitRetry(backgroundProgress, () -> closing);
      if (!closing) {
        if (manualCompactionsDone < manualCompactionsRequested) {
          long target = manualCompactionsRequested;
          Compaction all = picker.all(versions.current());
          if (!all.inputs().isEmpty()) {
            runCompaction(all);
          }
          manualCompactionsDone = target;
        } else if (options.autoCompaction() && picker.needsCompaction(versions.current())) {
          runCompaction(picker.pick(versions.current()));
        } else if (options.autoCompaction() && compactionNeeded()) {
          runCompaction(picker.levelZero(versions.current()));
        }
        backgroundErrors.succeeded();
      }
    } catch (Throwable t) {
      recordBackgroundError(t);
    } finally {
      compactionScheduled = false;
      scheduleBackgroundWork();
      backgroundProgress.signalAll();
      mutex.unlock();
    }
    tables.reclaimRetired(); // what the install retired: closed and deleted without the mutex
  }

  @GuardedBy("mutex")
  private void flushOldestFrozen() throws IOException {
    assert mutex.isHeldByCurrentThread();
    Frozen oldest = frozen.peekLast();
    List<TableRef> written;
    mutex.unlock();
    try {
      beforeFlush.run();
      written = outputs.flush(oldest.mem);
      if (options.pinL0FilterAndIndexBlocksInCache()) {
        // On the flush thread, before the tables are installed: the Get that first consults one
        // must not load all its metadata to pin it. A failed install drops the readers again.
        List<FileMetadata> levelZero = new ArrayList<>();
        written.forEach(t -> levelZero.add(t.metadata()));
        tables.openAhead(levelZero, FileDescriptors.free() / 2);
      }
    } finally {
      mutex.lock();
    }
    try {
      if (!awaitLevelZeroRoom(written.size())) {
        outputs.discard(written); // closing: the memtable's log stays, and the next open replays it
        return;
      }
    } catch (IOException | RuntimeException e) {
      outputs.discard(written);
      throw e;
    }
    VersionEdit edit = new VersionEdit();
    written.forEach(edit::add);
    // The memtable stays frozen (and in every view published) until its table is installed: the
    // install releases the mutex while it writes the manifest. The oldest log still needed is then
    // that of the next oldest frozen memtable, or of the memtable taking writes.
    Iterator<Frozen> oldestFirst = frozen.descendingIterator();
    oldestFirst.next();
    long logNumber = oldestFirst.hasNext() ? oldestFirst.next().logNumber : memLogNumber;
    try {
      versions.install(edit, () -> lastSequence, logNumber, true);
    } catch (IOException | RuntimeException e) {
      discardUnlessListed(written, e);
      throw e;
    }
    Frozen flushed = frozen.removeLast();
    assert flushed == oldest : "only the flush thread removes frozen memtables";
    oldest.flushed = true;
    afterInstall();
    assert !writeController.pastStopTrigger(versions.current().level(0).size())
            || written.size() > writeController.level0StopTrigger()
        : "level 0 past the stop trigger: " + versions.current().level(0).size();
  }

  /**
   * Waits, when the flush's {@code tables} would take level 0 past the stop trigger (a memtable too
   * large for one table, see {@link WriteController#mustNotInstall}), until a compaction of level 0
   * makes room; the compaction thread is asked for one even below the compaction trigger. Returns
   * false when the database closes meanwhile.
   */
  @GuardedBy("mutex")
  private boolean awaitLevelZeroRoom(int tables) throws IOException {
    assert mutex.isHeldByCurrentThread();
    try {
      while (writeController.mustNotInstall(versions.current().level(0).size(), tables)) {
        if (closing) {
          return false;
        }
        throwIfBackgroundFailed();
        flushWaitsForLevelZero = true;
        scheduleBackgroundWork();
        backgroundProgress.awaitUninterruptibly();
      }
      return true;
    } finally {
      flushWaitsForLevelZero = false;
    }
  }

  /**
   * Deletes the outputs of a failed install unless the manifest may list them all the same (a
   * manifest write whose outcome is unknown): then they stay, and the next open deletes them if
   * they turn out unlisted.
   */
  private void discardUnlessListed(List<TableRef> written, Throwable failure) {
    if (!ManifestWriteException.mayHaveReachedDisk(failure)) {
      outputs.discard(written);
    }
  }

  @GuardedBy("mutex")
  private void runCompaction(Compaction c) throws IOException {
    assert mutex.isHeldByCurrentThread();
    VersionEdit edit = new VersionEdit();
    for (TableRef t : c.allInputs()) {
      edit.delete(t.metadata().fileNumber());
    }
    if (c.isTrivialMove()) {
      edit.add(outputs.moved(c.inputs().get(0), c.outputLevel()));
      install(edit, currentLogNumber(), false);
      return;
    }
    Version base = versions.current();
    if (!base.tryAcquire()) {
      throw new IllegalStateException("current version released: " + base);
    }
    List<TableRef> written;
    mutex.unlock();
    try {
      beforeCompaction.run();
      written = outputs.compact(c, base);
    } finally {
      mutex.lock();
      base.release();
    }
    written.forEach(edit::add);
    try {
      install(edit, currentLogNumber());
    } catch (IOException | RuntimeException e) {
      discardUnlessListed(written, e);
      throw e;
    }
  }

  /** Whether the tree needs a compaction, or a flush waits for level 0 to be compacted. */
  @GuardedBy("mutex")
  private boolean compactionNeeded() {
    Version v = versions.current();
    return picker.needsCompaction(v) || (flushWaitsForLevelZero && !v.level(0).isEmpty());
  }

  @GuardedBy("mutex")
  private long currentLogNumber() {
    return frozen.isEmpty() ? memLogNumber : frozen.peekLast().logNumber;
  }

  @GuardedBy("mutex")
  private void install(VersionEdit edit, long logNumber) throws IOException {
    install(edit, logNumber, true);
  }

  /** Makes {@code edit} durable and current (see {@link VersionSet#install}) and publishes it. */
  @GuardedBy("mutex")
  private void install(VersionEdit edit, long logNumber, boolean deleteFiles) throws IOException {
    versions.install(edit, () -> lastSequence, logNumber, deleteFiles);
    afterInstall();
  }

  /** Publishes the version an install made current. */
  @GuardedBy("mutex")
  private void afterInstall() {
    pendingCompactionBytes = picker.pendingCompactionBytes(versions.current());
    publishView();
    reclaimRetiredTables();
  }

  /**
   * Closes and deletes, with the mutex released, the tables the install retired (the replaced
   * view was the last to hold them, unless a read still does): before the job reports its end, so
   * a compact() that returns has removed what it replaced.
   */
  @GuardedBy("mutex")
  private void reclaimRetiredTables() {
    assert mutex.isHeldByCurrentThread();
    mutex.unlock();
    try {
      tables.reclaimRetired();
    } finally {
      mutex.lock();
    }
  }

  @GuardedBy("mutex")
  private void publishView() {
    ReadView old = view;
    view =
        new ReadView(
            mem, frozen.stream().map(f -> f.mem).toList(), versions.current());
    if (old != null) {
      old.release();
    }
  }

  // ---------------------------------------------------------------- stats and lifecycle

  /** A snapshot of the read-path counters and of the table set now. */
  public DbStats stats() {
    ensureOpen();
    TableReadStats s = readCounters.snapshot();
    ReadView v = acquireView();
    try {
      Version tables = v.version();
      CacheStats cached = cache.stats();
      return new DbStats(
          gets.sum(),
          s.tablesConsulted(),
          s.tablesSkippedByFilter(),
          s.filterFalsePositives(),
          s.dataBlocksRead(),
          s.dataBlockCacheHits(),
          s.filterChunksRead(),
          s.filterChunkCacheHits(),
          s.bytesRead(),
          cached.bytesHeld(),
          tables.tableCount(),
          tables.filterBytes(),
          snapshots.count(),
          snapshots.oldestAgeMillis(),
          s.bytesReadAtOpen(),
          walBytesDroppedAtOpen,
          walRecordsDroppedAtOpen,
          prefixScans.scans(),
          prefixScans.tablesConsulted(),
          prefixScans.tablesSkipped(),
          s.indexBlocksRead(),
          s.indexBlockCacheHits(),
          cached.metadataBytesHeld(),
          tables.indexBytes(),
          this.tables.pinnedBytes() + cached.pinnedBytesHeld());
    } finally {
      v.release();
    }
  }

  /** Counters of the write path: acknowledged writes and the log writes that carried them. */
  public WriteStats writeStats() {
    ensureOpen();
    return new WriteStats(
        writesAcknowledged.sum(),
        logWrites.sum(),
        logSyncs.sum(),
        writeController.slowdowns(),
        writeController.slowdownNanos(),
        writeController.stops(),
        writeController.stopNanos());
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
    return DbDescription.format(
        dir.toString(), stats(), writeStats(), tablesPerLevel(), bytesPerLevel());
  }

  /** The number of tables at each level now, level 0 first. */
  public List<Integer> tablesPerLevel() {
    ensureOpen();
    ReadView v = acquireView();
    try {
      List<Integer> out = new ArrayList<>();
      for (int level = 0; level < Version.NUM_LEVELS; level++) {
        out.add(v.version().level(level).size());
      }
      return Collections.unmodifiableList(out);
    } finally {
      v.release();
    }
  }

  /** The bytes of the tables at each level now, level 0 first (what the compaction picker sizes). */
  public List<Long> bytesPerLevel() {
    ensureOpen();
    ReadView v = acquireView();
    try {
      List<Long> out = new ArrayList<>();
      for (int level = 0; level < Version.NUM_LEVELS; level++) {
        out.add(v.version().levelBytes(level));
      }
      return Collections.unmodifiableList(out);
    } finally {
      v.release();
    }
  }

  /**
   * Whether a flush or compaction is running or due now. False means the tree has quiesced: with
   * no more writes it stays as it is; a benchmark waits for this before it measures reads.
   */
  public boolean backgroundWorkPending() {
    ensureOpen();
    mutex.lock();
    try {
      return flushScheduled
          || compactionScheduled
          || !frozen.isEmpty()
          || manualCompactionsDone < manualCompactionsRequested
          || (options.autoCompaction() && compactionNeeded());
    } finally {
      mutex.unlock();
    }
  }

  /**
   * Waits for background work to finish, closes the log and every file, and releases the lock.
   * Writes acknowledged before are in the log (and with {@code syncWrites} on disk); the next open
   * replays them. Idempotent.
   */
  @Override
  public void close() throws IOException {
    mutex.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      closing = true;
      MBeans.unregister(management);
      snapshots.closeAll();
      backgroundProgress.signalAll(); // a waiting flush() or compact() now sees `closing`
      while (flushScheduled || compactionScheduled || !writers.isEmpty()) {
        backgroundProgress.awaitUninterruptibly();
      }
    } finally {
      mutex.unlock();
    }
    IOException failure = null;
    try {
      if (!background.shutdown(1, TimeUnit.MINUTES)) {
        failure = new IOException("background threads did not stop: " + dir);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = new IOException("interrupted while closing " + dir, e);
    }
    readers.closeAll(); // before the lock goes: a later open may delete what they pinned
    mutex.lock();
    try {
      try {
        if (log != null) { // a read-only database has none
          log.close();
        }
      } catch (IOException e) {
        failure = addFailure(failure, e);
      }
      view.release();
      versions.close();
    } finally {
      mutex.unlock();
      tables.close(); // readers a leaked view still pins: the lock goes next
    }
    try {
      if (lock != null) {
        lock.close();
      }
    } catch (IOException e) {
      failure = addFailure(failure, e);
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static IOException addFailure(IOException first, IOException next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("database is closed: " + dir);
    }
  }

  /** For every call that writes: the database is open, and not read-only. */
  private void ensureWritable() {
    ensureOpen();
    if (options.readOnly()) {
      throw new IllegalStateException("database is open read-only: " + dir);
    }
  }

  private void throwIfBackgroundFailed() throws IOException {
    backgroundErrors.throwIfPermanent();
  }

  @GuardedBy("mutex")
  private void recordBackgroundError(Throwable t) {
    backgroundErrors.record(t);
  }
}
