package dev.strata.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.fs.Closeables;
import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.log.LogWriter;
import dev.strata.engine.manifest.SyncedLog;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.memtable.MemTableMemory;
import dev.strata.engine.write.BulkLoads;
import dev.strata.engine.write.MarkerSet;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.version.WastedReads;
import dev.strata.sstable.format.LazyLogger;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state of an open database that the write path ({@link WritePath}), the background jobs
 * ({@link BackgroundWork}), opening ({@link Startup}) and the reads share: the memtable taking
 * writes and the frozen ones waiting for their flush, each with its log, the current version, and
 * what reads see of them (the published view and the last sequence).
 *
 * <p>Thread-safety: the memtables, the log and {@code closing} are guarded by {@link #mutex}, the
 * one lock of the engine's mutable state. Reads never take it: they acquire the volatile {@link
 * #view} (memtables + version, reference-counted) and read the volatile {@link #lastSequence} as
 * their snapshot, in that order (see {@link #acquireView}). A write is visible once {@code
 * lastSequence} covers it, which is published only after its entries are in the memtable, so a read
 * never sees half a batch.
 */
final class EngineState {
  private static final System.Logger LOG = LazyLogger.of(EngineState.class);

  final Path dir;

  /** What logs, tables and the manifest are written through: the real file system but in tests. */
  final FileLayer files;

  /** Guards every mutable field of the engine (here, in WritePath and in BackgroundWork). */
  final ReentrantLock mutex = new ReentrantLock();

  /** Signalled when background work finishes a step, fails, or stops. */
  final Condition backgroundProgress = mutex.newCondition();

  /** The current version, its manifest and the file numbers. */
  final VersionSet versions;

  /** Where memtables keep their entries, off the heap; freed at close. */
  final MemTableMemory memory;

  /** The budget each memtable is frozen at (DbOptions.memtableBytes). */
  private final long memtableBytes;

  /** The open bulk loads and the level-0 limits they move, for the picker and the controllers. */
  final BulkLoads bulkLoads;

  @GuardedBy("mutex")
  MemTable mem;

  /** Frozen memtables with the log that holds each, newest first. */
  @GuardedBy("mutex")
  final ArrayDeque<Frozen> frozen = new ArrayDeque<>();

  @GuardedBy("mutex")
  LogWriter log;

  /**
   * The oldest log holding entries of the mutable memtable: the current log, except after a
   * recovery that kept the replayed logs (see Startup.resumeLogs), when the memtable spans them all.
   */
  @GuardedBy("mutex")
  long memLogNumber;

  /**
   * Set under the mutex once a close begins; volatile so that running flushes and compactions see
   * it without the mutex and stop (compaction.JobAbandonedException).
   */
  volatile boolean closing;

  /** What reads of the views published from now on charge (see compaction.ReadTrigger). */
  @GuardedBy("mutex")
  WastedReads levelZeroReads = WastedReads.NONE;

  volatile ReadView view;
  volatile long lastSequence;

  /**
   * The commit markers as of the last acknowledged write (recovery starts them from the manifest
   * and the replayed logs); replaced, never modified, under the mutex by the write group's leader.
   */
  volatile MarkerSet markers = MarkerSet.EMPTY;
  volatile boolean closed;

  EngineState(Path dir, FileLayer files, TableCache tables, DbOptions options) {
    this.dir = dir;
    this.files = files;
    this.versions = new VersionSet(dir, mutex, files, tables);
    this.memtableBytes = options.memtable().memtableBytes();
    this.bulkLoads = options.writeStalls().bulkLoads(options.compaction());
    this.memory = MemTableMemory.pooled(memtableBytes);
    this.mem = newMemTable();
  }

  /** An empty memtable in this database's memory, its row filter sized for the budget. */
  MemTable newMemTable() {
    return new MemTable(memtableBytes, memory);
  }

  /**
   * Makes {@code next} the memtable taking writes in place of one that never held a write (the
   * one made at construction, before recovery found what the logs hold), dropping the engine's
   * reference on the replaced one.
   */
  @GuardedBy("mutex")
  void replaceEmptyMemTable(MemTable next) {
    MemTable old = mem;
    assert old.isEmpty() : "only an empty memtable is replaced";
    mem = next;
    if (old != next) {
      old.release();
    }
  }

  /**
   * At close, once no write or background job runs and the published view is closed: drops the
   * engine's references on every memtable, so each gives its memory back once the last read holding
   * it is done, then frees the memory's pool.
   */
  @GuardedBy("mutex")
  void releaseMemTables() {
    if (memTablesReleased) {
      return;
    }
    memTablesReleased = true;
    for (Frozen f : frozen) {
      f.mem.release();
    }
    mem.release();
    memory.close();
  }

  /** Set once {@link #releaseMemTables} ran: a second close releases nothing twice. */
  @GuardedBy("mutex")
  private boolean memTablesReleased;

  /** A frozen memtable waiting for its flush, with the log that holds it. */
  static final class Frozen {
    final MemTable mem;
    final long logNumber;

    /**
     * The commit markers as of the memtable's last write, captured when it was frozen: its flush
     * records exactly these in the manifest, never later ones, whose data may still be only in a
     * log a power loss can cut.
     */
    final MarkerSet markers;

    /** The log the memtable's writes went to since the open (the older logs were forced then). */
    final Path logFile;

    /** Set once the memtable is in a table the manifest lists; flush() waits for it. */
    @GuardedBy("mutex")
    boolean flushed;

    /**
     * The log the memtable was frozen behind, open and not yet forced: the flush thread forces and
     * closes it (BackgroundWork.retire), off the writers' path; null once taken.
     */
    @GuardedBy("mutex")
    private LogWriter unretiredLog;

    Frozen(MemTable mem, long logNumber, LogWriter unretiredLog, MarkerSet markers) {
      this.mem = mem;
      this.logNumber = logNumber;
      this.markers = markers;
      this.unretiredLog = unretiredLog;
      this.logFile = unretiredLog.file();
    }

    /** The length the flush thread forced the retired log to, or -1 (not retired, or not forced). */
    @GuardedBy("mutex")
    private long forcedLogBytes = -1;

    /** Notes that the flush thread forced the memtable's log to {@code bytes} and closed it. */
    @GuardedBy("mutex")
    void logForced(long bytes) {
      forcedLogBytes = bytes;
    }

    /** The log still to retire, handed over once: null afterwards. */
    @GuardedBy("mutex")
    LogWriter takeUnretiredLog() {
      LogWriter l = unretiredLog;
      unretiredLog = null;
      return l;
    }
  }

  /**
   * The older logs a recovery kept under the memtable (Startup.resumeLogs), forced then, with their
   * lengths: a clean close records them as forced along with the logs it forces itself.
   */
  @GuardedBy("mutex")
  List<SyncedLog> resumedLogs = List.of();

  /**
   * At a clean close, once no write or background job runs: forces the log taking writes and the
   * frozen memtables' logs not yet retired, and records in the manifest every log known to be
   * forced and its length (those, the logs a flush retired and forced, and those a recovery kept), so that the next open treats damage or a cut inside them as corruption
   * instead of a torn tail (LogReplay). A log that cannot be forced keeps the torn-tail rules; a
   * failure is logged, since nothing is lost that a reopen after a process crash would not keep.
   */
  @GuardedBy("mutex")
  void recordForcedLogs() {
    List<SyncedLog> forced = new ArrayList<>(resumedLogs);
    List<LogWriter> open = new ArrayList<>();
    frozen.descendingIterator().forEachRemaining(f -> {
      if (f.unretiredLog != null) {
        open.add(f.unretiredLog);
      } else if (f.forcedLogBytes >= 0) { // retired by a flush the close abandoned
        forced.add(new SyncedLog(f.logNumber, f.forcedLogBytes));
      }
    });
    if (log != null) {
      open.add(log);
    }
    try {
      for (LogWriter l : open) {
        if (l.failed()) {
          continue;
        }
        l.sync();
        forced.add(new SyncedLog(l.fileNumber(), l.size()));
      }
      if (!forced.isEmpty()) {
        forced.sort(Comparator.comparingLong(SyncedLog::logNumber));
        versions.recordSyncedLogs(forced, lastSequence);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          dir + ": could not record the logs as forced at close; they are replayed as after a"
              + " crash",
          e);
    }
  }

  /**
   * The logs that may hold acknowledged writes neither forced nor in a table, oldest first: those of
   * the frozen memtables whose flush has not forced them yet, and the one taking writes (the older
   * logs a recovery kept were forced at open).
   */
  @GuardedBy("mutex")
  List<Path> logsNotForced() {
    List<Path> logs = new ArrayList<>();
    frozen.descendingIterator().forEachRemaining(f -> {
      if (f.forcedLogBytes < 0) {
        logs.add(f.logFile);
      }
    });
    logs.add(log.file());
    return logs;
  }

  /**
   * Closes the log taking writes and the logs of frozen memtables not yet retired (a close or a
   * failed open: whatever they hold is replayed at the next open). Every log is closed; the first
   * failure is thrown, with the others suppressed.
   */
  @GuardedBy("mutex")
  void closeLogs() throws IOException {
    List<LogWriter> logs = new ArrayList<>();
    for (Frozen f : frozen) {
      LogWriter l = f.takeUnretiredLog();
      if (l != null) {
        logs.add(l);
      }
    }
    if (log != null) { // a read-only database has none
      logs.add(log);
    }
    Closeables.closeAll(logs);
  }

  /**
   * Acquires the current view. A read takes its snapshot after this, never before: a flush or
   * compaction keeps only the newest version of a cell (besides those a registered {@link Snapshot}
   * sees), so a view published after the snapshot may
   * hold a cell's newer version (invisible at the snapshot) without the older one the snapshot
   * needs. Every table of a view acquired first holds only entries at or below the snapshot.
   */
  ReadView acquireView() {
    while (true) {
      ReadView v = view;
      if (v.tryAcquire()) {
        return v;
      }
      ensureOpen();
    }
  }

  @GuardedBy("mutex")
  void publishView() {
    ReadView old = view;
    view =
        new ReadView(
            mem, frozen.stream().map(f -> f.mem).toList(), versions.current(), levelZeroReads);
    if (old != null) {
      old.close();
    }
  }

  /** The oldest log still needed: that of the oldest frozen memtable, or of the mutable one. */
  @GuardedBy("mutex")
  long currentLogNumber() {
    return frozen.isEmpty() ? memLogNumber : frozen.peekLast().logNumber;
  }

  /**
   * Closes and deletes, with the mutex released, the tables an install retired (the replaced view
   * was the last to hold them, unless a read still does): before the job reports its end, so a
   * compact() that returns has removed what it replaced.
   */
  @GuardedBy("mutex")
  void purgeObsoleteFiles() {
    assert mutex.isHeldByCurrentThread();
    mutex.unlock();
    try {
      versions.obsoleteFiles().purge();
    } finally {
      mutex.lock();
    }
  }

  /** For a writer or a waiter under the mutex: fails once close() has begun. */
  @GuardedBy("mutex")
  void throwIfClosing() {
    if (closing) {
      throw new IllegalStateException("database is closed: " + dir);
    }
  }

  void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("database is closed: " + dir);
    }
  }
}
