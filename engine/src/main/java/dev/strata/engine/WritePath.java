package dev.strata.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.EngineState.Frozen;
import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.log.LogWriter;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.memtable.SortedGroup;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.write.Limits;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.engine.write.Mutation;
import dev.strata.engine.write.WriteController;
import dev.strata.engine.write.WriterQueue;
import dev.strata.engine.write.WriterQueue.Writer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The write path of an open database: the write group, the switch to a new memtable and log, and
 * the stalls that keep compaction ahead of the writers (RocksDB's db_impl_write).
 *
 * <p>Writes queue up ({@link WriterQueue}, LevelDB's writer queue): the writer at the head becomes
 * the leader, takes the batches queued behind it as one group, appends them to the log in one write
 * with the mutex released (only the head of the queue touches the log), inserts them into the
 * memtable, publishes their sequence numbers, and wakes the group. Switching the memtable and the
 * log happens only at the head of the queue (a flush request is queued like a write, as a barrier),
 * so it never races a leader's log write.
 *
 * <p>Writers are held back so that compaction keeps up ({@link WriteController}): level 0 at its
 * slowdown trigger delays each write group, at its stop trigger stops writes, and a memtable is
 * frozen only when level 0 has room for it once flushed, so level 0 never exceeds the stop trigger.
 *
 * <p>Thread-safety: state is guarded by the database mutex; the counters are atomic.
 */
final class WritePath {
  /** Frozen memtables allowed to wait for flush before writers stall. */
  private static final int MAX_FROZEN_MEMTABLES = 2;

  /** Bytes of batches a leader groups into one log write, at most (LevelDB's 1 MiB). */
  private static final long MAX_GROUP_BYTES = 1 << 20;

  private final EngineState state;
  private final ReentrantLock mutex;
  private final Condition backgroundProgress;
  private final VersionSet versions;
  private final Path dir;
  private final DbOptions options;
  /** Logs are written through this: the real file system but in fault tests. */
  private final FileLayer files;
  private final WriteController writeController;
  private final BackgroundErrors backgroundErrors;
  private final BackgroundWork background;
  /** Forces the logs on request, without a flush: see {@link #syncWal}. */
  private final LogSync logSync;

  /**
   * A large write group in the memtable's order, reused from group to group: only the head of the
   * queue uses it, under the mutex.
   */
  @GuardedBy("mutex")
  private final SortedGroup sortedGroup = new SortedGroup();

  /**
   * True while a memtable, active or frozen, may hold writes that skipped the log ({@link
   * BulkLoad#write}) and are not yet in a table. A logged write that finds it set first freezes
   * the memtable and waits for that flush (see {@link #lead}): otherwise a crash could keep the
   * logged write (replayed from its log) and lose an unlogged write before it, a hole in the
   * history. Read and set only at the head of the writer queue.
   */
  @GuardedBy("mutex")
  private boolean unloggedInMemTables;

  /** Writers waiting their turn; the head writes the group (group commit). */
  private final WriterQueue writers;

  private final LongAdder writesAcknowledged = new LongAdder();
  private final LongAdder logWrites = new LongAdder();
  private final LongAdder logSyncs = new LongAdder();

  /** Run under the mutex when a writer starts to wait in makeRoom; for tests of write stops. */
  private volatile Runnable onWriterStop = () -> {};

  WritePath(
      EngineState state,
      DbOptions options,
      BackgroundErrors backgroundErrors,
      BackgroundWork background) {
    this.state = state;
    this.mutex = state.mutex;
    this.backgroundProgress = state.backgroundProgress;
    this.versions = state.versions;
    this.dir = state.dir;
    this.options = options;
    this.files = state.files;
    this.writeController = options.writeStalls().controller(options.compaction(), state.bulkLoads);
    this.backgroundErrors = backgroundErrors;
    this.background = background;
    this.logSync = new LogSync(state, backgroundErrors, options.memtable().syncWrites());
    this.writers =
        new WriterQueue(
            mutex,
            MAX_GROUP_BYTES,
            () -> {
              if (state.closing) {
                backgroundProgress.signalAll(); // close() waits for the queue to drain
              }
            });
  }

  /** See Db.onEachWriterStop. */
  void onEachWriterStop(Runnable hook) {
    onWriterStop = Objects.requireNonNull(hook, "hook");
  }

  /** Whether no writer is queued; close() waits for this. */
  @GuardedBy("mutex")
  boolean idle() {
    return writers.isEmpty();
  }

  /** Counters of the write path: acknowledged writes and the log writes that carried them. */
  WriteStats stats() {
    return new WriteStats(
        writesAcknowledged.sum(),
        logWrites.sum(),
        logSyncs.sum(),
        writeController.slowdowns(),
        writeController.slowdownNanos(),
        writeController.stops(),
        writeController.stopNanos());
  }

  /**
   * Queues the write and returns once it is in the log and the memtable. The mutations' arrays are
   * the caller's own (a single put's, not copied) or a batch's copies: they are read while the call
   * lasts, encoded into the log record and copied into the memtable's arena, and never kept. The thread that reaches the head of the queue writes its group.
   */
  void write(List<Mutation> mutations) throws IOException {
    write(mutations, List.of());
  }

  /** As {@link #write(List)}, the batch carrying the commit marker updates {@code markers}. */
  void write(List<Mutation> mutations, List<MarkerUpdate> markers) throws IOException {
    write(mutations, markers, true);
  }

  /**
   * As {@link #write(List, List)}; {@code logged} false skips the log: the write lives in the
   * memtable only, durable once a flush has written it to a table. A batch of commit markers alone
   * is logged anyway, since no flush would carry markers without an entry to freeze them with.
   */
  void write(List<Mutation> mutations, List<MarkerUpdate> markers, boolean logged)
      throws IOException {
    mutex.lock();
    try {
      Writer head = writers.enqueue(mutations, markers, logged || mutations.isEmpty());
      if (head != null) {
        lead(head);
      }
    } finally {
      mutex.unlock();
    }
  }

  /**
   * Queues a barrier that freezes the memtable and waits for the flush of the memtable it froze
   * (or, when the memtable was empty, of the newest one already frozen), not for anything frozen
   * after it: flushes complete in freezing order, so that one covers every earlier write.
   */
  void flush() throws IOException {
    boolean markersOnlyLogged;
    mutex.lock();
    try {
      Writer head = writers.enqueue(null); // a barrier leads its own group: never null
      Frozen target = lead(head);
      // A memtable with no entry is not frozen, but batches of commit markers alone may have
      // been acknowledged into it: they live only in its log until a later freeze, so the flush
      // forces that log instead, or a power loss would take markers a returned flush vouched for.
      markersOnlyLogged = state.mem.isEmpty() && state.log.holdsRecords();
      awaitFlushed(target);
    } finally {
      mutex.unlock();
    }
    if (markersOnlyLogged) {
      logSync.syncLogs();
    }
  }

  /** Waits for the flush of {@code target} (null: none to wait for), failing as flushes fail. */
  @GuardedBy("mutex")
  private void awaitFlushed(Frozen target) throws IOException {
    while (target != null && !target.flushed) {
      backgroundErrors.throwIfPermanent();
      state.throwIfClosing();
      backgroundErrors.throwIfRetrying();
      backgroundProgress.awaitUninterruptibly();
    }
    backgroundErrors.throwIfPermanent();
  }

  /**
   * Forces the logs of every write acknowledged before the call, without a turn in the writer
   * queue (see LogSync): writers go on meanwhile.
   */
  void syncWal() throws IOException {
    logSync.syncLogs();
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
    List<Writer> group = head.alone();
    Throwable failure = null;
    try {
      state.throwIfClosing();
      backgroundErrors.throwIfPermanent();
      if (head.isBarrier()) {
        makeRoom(true);
        return state.frozen.peekFirst();
      }
      if (head.logged() && unloggedInMemTables) {
        // Flushes complete in freezing order: once the memtable frozen here (or the newest one
        // frozen before, when it was empty) is in a table, so is every unlogged write.
        makeRoom(true);
        awaitFlushed(state.frozen.peekFirst());
        unloggedInMemTables = false;
      }
      makeRoom(false); // may wait: writers queued meanwhile join this group
      if (head.hasMarkers()) { // it leads alone: every write before it applied its markers
        Limits.checkMarkersHeld(
            state.markers.size(), state.markers.namesAddedBy(head.markers()));
      }
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
   * Logs the group in one write, unless it skips the log, and applies it to the memtable.
   */
  @GuardedBy("mutex")
  private void appendGroup(List<Writer> group) throws IOException {
    long first = state.lastSequence + 1;
    MemTable target = state.mem;
    if (group.get(0).logged()) { // a group is logged whole or not at all (WriterQueue.group)
      appendLog(first, group);
    } else {
      unloggedInMemTables = true; // before the memtable holds any of it
    }
    applyGroup(group, first, target);
  }

  /**
   * Logs the group in one write, with the mutex released: only the head of the queue gets here,
   * and the memtable takes concurrent readers. A failed log write fails the group only: the log
   * writer cuts the file back to its last complete record and takes the next group (an interrupt
   * it even retries). Only a log writer that could not do so (a failed fsync, a failed repair)
   * stops all further writes, because the log's durable state is unknown.
   */
  @GuardedBy("mutex")
  private void appendLog(long first, List<Writer> group) throws IOException {
    LogWriter targetLog = state.log;
    mutex.unlock();
    try {
      // Encodes into the log's own buffer.
      targetLog.append(first, group, Writer::mutations, Writer::markers);
      logWrites.increment();
      if (options.memtable().syncWrites()) {
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
  }

  /** Applies the group to the memtable {@code target}, its first sequence number {@code first}. */
  @GuardedBy("mutex")
  private void applyGroup(List<Writer> group, long first, MemTable target) {
    int count = 0;
    for (int i = 0; i < group.size(); i++) { // indexed: no iterators on the write path
      count += group.get(i).mutations().size();
    }
    if (count >= SortedGroup.MIN_ENTRIES) {
      sortedGroup.clear(first);
      for (int i = 0; i < group.size(); i++) {
        List<Mutation> mutations = group.get(i).mutations();
        for (int j = 0; j < mutations.size(); j++) {
          Mutation m = mutations.get(j);
          sortedGroup.add(m.kind(), m.row(), m.column(), m.value());
        }
      }
      sortedGroup.sort();
      try {
        target.addSorted(sortedGroup);
      } finally {
        sortedGroup.clear(0); // holds none of the group's arrays past the write
      }
    } else {
      long seq = first;
      for (int i = 0; i < group.size(); i++) {
        List<Mutation> mutations = group.get(i).mutations();
        for (int j = 0; j < mutations.size(); j++) {
          Mutation m = mutations.get(j);
          target.add(m.kind(), m.row(), m.column(), seq++, m.value());
        }
      }
    }
    for (int i = 0; i < group.size(); i++) {
      // Before the group leaves the head of the queue, so no freeze falls between the memtable
      // taking the data and the markers that came with it.
      state.markers = state.markers.apply(group.get(i).markers());
    }
    state.lastSequence = first + count - 1;
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
        backgroundErrors.throwIfPermanent();
        state.throwIfClosing();
        int levelZero = versions.current().level(0).size();
        boolean wait;
        if (freeze) {
          if (state.mem.isEmpty()) {
            return;
          }
          wait = !roomToFreeze(levelZero);
        } else if (writeController.mustStop(levelZero, background.pendingCompactionBytes())) {
          wait = true;
        } else if (state.mem.approximateBytes() < options.memtable().memtableBytes()) {
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
    return state.frozen.size() < MAX_FROZEN_MEMTABLES
        && !writeController.mustNotFreeze(levelZero, state.frozen.size());
  }

  /**
   * Delays the group when level 0 or the pending compaction bytes are in the slowdown range, with
   * the mutex released: writers arriving meanwhile queue behind the group.
   */
  @GuardedBy("mutex")
  private void delayIfSlowingDown(List<Writer> group) {
    long bytes = 0;
    for (int i = 0; i < group.size(); i++) { // indexed: no iterator on the write path
      bytes += group.get(i).bytes();
    }
    long delay =
        writeController.delayNanos(
            versions.current().level(0).size(), background.pendingCompactionBytes(), bytes);
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

  /**
   * Freezes the memtable (if it holds anything) behind a new log and schedules its flush. The old
   * log is handed to the frozen memtable unforced: the flush thread forces and closes it
   * (BackgroundWork.retire) before it writes the table. Forcing it here, under the mutex at the
   * head of the writer queue, held the writers for as long as the device took to take the log's
   * unsynced megabytes, which under a loaded fill made the switch the longest wait a put had.
   * Nothing promised depends on the order: under {@code syncWrites(false)} a
   * power loss keeps the writes before the last {@code flush()} (tables, synced) and a prefix of the
   * rest, which recovery enforces at any hole, a newer log outliving an older one included; under
   * {@code syncWrites(true)} every append was forced already.
   */
  @GuardedBy("mutex")
  private void freezeMemTable() throws IOException {
    assert mutex.isHeldByCurrentThread();
    if (state.mem.isEmpty()) {
      return;
    }
    long number = versions.newFileNumber();
    LogWriter next =
        LogWriter.create(
            files, FileNames.log(dir, number), number, options.memtable().syncWrites());
    LogWriter old = state.log;
    state.log = next;
    state.mem.freeze();
    state.frozen.addFirst(new Frozen(state.mem, state.memLogNumber, old, state.markers));
    state.mem = state.newMemTable();
    state.memLogNumber = number;
    state.publishView();
    background.schedule();
  }
}
