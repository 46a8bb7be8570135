package dev.strata.engine.version;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.manifest.Manifest;
import dev.strata.engine.manifest.ManifestEdit;
import dev.strata.engine.manifest.ManifestLog;
import dev.strata.engine.manifest.ManifestWriteException;
import dev.strata.engine.manifest.SyncedLog;
import dev.strata.engine.write.MarkerSet;
import dev.strata.sstable.format.LazyLogger;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The current {@link Version} of a database and the manifest log that makes it durable (LevelDB's
 * VersionSet). It hands out file numbers; it installs edits, manifest first and then in memory;
 * it marks dropped tables obsolete, so their files go once no read holds them; and it owns the
 * deletion of the files no version needs any more ({@link ObsoleteFiles}).
 *
 * <p>Thread-safety: guarded by the database mutex passed in, which every method but {@link
 * #newFileNumber} requires; the file-number counter is atomic because flush and compaction draw
 * numbers with the mutex released. An install writes and fsyncs the manifest with the mutex
 * released, so writers and readers never wait for that I/O; installs run one at a time ({@code
 * manifestBusy}), so the version an edit was applied to is still current when the edit is durable.
 */
public final class VersionSet {
  private static final System.Logger LOG = LazyLogger.of(VersionSet.class);

  private final Path dir;
  private final ReentrantLock mutex;
  private final AtomicLong nextFileNumber = new AtomicLong(1);
  /** Signalled when an install finishes its manifest write. */
  private final Condition manifestIdle;

  @GuardedBy("mutex")
  private Version current = Version.empty();

  /** Written by one install at a time: the one that set {@code manifestBusy}. */
  private final ManifestLog manifest;

  @GuardedBy("mutex")
  private boolean manifestBusy;

  /** The log number the last install recorded: later installs never record a smaller one. */
  @GuardedBy("mutex")
  private long installedLogNumber;

  /** The needed logs the manifest records as forced, by number; every rewrite carries them. */
  @GuardedBy("mutex")
  private final TreeMap<Long, SyncedLog> syncedLogs = new TreeMap<>();

  /** The commit markers the manifest records; every rewrite carries them. */
  @GuardedBy("mutex")
  private MarkerSet markers = MarkerSet.EMPTY;

  /** Run before each manifest write, without the mutex; a test seam. */
  private volatile Runnable beforeManifestWrite = () -> {};

  /** The files no version needs any more, and their deletion. */
  private final ObsoleteFiles obsolete;

  /**
   * A set whose manifest is written through {@code files}, and whose obsolete tables leave {@code
   * tables} and the disk.
   */
  public VersionSet(Path dir, ReentrantLock mutex, FileLayer files, TableCache tables) {
    this.dir = dir;
    this.mutex = mutex;
    this.manifestIdle = mutex.newCondition();
    this.manifest = new ManifestLog(dir, files);
    this.obsolete = new ObsoleteFiles(dir, tables, mutex);
  }

  /** Where tables listed by no version go: tables made for this set are created with it. */
  public ObsoleteFiles obsoleteFiles() {
    return obsolete;
  }

  /**
   * Starts from what recovery found: {@code recovered} (its reference passes to this set), the
   * first file number no file uses, and the manifest read, whose log number and forced logs the
   * next writes carry on.
   */
  @GuardedBy("mutex")
  public void start(Version recovered, long nextFileNumber, Manifest manifest) {
    assert mutex.isHeldByCurrentThread();
    Version empty = current;
    current = recovered;
    this.nextFileNumber.set(nextFileNumber);
    installedLogNumber = manifest.logNumber();
    syncedLogs.clear();
    manifest.syncedLogs().forEach(l -> syncedLogs.put(l.logNumber(), l));
    markers = manifest.markers();
    empty.release();
  }

  /** The current version; the set holds its reference (acquire one to keep it past the mutex). */
  @GuardedBy("mutex")
  public Version current() {
    assert mutex.isHeldByCurrentThread();
    return current;
  }

  /** A file number no file has had, for a new log or table. Thread-safe. */
  public long newFileNumber() {
    return nextFileNumber.getAndIncrement();
  }

  /**
   * Makes {@code edit} durable in the manifest, with {@code lastSequence} and {@code logNumber} (the
   * oldest log still needed), then current; marks the tables it deletes obsolete unless {@code
   * deleteFiles} is false (a trivial move keeps the file under its new level), and deletes the logs
   * below {@code logNumber}. The caller then publishes a read view of the new version.
   *
   * <p>The mutex is released while the manifest is written and fsynced and the obsolete logs are
   * deleted, and held again on return; another install waits meanwhile, so the edit applies to the
   * version current when it started.
   *
   * @throws IOException when the manifest cannot be written; nothing changed in memory then, and
   *     {@link ManifestWriteException#mayHaveReachedDisk} says whether the manifest may list the
   *     edit's tables all the same (a failure to delete an obsolete log afterwards is logged, never
   *     thrown: the edit is installed)
   */
  @GuardedBy("mutex")
  public void install(VersionEdit edit, long lastSequence, long logNumber, boolean deleteFiles)
      throws IOException {
    install(edit, () -> lastSequence, logNumber, deleteFiles);
  }

  /**
   * As above, asking for the last sequence number only once the manifest is free: an install that
   * waited for another (a compaction behind a flush) must record a sequence number at least as
   * large as that of every table the other added. The log number recorded never goes back either.
   */
  @GuardedBy("mutex")
  public void install(
      VersionEdit edit, LongSupplier lastSequenceNow, long logNumberAtLeast, boolean deleteFiles)
      throws IOException {
    install(edit, lastSequenceNow, logNumberAtLeast, deleteFiles, null);
  }

  /**
   * As above, recording {@code markersNow} as the commit markers (null keeps those recorded): a
   * flush passes the markers as of its memtable's last write, so the manifest never holds a marker
   * ahead of the data it records. Flushes install in freezing order, so markers never go back.
   */
  @GuardedBy("mutex")
  public void install(
      VersionEdit edit,
      LongSupplier lastSequenceNow,
      long logNumberAtLeast,
      boolean deleteFiles,
      MarkerSet markersNow)
      throws IOException {
    assert mutex.isHeldByCurrentThread();
    while (manifestBusy) {
      manifestIdle.awaitUninterruptibly();
    }
    manifestBusy = true;
    try {
      long lastSequence = lastSequenceNow.getAsLong();
      long logNumber = Math.max(logNumberAtLeast, installedLogNumber);
      Version next = current.apply(edit);
      MarkerSet markersAfter = markersNow == null ? markers : markersNow;
      Manifest after =
          new Manifest(
              nextFileNumber.get(),
              lastSequence,
              logNumber,
              next.files(),
              syncedFrom(logNumber),
              markersAfter);
      List<FileMetadata> added = new ArrayList<>();
      for (int level = 0; level < Version.NUM_LEVELS; level++) {
        edit.added(level).forEach(t -> added.add(t.metadata()));
      }
      ManifestEdit record =
          new ManifestEdit(
              after.nextFileNumber(),
              lastSequence,
              logNumber,
              edit.deletedFileNumbers(),
              added,
              List.of(),
              markersAfter.changesFrom(markers));
      mutex.unlock();
      try {
        beforeManifestWrite.run();
        manifest.write(record, after);
        obsolete.deleteLogsBelow(logNumber); // the record that no longer needs them is durable
      } catch (IOException | RuntimeException e) {
        next.release();
        throw e;
      } finally {
        mutex.lock();
      }
      if (deleteFiles) {
        for (TableRef t : current.allTables()) {
          if (edit.deletedFileNumbers().contains(t.metadata().fileNumber())) {
            t.markObsolete();
          }
        }
      }
      Version old = current;
      current = next;
      installedLogNumber = logNumber;
      markers = markersAfter;
      syncedLogs.headMap(logNumber).clear();
      old.release(); // read views hold their own references
    } finally {
      manifestBusy = false;
      manifestIdle.signalAll();
    }
  }

  /**
   * Records in the manifest that each of {@code logs} was forced up to its length (a clean close,
   * after forcing them), so that the next open treats damage before that length as corruption
   * rather than a torn tail; durable on return. The table set and counters stay as they are, but
   * for {@code lastSequence}, which never goes back.
   *
   * @throws IOException when the manifest cannot be written; the logs then keep the torn-tail rules
   */
  @GuardedBy("mutex")
  public void recordSyncedLogs(List<SyncedLog> logs, long lastSequence) throws IOException {
    assert mutex.isHeldByCurrentThread();
    while (manifestBusy) {
      manifestIdle.awaitUninterruptibly();
    }
    manifestBusy = true;
    try {
      TreeMap<Long, SyncedLog> known = new TreeMap<>(syncedLogs);
      logs.forEach(l -> known.put(l.logNumber(), l));
      known.headMap(installedLogNumber).clear();
      Manifest after =
          new Manifest(
              nextFileNumber.get(),
              lastSequence,
              installedLogNumber,
              current.files(),
              List.copyOf(known.values()),
              markers);
      ManifestEdit record =
          new ManifestEdit(
              after.nextFileNumber(),
              lastSequence,
              installedLogNumber,
              List.of(),
              List.of(),
              List.copyOf(logs),
              List.of());
      mutex.unlock();
      try {
        manifest.write(record, after);
      } finally {
        mutex.lock();
      }
      syncedLogs.clear();
      syncedLogs.putAll(known);
    } finally {
      manifestBusy = false;
      manifestIdle.signalAll();
    }
  }

  /** The forced logs a manifest whose oldest needed log is {@code logNumber} carries. */
  @GuardedBy("mutex")
  private List<SyncedLog> syncedFrom(long logNumber) {
    return List.copyOf(syncedLogs.tailMap(logNumber, true).values());
  }

  /** Makes every install run {@code hook} without the mutex just before its manifest write. */
  void beforeEachManifestWrite(Runnable hook) {
    beforeManifestWrite = hook;
  }

  /** The manifest log; for tests. */
  ManifestLog manifestLog() {
    return manifest;
  }

  /** Deletes tables the current version does not list and temporary files: leftovers of a crash. */
  @GuardedBy("mutex")
  public void deleteUnlistedFiles() throws IOException {
    assert mutex.isHeldByCurrentThread();
    obsolete.deleteUnlisted(current.fileNumbers());
  }

  /** Releases the current version and closes the manifest; the set is unusable afterwards. */
  @GuardedBy("mutex")
  public void close() {
    assert mutex.isHeldByCurrentThread();
    current.release();
    try {
      manifest.close();
    } catch (IOException e) {
      // Every record written was fsynced; closing a channel loses nothing.
      LOG.log(System.Logger.Level.WARNING, "could not close the manifest of " + dir, e);
    }
  }
}
