package dev.strata.engine;

import dev.strata.engine.fs.DirectoryLock;
import dev.strata.engine.observe.BeanRegistration;
import dev.strata.engine.observe.MBeans;
import dev.strata.engine.read.OpenReaders;
import dev.strata.engine.version.TableCache;
import dev.strata.sstable.cache.BlockCache;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.management.ObjectName;

/**
 * How a database lets everything go, in the order that keeps every promise: {@link #close} (a clean
 * close) and {@link #abandonOpen} (an open that failed part way).
 *
 * <p>A clean close refuses new calls, stops the background work (a flush or compaction running is
 * abandoned at its next look: nothing acknowledged depends on it), closes the scanners and cursors
 * still open, forces the logs and records them as forced in the manifest, then releases the files,
 * the block cache's and the memtables' memory and, last, the directory lock, so a later open finds
 * nothing held. A failed open does the same but records nothing: it leaves the directory as a
 * crash would. The memtables' direct memory is freed only once the background threads have
 * stopped, since a flush still running reads its memtable; a thread that outlives the wait leaves
 * that memory to the collector.
 *
 * <p>Thread-safe: the first close does the work, a later one returns at once.
 */
final class Shutdown {
  private final EngineState state;
  private final ReentrantLock mutex;
  private final boolean readOnly;
  private final BackgroundWork background;
  private final WritePath writePath;
  private final Snapshots snapshots;
  private final OpenReaders readers;
  private final Reads reads;
  private final TableCache tables;
  private final BlockCache cache;
  /** The exclusive directory lock; null for a read-only open, which takes none. */
  private final DirectoryLock lock;

  Shutdown(
      EngineState state,
      boolean readOnly,
      BackgroundWork background,
      WritePath writePath,
      Snapshots snapshots,
      OpenReaders readers,
      Reads reads,
      TableCache tables,
      BlockCache cache,
      DirectoryLock lock) {
    this.state = state;
    this.mutex = state.mutex;
    this.readOnly = readOnly;
    this.background = background;
    this.writePath = writePath;
    this.snapshots = snapshots;
    this.readers = readers;
    this.reads = reads;
    this.tables = tables;
    this.cache = cache;
    this.lock = lock;
  }

  /**
   * Closes the database (see the class comment), unregistering its {@code management} bean once
   * the open's registration of it has ended; the first failure is thrown once everything is
   * released, the others suppressed.
   */
  void close(BeanRegistration management) throws IOException {
    ObjectName bean = management.await();
    mutex.lock();
    try {
      if (state.closed) {
        return;
      }
      state.closed = true;
      state.closing = true;
      MBeans.unregister(bean);
      snapshots.closeAll();
      state.backgroundProgress.signalAll(); // a waiting flush() or compact() now sees `closing`
      while (background.running() || !writePath.idle()) {
        state.backgroundProgress.awaitUninterruptibly();
      }
    } finally {
      mutex.unlock();
    }
    IOException failure = null;
    boolean stopped = false;
    try {
      stopped = background.shutdown(1, TimeUnit.MINUTES);
      if (!stopped) {
        failure = new IOException("background threads did not stop: " + state.dir);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = new IOException("interrupted while closing " + state.dir, e);
    }
    readers.closeAll(); // before the lock goes: a later open may delete what they pinned
    reads.close();
    mutex.lock();
    try {
      if (!readOnly) {
        state.recordForcedLogs();
      }
      try {
        state.closeLogs();
      } catch (IOException e) {
        failure = addFailure(failure, e);
      }
      state.view.close();
      if (stopped) {
        state.releaseMemTables();
      }
      state.versions.close();
    } finally {
      mutex.unlock();
      state.versions.obsoleteFiles().close(); // what the released versions retired, purged here
      tables.close(); // readers a leaked view still pins: the lock goes next
      cache.close(); // frees its direct-memory slabs now, not when the collector finds them
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

  /** Releases what a failed open holds. */
  void abandonOpen() throws IOException {
    state.closed = true;
    mutex.lock();
    try {
      state.closing = true; // a background step scheduled by recover() does nothing now
    } finally {
      mutex.unlock();
    }
    boolean stopped = false;
    try {
      stopped = background.shutdown(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    mutex.lock();
    try {
      try {
        state.closeLogs(); // as a crash leaves them: a failed open records nothing
      } catch (IOException | RuntimeException e) {
        // the open's own failure is what the caller gets
      }
      if (state.view != null) {
        state.view.close();
      }
      if (stopped) {
        state.releaseMemTables();
      }
      state.versions.close();
    } finally {
      mutex.unlock();
      state.versions.obsoleteFiles().close();
      tables.close();
      cache.close();
      if (lock != null) {
        lock.close();
      }
    }
  }

  private static IOException addFailure(IOException first, IOException next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }
}
