package dev.strata.engine.version;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.fs.FileNames.DbFile;
import dev.strata.engine.fs.FileNames.FileType;
import dev.strata.engine.manifest.Manifest;
import dev.strata.engine.manifest.ManifestWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The current {@link Version} of a database and the manifest that makes it durable (LevelDB's
 * VersionSet). It hands out file numbers; it installs edits, manifest first and then in memory;
 * it marks dropped tables obsolete, so their files go once no read holds them; and it deletes the
 * files no manifest needs any more.
 *
 * <p>Thread-safety: guarded by the database mutex passed in, which every method but {@link
 * #newFileNumber} requires; the file-number counter is atomic because flush and compaction draw
 * numbers with the mutex released.
 */
public final class VersionSet {
  private static final System.Logger LOG = System.getLogger(VersionSet.class.getName());

  private final Path dir;
  private final ReentrantLock mutex;
  private final AtomicLong nextFileNumber = new AtomicLong(1);

  @GuardedBy("mutex")
  private Version current = Version.empty();

  public VersionSet(Path dir, ReentrantLock mutex) {
    this.dir = dir;
    this.mutex = mutex;
  }

  /**
   * Starts from what recovery found: {@code recovered} (its reference passes to this set) and the
   * first file number no file uses.
   */
  @GuardedBy("mutex")
  public void start(Version recovered, long nextFileNumber) {
    assert mutex.isHeldByCurrentThread();
    Version empty = current;
    current = recovered;
    this.nextFileNumber.set(nextFileNumber);
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
   * @throws IOException when the manifest cannot be written; nothing changed then (a failure to
   *     delete an obsolete log afterwards is logged, never thrown: the edit is installed)
   */
  @GuardedBy("mutex")
  public void install(VersionEdit edit, long lastSequence, long logNumber, boolean deleteFiles)
      throws IOException {
    assert mutex.isHeldByCurrentThread();
    Version next = current.apply(edit);
    try {
      ManifestWriter.write(
          dir, new Manifest(nextFileNumber.get(), lastSequence, logNumber, next.files()));
    } catch (IOException | RuntimeException e) {
      next.release();
      throw e;
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
    old.release(); // read views hold their own references
    deleteLogsBelow(logNumber);
  }

  /** Deletes tables the current version does not list and temporary files: leftovers of a crash. */
  @GuardedBy("mutex")
  public void deleteUnlistedFiles() throws IOException {
    assert mutex.isHeldByCurrentThread();
    Set<Long> live = current.fileNumbers();
    for (DbFile f : FileNames.list(dir)) {
      boolean orphanTable = f.is(FileType.TABLE) && !live.contains(f.number());
      if (orphanTable || f.is(FileType.TEMP)) {
        Files.deleteIfExists(f.path());
      }
    }
  }

  /** Releases the current version; the set is unusable afterwards. */
  @GuardedBy("mutex")
  public void close() {
    assert mutex.isHeldByCurrentThread();
    current.release();
  }

  /**
   * Deletes the logs the manifest no longer needs. Best effort: the edit is installed by now, so a
   * failure here must not fail it (the caller would undo an installed change, and flush a frozen
   * memtable twice); a log left behind is below every later manifest's log number, never replayed,
   * and the next install deletes it.
   */
  private void deleteLogsBelow(long logNumber) {
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
}
