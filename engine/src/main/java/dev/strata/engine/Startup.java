package dev.strata.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.compaction.OutputTables;
import dev.strata.engine.fs.FileDescriptors;
import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.log.LogFormat;
import dev.strata.engine.log.LogWriter;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.manifest.SyncedLog;
import dev.strata.engine.read.ReadPathWarmUp;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.VersionEdit;
import dev.strata.engine.version.VersionSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The steps of {@link Db#open} after the directory is locked (RocksDB's db_impl_open): takes what
 * {@link Recovery} found on disk into the engine state, opens the tables ahead of the first read,
 * and schedules the background work recovery left due.
 *
 * <p>Not thread-safe: used once, by the opening thread, before the database is published.
 */
final class Startup {
  private final EngineState state;
  private final ReentrantLock mutex;
  private final VersionSet versions;
  private final Path dir;
  private final DbOptions options;
  /** Logs are written through this: the real file system but in fault tests. */
  private final FileLayer files;
  private final TableCache tables;
  private final OutputTables outputs;
  private final BackgroundWork background;

  Startup(
      EngineState state,
      DbOptions options,
      TableCache tables,
      OutputTables outputs,
      BackgroundWork background) {
    this.state = state;
    this.mutex = state.mutex;
    this.versions = state.versions;
    this.dir = state.dir;
    this.options = options;
    this.files = state.files;
    this.tables = tables;
    this.outputs = outputs;
    this.background = background;
  }

  /**
   * Brings the on-disk state to a clean start: the logs a crash left are replayed; they stay the
   * memtable's logs when they fit in it ({@link #resumeLogs}), else they are written to a level-0
   * table and a new log begins (never appending after a dropped stretch); the manifest records it,
   * and files no manifest lists (outputs of an interrupted flush or compaction) are deleted.
   * Returns what recovery found, for the counters of what the replay dropped.
   */
  Recovery recover() throws IOException {
    Recovery r =
        Recovery.run(dir, files, tables, versions.obsoleteFiles(), options, state::newMemTable);
    mutex.lock();
    try {
      if (options.files().readOnly()) {
        // Serve what recovery found: the tables and, in memory, the replayed logs. Nothing is
        // written or deleted, no log is opened and no background work is scheduled.
        versions.start(Version.of(r.levels), r.nextFileNumber, r.manifest);
        state.lastSequence = r.lastSequence;
        state.markers = r.markers;
        state.replaceEmptyMemTable(r.replayed);
        state.publishView();
        return r;
      }
      versions.start(Version.of(r.levels), r.nextFileNumber, r.manifest);
      tables.countsAsWrittenHere(r.nextFileNumber);
      state.lastSequence = r.lastSequence;
      state.markers = r.markers;
      if (!resumeLogs(r)) {
        VersionEdit edit = new VersionEdit();
        if (!r.replayed.isEmpty()) {
          outputs.flush(r.replayed).forEach(edit::add);
        }
        r.replayed.release(); // in no view: its table holds it now
        long logNumber = versions.newFileNumber();
        state.log =
            LogWriter.create(
                files, FileNames.log(dir, logNumber), logNumber, options.memtable().syncWrites());
        // The install below names this log as the oldest needed: its entry must be durable first,
        // or a power loss could leave a manifest needing a log that is not there (Recovery).
        files.syncDirectory(dir);
        state.memLogNumber = logNumber;
        state.publishView();
        background.install(edit, logNumber, r.markers); // the replayed logs' markers go with them
      }
      versions.deleteUnlistedFiles();
    } finally {
      mutex.unlock();
    }
    versions.obsoleteFiles().purge();
    return r;
  }

  /**
   * Opens the tables of the recovered version before the first read needs them, level 0 first
   * (see {@link TableCache#openAhead}): what opening a table reads (footer, properties, filter
   * index, index root) then counts in {@code bytesReadAtOpen} and costs the open, as in RocksDB,
   * and the first Get reads only the blocks it needs. Before background work starts, so no
   * compaction deletes a table under it. Takes at most half of the descriptors the process has
   * left: the reads open the rest when they need them, as they would have without this. With
   * {@code warmUpOnOpen}, the first open in a JVM also runs the read paths once on the side ({@link
   * ReadPathWarmUp}), on a thread of its own while this one opens the tables, and waits for it.
   */
  void openTablesAhead() {
    List<FileMetadata> files;
    mutex.lock();
    try {
      files = versions.current().files();
    } finally {
      mutex.unlock();
    }
    Thread warmUp =
        options.reads().warmUpOnOpen()
            ? ReadPathWarmUp.start(dir, files, options.blockCacheOffHeap())
            : null;
    tables.openAhead(files, FileDescriptors.free() / 2);
    if (warmUp != null) {
      ReadPathWarmUp.await(warmUp);
    }
  }

  /** Schedules the flushes and compactions recovery left due; none for a read-only open. */
  void startBackgroundWork() {
    if (options.files().readOnly()) {
      return;
    }
    mutex.lock();
    try {
      background.start();
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
    if (r.logs.isEmpty() || r.replayed.approximateBytes() >= options.memtable().memtableBytes()) {
      return false;
    }
    if (r.replay.stop() != null && !r.replay.tornTailOnly()) {
      return false;
    }
    if (r.replay.records() > 0 && r.replay.lastReplayedSequence() != r.lastSequence) {
      return false;
    }
    if (r.replay.records() == 0 && r.logs.size() > 1) {
      // The older logs hold no record (a power loss cut them to nothing). Replay accepts that only
      // while no newer log holds one: records appended to the newest would make them read, after
      // the next crash, as logs whose records were lost, and everything after them be dropped.
      // A new log, named in the manifest, retires them.
      return false;
    }
    long newest = r.logs.lastKey();
    Path newestFile = r.logs.get(newest);
    long validLength =
        r.replay.stop() == null ? Files.size(newestFile) : r.replay.stop().offset();
    if (validLength < LogFormat.FILE_HEADER_BYTES) {
      return false; // a log whose header was never written whole: start a new one
    }
    if (LogFormat.versionOf(newestFile) != LogFormat.VERSION_CURRENT) {
      return false; // never append records of one version to a file of another
    }
    List<SyncedLog> forced = new ArrayList<>();
    for (Map.Entry<Long, Path> older : r.logs.headMap(newest).entrySet()) {
      LogWriter.force(files, older.getValue());
      forced.add(new SyncedLog(older.getKey(), Files.size(older.getValue())));
    }
    state.resumedLogs = List.copyOf(forced);
    state.log =
        LogWriter.reopen(
            files, newestFile, newest, validLength, options.memtable().syncWrites());
    state.replaceEmptyMemTable(r.replayed);
    state.memLogNumber = r.logs.firstKey();
    state.publishView();
    return true;
  }
}
