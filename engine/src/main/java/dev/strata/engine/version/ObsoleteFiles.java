package dev.strata.engine.version;

import dev.strata.engine.fs.FileNames;
import dev.strata.engine.fs.FileNames.DbFile;
import dev.strata.engine.fs.FileNames.FileType;
import dev.strata.sstable.format.LazyLogger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The files of a database that no live version needs any more, and their deletion (LevelDB's
 * RemoveObsoleteFiles, RocksDB's PurgeObsoleteFiles): tables no version lists, logs below the
 * manifest's log number, and at open the leftovers of a crash. Owned by the {@link VersionSet}.
 *
 * <p><b>Tables.</b> A table leaves the disk when the last version listing it is released ({@link
 * TableRef}): its reader is evicted from the {@link TableCache}, and its file (unless a trivial move
 * keeps it under a new level) is deleted once that reader is closed, never before: a file system
 * frees an unlinked file's pages and extents at its last close, tens of milliseconds for a large
 * table, and that must not fall on a read. So the deletion runs on the thread that purges, when the
 * reader closes at once, or on the deletes thread ({@link BackgroundDeletes}) after the reader's
 * last holder closed it.
 *
 * <p><b>Who purges.</b> The last version of a table may be released while the database's mutex is
 * held (an install replaces the current version): then the table is queued, and the installing
 * background thread purges the queue once it has released the mutex ({@link #purge}), before the job
 * reports its end, so a {@code compact()} that returns has removed what it replaced. Released
 * without the mutex (a read letting its view go), the purge is handed to the deletes thread, so the
 * read does not wait on it.
 *
 * <p>Thread-safe.
 */
public final class ObsoleteFiles implements AutoCloseable {
  private static final System.Logger LOG = LazyLogger.of(ObsoleteFiles.class);

  private final Path dir;
  private final TableCache tables;

  /** Tables are queued, not purged, while the current thread holds this; null: never. */
  private final ReentrantLock deferWhileHeld;

  /** Tables no version lists any more, waiting for {@link #purge}. */
  private final ConcurrentLinkedQueue<Retired> retired = new ConcurrentLinkedQueue<>();

  /** Where reads hand the purging they must not wait on, and readers their late deletions. */
  private final BackgroundDeletes deletes = new BackgroundDeletes();

  /** A table no version lists: its reader goes, and its file unless null (a trivial move). */
  private record Retired(long fileNumber, Path obsoleteFile) {}

  /**
   * @param deferWhileHeld the database's mutex: tables retired under it wait for {@link #purge};
   *     null to purge at once (tests, and private table sets)
   */
  public ObsoleteFiles(Path dir, TableCache tables, ReentrantLock deferWhileHeld) {
    this.dir = dir;
    this.tables = tables;
    this.deferWhileHeld = deferWhileHeld;
  }

  /**
   * Table {@code fileNumber} left the last version: its reader goes, and {@code obsoleteFile}
   * unless it is null (a trivially moved table keeps its file). Queued while the current thread
   * holds the database's mutex, for {@link #purge}; otherwise purged, with what is queued, on the
   * deletes thread, so the read that let the table go does not wait on it.
   */
  public void retire(long fileNumber, Path obsoleteFile) {
    retired.add(new Retired(fileNumber, obsoleteFile));
    if (!underDeferringLock()) {
      deletes.run(this::purge);
    }
  }

  /**
   * Purges the tables retired so far: evicts their readers and deletes their files once the
   * readers are closed. Never under the database's mutex.
   */
  public void purge() {
    assert !underDeferringLock() : "purging tables under the database mutex";
    Set<Long> deleted = new HashSet<>();
    for (Retired r = retired.poll(); r != null; r = retired.poll()) {
      Path file = r.obsoleteFile();
      if (file != null) {
        deleted.add(r.fileNumber());
      }
      Runnable deleteLater = file == null ? () -> {} : () -> deletes.run(() -> delete(file));
      TableCache.Eviction e = tables.evict(r.fileNumber(), deleteLater);
      if (file != null && e != TableCache.Eviction.CLOSES_WHEN_RELEASED) {
        delete(file);
      }
    }
    // A file number is never reused, so its blocks can only waste the cache: the metadata a
    // compaction's outputs put in on write, for one, would otherwise sit there until aged out.
    tables.blockCache().evictFiles(deleted);
  }

  /**
   * Deletes the logs numbered below {@code logNumber}, once a durable manifest record no longer
   * needs them. Best effort: a log left behind is below every later manifest's log number, never
   * replayed, and a later call deletes it.
   */
  void deleteLogsBelow(long logNumber) {
    try {
      for (DbFile f : FileNames.list(dir)) {
        if (f.is(FileType.LOG) && f.number() < logNumber) {
          try {
            Files.deleteIfExists(f.path());
          } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete obsolete log " + f.path(), e);
          }
        }
      }
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "could not list " + dir + " for obsolete logs", e);
    }
  }

  /**
   * Deletes the tables {@code live} does not list and every temporary file: what a crash left of
   * an interrupted flush, compaction or manifest rewrite. At open, before any read.
   */
  void deleteUnlisted(Set<Long> live) throws IOException {
    for (DbFile f : FileNames.list(dir)) {
      boolean orphanTable = f.is(FileType.TABLE) && !live.contains(f.number());
      if (orphanTable || f.is(FileType.TEMP)) {
        Files.deleteIfExists(f.path());
      }
    }
  }

  /** Tables retired and not yet purged; for tests. */
  int retiredCount() {
    return retired.size();
  }

  /** Waits until everything handed to the deletes thread so far is done; for tests. */
  void awaitDeletes() throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    deletes.run(done::countDown);
    done.await();
  }

  /** The deletes thread, for tests that hold it busy. */
  BackgroundDeletes deletes() {
    return deletes;
  }

  /**
   * Finishes what was handed to the deletes thread and purges what is queued, on this thread; from
   * then on deletions run on the caller's thread.
   */
  @Override
  public void close() {
    deletes.close();
    purge();
  }

  private boolean underDeferringLock() {
    return deferWhileHeld != null && deferWhileHeld.isHeldByCurrentThread();
  }

  private static void delete(Path obsoleteFile) {
    try {
      Files.deleteIfExists(obsoleteFile);
    } catch (IOException e) {
      // The file is unreachable either way; a leftover is deleted by the next open's cleanup.
      LOG.log(System.Logger.Level.WARNING, "could not delete table " + obsoleteFile, e);
    }
  }
}
