package dev.strata.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.EngineState.Frozen;
import dev.strata.engine.compaction.BackgroundThreads;
import dev.strata.engine.compaction.Compaction;
import dev.strata.engine.compaction.CompactionPicker;
import dev.strata.engine.compaction.FilterRefit;
import dev.strata.engine.compaction.OutputTables;
import dev.strata.engine.compaction.ReadTrigger;
import dev.strata.engine.fs.FileDescriptors;
import dev.strata.engine.log.LogWriter;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import dev.strata.engine.write.MarkerSet;
import dev.strata.engine.version.WastedReads;
import dev.strata.engine.write.WriteController;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The flushes and compactions of an open database: schedules them on the background threads, runs
 * each with the mutex released, and installs its result (RocksDB's db_impl_compaction_flush).
 *
 * <p>Two background threads ({@link BackgroundThreads}) run flushes and compactions, so a flush
 * never waits for a compaction. Their edits cannot conflict: a flush only adds a level-0 table
 * newer than anything a compaction reads, and the single compaction thread picks from the current
 * version, so no table is in two compactions. Each job works with the mutex released (its inputs
 * are immutable: a frozen memtable, or tables of a version it holds a reference on) and installs
 * its edit against whatever version is current when it finishes, under the mutex. Flushes install
 * in freezing order (one flush thread, oldest frozen memtable first), so the log number an install
 * records is always that of the oldest memtable not yet in a table. Files leave the disk only when
 * no version lists them any more (version.TableRef), so a running job or read never loses one.
 *
 * <p>A memtable too large for one table becomes several; its flush waits, before it installs, for
 * a level-0 compaction when they would not fit (the only case where a flush waits for a
 * compaction).
 *
 * <p>Level 0 below its trigger is also compacted when reads keep paying for it while writes are
 * quiet ({@link ReadTrigger}): a reader that spends the budget hands it to the compaction thread,
 * which decides under the mutex and runs it after any write-driven compaction.
 *
 * <p>Thread-safety: every field but the test hooks and {@code spentReads} is guarded by the
 * database mutex.
 */
final class BackgroundWork {
  private final EngineState state;
  private final ReentrantLock mutex;
  private final Condition backgroundProgress;
  private final VersionSet versions;
  private final DbOptions options;
  private final CompactionPicker picker;
  private final OutputTables outputs;
  private final TableCache tables;
  private final WriteController writeController;
  private final LogRetirement logRetirement;
  /** Failures of flushes and compactions: retried when they lost nothing, else final. */
  private final BackgroundErrors backgroundErrors;
  private final BackgroundThreads background = new BackgroundThreads();

  /** Read-triggered compaction of level 0: its budgets and whether one is due. */
  @GuardedBy("mutex")
  private final ReadTrigger readTrigger;

  /** Filter refits once compaction has nothing to do (armed by each install). */
  @GuardedBy("mutex")
  private final FilterRefit refit;

  /**
   * A budget a reader spent that the compaction thread has not yet looked at (set without the
   * mutex, by the reader), so that {@link #pending} counts it as due work meanwhile.
   */
  private final AtomicReference<WastedReads> spentReads = new AtomicReference<>();

  /** Run before each flush and compaction reads its inputs, without the mutex; test seams. */
  private volatile Runnable beforeFlush = () -> {};

  private volatile Runnable beforeCompaction = () -> {};

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

  BackgroundWork(
      EngineState state,
      DbOptions options,
      TableCache tables,
      OutputTables outputs,
      BackgroundErrors backgroundErrors) {
    this.state = state;
    this.mutex = state.mutex;
    this.backgroundProgress = state.backgroundProgress;
    this.versions = state.versions;
    this.options = options;
    this.picker = new CompactionPicker(options, state.bulkLoads);
    this.outputs = outputs;
    this.tables = tables;
    this.writeController = options.writeStalls().controller(options.compaction(), state.bulkLoads);
    this.logRetirement = new LogRetirement(state.dir, state.files, options.memtable().syncWrites());
    this.backgroundErrors = backgroundErrors;
    this.readTrigger = new ReadTrigger(options, this::readBudgetSpent);
    this.refit = new FilterRefit(options, outputs.filters());
  }

  /** See Db.beforeEachFlush. */
  void beforeEachFlush(Runnable hook) {
    beforeFlush = Objects.requireNonNull(hook, "hook");
  }

  /** See Db.beforeEachCompaction. */
  void beforeEachCompaction(Runnable hook) {
    beforeCompaction = Objects.requireNonNull(hook, "hook");
  }

  /** The picker's estimate of the bytes compaction still has to rewrite, for the write controller. */
  @GuardedBy("mutex")
  long pendingCompactionBytes() {
    return pendingCompactionBytes;
  }

  /** Asks for a compaction of every table into the last level and waits for it (Db.compact). */
  void compactAll() throws IOException {
    mutex.lock();
    try {
      long ticket = ++manualCompactionsRequested;
      schedule();
      while (manualCompactionsDone < ticket) {
        backgroundErrors.throwIfPermanent();
        state.throwIfClosing();
        backgroundErrors.throwIfRetrying();
        backgroundProgress.awaitUninterruptibly();
      }
    } finally {
      mutex.unlock();
    }
  }

  /** Whether a flush or compaction is running or due now (Db.backgroundWorkPending). */
  boolean pending() {
    mutex.lock();
    try {
      return flushScheduled
          || compactionScheduled
          || !state.frozen.isEmpty()
          || manualCompactionsDone < manualCompactionsRequested
          || spentReads.get() != null
          || autoCompactionDue();
    } finally {
      mutex.unlock();
    }
  }

  /** Whether a flush or compaction step is queued or running; close() waits until none is. */
  @GuardedBy("mutex")
  boolean running() {
    return flushScheduled || compactionScheduled;
  }

  /** Stops the background threads; false when they did not stop in time. */
  boolean shutdown(long timeout, TimeUnit unit) throws InterruptedException {
    return background.shutdown(timeout, unit);
  }

  @GuardedBy("mutex")
  void schedule() {
    assert mutex.isHeldByCurrentThread();
    if (state.closing || backgroundErrors.failedPermanently()) {
      return;
    }
    if (!flushScheduled && !state.frozen.isEmpty()) {
      flushScheduled = true;
      background.submitFlush(this::flushStep);
    }
    boolean manual = manualCompactionsDone < manualCompactionsRequested;
    if (!compactionScheduled && (manual || autoCompactionDue())) {
      compactionScheduled = true;
      background.submitCompaction(this::compactionStep);
    }
  }

  /**
   * Arms read-triggered compaction for the level 0 recovery left (reads of the views published from
   * now on charge it), then schedules what recovery left due. Once, at open, under the mutex.
   */
  @GuardedBy("mutex")
  void start() {
    assert mutex.isHeldByCurrentThread();
    if (readTrigger.refresh(versions.current(), state.mem)) {
      state.levelZeroReads = readTrigger.reads();
      state.publishView();
    }
    schedule();
  }

  /** Whether an automatic compaction is due: one the tree needs, reads triggered, or a refit. */
  @GuardedBy("mutex")
  private boolean autoCompactionDue() {
    return options.compaction().autoCompaction()
        && (compactionNeeded() || readTrigger.due() || refit.due());
  }

  /** The compactions other than the tree's since open (DbStats.compactions). */
  DbStats.CompactionStats compactionStats() {
    return new DbStats.CompactionStats(
        readTrigger.compactions(), refit.refits(), refit.bytesRewritten());
  }

  /**
   * On the reader that spent a budget of wasted level-0 reads: hands it to the compaction thread,
   * which decides under the mutex (a reader never takes it). Counted as pending work until then.
   */
  private void readBudgetSpent(WastedReads spent) {
    spentReads.set(spent);
    try {
      background.submitCompaction(() -> readBudgetStep(spent));
    } catch (RejectedExecutionException e) {
      spentReads.compareAndSet(spent, null); // closing: the threads are shut down
    }
  }

  /** On the compaction thread: a spent budget makes the compaction due, or opens a new window. */
  private void readBudgetStep(WastedReads spent) {
    mutex.lock();
    try {
      spentReads.compareAndSet(spent, null);
      if (state.closing) {
        return;
      }
      switch (readTrigger.budgetSpent(spent, state.mem)) {
        case REARMED -> {
          state.levelZeroReads = readTrigger.reads();
          state.publishView();
        }
        case DUE -> schedule();
        case STALE -> {}
      }
    } finally {
      backgroundProgress.signalAll();
      mutex.unlock();
    }
  }

  /** One step on the flush thread: flushes the oldest frozen memtable. */
  private void flushStep() {
    mutex.lock();
    try {
      backgroundErrors.awaitRetry(backgroundProgress, () -> state.closing);
      if (!state.closing && !state.frozen.isEmpty()) {
        flushOldestFrozen();
        backgroundErrors.succeeded();
      }
    } catch (Throwable t) {
      backgroundErrors.recordUnlessAbandoned(t, state.closing);
    } finally {
      flushScheduled = false;
      schedule();
      backgroundProgress.signalAll();
      mutex.unlock();
    }
    versions.obsoleteFiles().purge(); // what the install retired: closed and deleted without the mutex
  }

  /** One step on the compaction thread: the manual compaction asked for, or one the tree needs. */
  private void compactionStep() {
    mutex.lock();
    try {
      backgroundErrors.awaitRetry(backgroundProgress, () -> state.closing);
      if (!state.closing) {
        if (manualCompactionsDone < manualCompactionsRequested) {
          long target = manualCompactionsRequested;
          Compaction all = picker.all(versions.current());
          if (!all.inputs().isEmpty()) {
            runCompaction(all);
          }
          manualCompactionsDone = target;
        } else if (options.compaction().autoCompaction()
            && picker.needsCompaction(versions.current())) {
          runCompaction(picker.pick(versions.current()));
        } else if (options.compaction().autoCompaction() && compactionNeeded()) {
          runCompaction(picker.levelZero(versions.current()));
        } else if (options.compaction().autoCompaction() && readTrigger.due()) {
          boolean flushPending = flushScheduled || !state.frozen.isEmpty();
          Compaction c = readTrigger.take(versions.current(), flushPending);
          if (c != null) {
            runCompaction(c);
            readTrigger.ran();
          }
        } else if (refit.due()) {
          Compaction c = refit.take(versions.current(), flushScheduled || !state.frozen.isEmpty());
          if (c != null) {
            runCompaction(c);
            refit.ran(c);
          }
        }
        backgroundErrors.succeeded();
      }
    } catch (Throwable t) {
      backgroundErrors.recordUnlessAbandoned(t, state.closing);
    } finally {
      compactionScheduled = false;
      schedule();
      backgroundProgress.signalAll();
      mutex.unlock();
    }
    versions.obsoleteFiles().purge(); // what the install retired: closed and deleted without the mutex
  }

  @GuardedBy("mutex")
  private void flushOldestFrozen() throws IOException {
    assert mutex.isHeldByCurrentThread();
    Frozen oldest = state.frozen.peekLast();
    LogWriter unretired = oldest.takeUnretiredLog();
    List<TableRef> written;
    long forcedLogBytes = -1;
    mutex.unlock();
    try {
      if (unretired != null) {
        forcedLogBytes = logRetirement.retire(unretired);
      }
      beforeFlush.run();
      written = outputs.flush(oldest.mem);
      if (options.blockCache().pinL0FilterAndIndexBlocksInCache()) {
        // On the flush thread, before the tables are installed: the Get that first consults one
        // must not load all its metadata to pin it. A failed install drops the readers again.
        List<FileMetadata> levelZero = new ArrayList<>();
        written.forEach(t -> levelZero.add(t.metadata()));
        tables.openAhead(levelZero, FileDescriptors.free() / 2);
      }
    } finally {
      mutex.lock();
      if (forcedLogBytes >= 0) {
        oldest.logForced(forcedLogBytes); // a close that abandons this flush records the log
      }
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
    Iterator<Frozen> oldestFirst = state.frozen.descendingIterator();
    oldestFirst.next();
    long logNumber = oldestFirst.hasNext() ? oldestFirst.next().logNumber : state.memLogNumber;
    try {
      versions.install(edit, () -> state.lastSequence, logNumber, true, oldest.markers);
    } catch (IOException | RuntimeException e) {
      outputs.discardUnlessListed(written, e);
      throw e;
    }
    Frozen flushed = state.frozen.removeLast();
    assert flushed == oldest : "only the flush thread removes frozen memtables";
    oldest.flushed = true;
    afterInstall();
    // The engine's reference: the memtable's memory is reused once the views holding it are gone.
    oldest.mem.release();
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
        if (state.closing) {
          return false;
        }
        backgroundErrors.throwIfPermanent();
        flushWaitsForLevelZero = true;
        schedule();
        backgroundProgress.awaitUninterruptibly();
      }
      return true;
    } finally {
      flushWaitsForLevelZero = false;
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
      outputs.moved(c).forEach(edit::add);
      install(edit, state.currentLogNumber(), false);
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
      install(edit, state.currentLogNumber(), true);
    } catch (IOException | RuntimeException e) {
      outputs.discardUnlessListed(written, e);
      throw e;
    }
  }

  /** Whether the tree needs a compaction, or a flush waits for level 0 to be compacted. */
  @GuardedBy("mutex")
  private boolean compactionNeeded() {
    Version v = versions.current();
    return picker.needsCompaction(v) || (flushWaitsForLevelZero && !v.level(0).isEmpty());
  }

  /** As a flush's install, recording {@code markers} (recovery's, after its replay). */
  @GuardedBy("mutex")
  void install(VersionEdit edit, long logNumber, MarkerSet markers) throws IOException {
    versions.install(edit, () -> state.lastSequence, logNumber, true, markers);
    afterInstall();
  }

  /** Makes {@code edit} durable and current (see {@link VersionSet#install}) and publishes it. */
  @GuardedBy("mutex")
  private void install(VersionEdit edit, long logNumber, boolean deleteFiles) throws IOException {
    versions.install(edit, () -> state.lastSequence, logNumber, deleteFiles);
    afterInstall();
  }

  /** Publishes the version an install made current. */
  @GuardedBy("mutex")
  private void afterInstall() {
    refit.treeChanged();
    pendingCompactionBytes = picker.pendingCompactionBytes(versions.current());
    readTrigger.refresh(versions.current(), state.mem);
    state.levelZeroReads = readTrigger.reads();
    state.publishView();
    state.purgeObsoleteFiles();
  }
}
