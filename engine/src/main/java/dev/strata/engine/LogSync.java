package dev.strata.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.fs.Closeables;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Forces the logs to the device without a flush, so that every write acknowledged before the call
 * survives a power loss ({@link Db#syncWal}, RocksDB's {@code SyncWAL}).
 *
 * <p>The logs that can hold acknowledged writes that are neither forced nor in a table are the one
 * taking writes and those of the frozen memtables, which a flush forces before it writes their
 * table but may not have reached yet (the logs a recovery kept were forced at open). Under the
 * mutex it takes their names; then, with the mutex released, it forces each through a channel of
 * its own, and the directory when a log was created since it last did. An fsync makes durable
 * everything written to the file before it, through any descriptor, so it needs no turn in the
 * writer queue: the leader's appends go on meanwhile, and what it appends during the fsync may or
 * may not be forced too. A frozen log that is gone was flushed into a table and deleted after the
 * manifest recorded that table: its writes are durable already.
 *
 * <p>It does not record the forced lengths in the manifest (a clean close does: {@link
 * EngineState#recordForcedLogs}). Recording them would make a later loss of those bytes fail the
 * open as corruption rather than being dropped as a torn tail, at the price of a manifest write and
 * fsync per call; the writes are on the device either way. RocksDB records synced lengths only with
 * {@code track_and_verify_wals_in_manifest}, off by default.
 *
 * <p>A failed fsync stops all writes until the database is reopened, as one of the writer's own
 * does: the kernel may have dropped pages of earlier appends, so the log can vouch for nothing
 * since its last good fsync. An interrupt fails nothing: a force it cuts short is done again, and
 * the flag stays set.
 *
 * <p>Thread-safe: any number of threads may call {@link #syncLogs} at once, with writes, flushes and
 * a close.
 */
final class LogSync {
  /** Attempts of one force that interrupts may cut short before it gives up. */
  private static final int MAX_INTERRUPTED_ATTEMPTS = 8;

  private final EngineState state;
  private final ReentrantLock mutex;
  private final BackgroundErrors errors;
  /** Every append was forced, with its log's directory entry: nothing is left to force. */
  private final boolean syncWrites;

  /** The newest log whose directory entry this forced; log numbers only grow. */
  @GuardedBy("mutex")
  private long entriesForcedThrough;

  LogSync(EngineState state, BackgroundErrors errors, boolean syncWrites) {
    this.state = state;
    this.mutex = state.mutex;
    this.errors = errors;
    this.syncWrites = syncWrites;
  }

  /** Forces every log that may hold an acknowledged write not yet durable; see the class comment. */
  void syncLogs() throws IOException {
    List<Path> logs;
    long newest;
    mutex.lock();
    try {
      state.throwIfClosing();
      errors.throwIfPermanent();
      if (syncWrites) {
        return;
      }
      logs = state.logsNotForced();
      newest = state.log.fileNumber();
      if (newest <= entriesForcedThrough) {
        newest = -1; // no log created since the directory was last forced here
      }
    } finally {
      mutex.unlock();
    }
    boolean interrupted = Thread.interrupted(); // would close a channel under the force
    try {
      for (Path log : logs) {
        interrupted |= force(log);
      }
      if (newest >= 0) {
        state.files.syncDirectory(state.dir);
        mutex.lock();
        try {
          entriesForcedThrough = Math.max(entriesForcedThrough, newest);
        } finally {
          mutex.unlock();
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Forces {@code log} if it still exists; a failed fsync stops writes (class comment). Returns
   * whether an interrupt arrived meanwhile, set aside for the caller to restore.
   */
  private boolean force(Path log) throws IOException {
    boolean interrupted = false;
    for (int attempt = 1; ; attempt++) {
      FileChannel ch;
      try {
        ch = state.files.openForWrite(log);
      } catch (NoSuchFileException e) {
        return interrupted; // flushed into a table the manifest lists, then deleted
      }
      try {
        ch.force(false);
      } catch (ClosedChannelException e) {
        interrupted |= Thread.interrupted(); // an interrupt closed the channel: not a failed fsync
        if (attempt == MAX_INTERRUPTED_ATTEMPTS) {
          throw e;
        }
        continue;
      } catch (IOException e) {
        Closeables.closeSuppressing(e, ch);
        errors.recordPermanent(e);
        throw e;
      }
      ch.close();
      return interrupted;
    }
  }
}
