package dev.strata.engine.version;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.compaction.OutputTables;
import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.Manifest;
import dev.strata.engine.manifest.ManifestReader;
import dev.strata.engine.manifest.ManifestWriteException;
import dev.strata.engine.memtable.MemTable;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Installing edits: manifest first, then current; obsolete tables and logs go; failures change nothing. */
final class VersionSetTest {
  @TempDir Path dir;

  private final ReentrantLock mutex = new ReentrantLock();
  private VersionSet versions;
  private OutputTables outputs;
  private TableCache tables;

  @BeforeEach
  void start() {
    mutex.lock();
    tables = new TableCache(dir, TableCache.UNLIMITED, new ClockBlockCache(1 << 20), new ReadCounters());
    versions = new VersionSet(dir, mutex, FileLayer.real(), tables);
    versions.start(Version.empty(), 10, Manifest.empty());
    outputs =
        new OutputTables(
            dir,
            FileLayer.real(),
            dev.strata.engine.compaction.FilterChoice.uniform(TableOptions.defaults()),
            Long.MAX_VALUE,
            versions::newFileNumber,
            tables,
            versions.obsoleteFiles(),
            () -> dev.strata.engine.compaction.SnapshotStripes.NONE,
            SstableFormat.MAX_BLOCK_BYTES,
            1,
            () -> false);
  }

  @AfterEach
  void stop() {
    versions.close();
    mutex.unlock();
    tables.close();
  }

  /** A level-0 table holding one cell of {@code row}, written and opened. */
  private TableRef table(String row) throws IOException {
    MemTable m = new MemTable();
    byte[] r = row.getBytes(StandardCharsets.UTF_8);
    m.add(new InternalKey(r, new byte[0], 1, ValueKind.PUT), r);
    List<TableRef> written = outputs.flush(m);
    assertEquals(1, written.size());
    return written.get(0);
  }

  private static VersionEdit adding(TableRef t) {
    VersionEdit edit = new VersionEdit();
    edit.add(t);
    return edit;
  }

  /**
   * A compaction's install that waits for a flush's install must record the last sequence of when
   * its turn comes, not of when it asked: the flush may list a table with newer sequence numbers,
   * and a manifest claiming a lower last sequence is broken (writes failed for good with "refusing
   * to write a broken manifest" when the flush won that race).
   */
  @Test
  void install_waitingForAnother_readsTheLastSequenceWhenItsTurnComes() throws Exception {
    TableRef flushed = table("a"); // sequence 1
    AtomicLong lastSequence = new AtomicLong(0); // the database's, before the flush's writes
    CountDownLatch inWrite = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    versions.beforeEachManifestWrite(
        () -> {
          if (inWrite.getCount() > 0) {
            inWrite.countDown();
            awaitQuietly(release);
          }
        });
    AtomicReference<Throwable> flushFailure = new AtomicReference<>();
    Thread flush =
        new Thread(
            () -> {
              mutex.lock();
              try {
                versions.install(adding(flushed), 1, 0, true);
              } catch (Throwable t) {
                flushFailure.set(t);
              } finally {
                mutex.unlock();
              }
            });
    mutex.unlock();
    flush.start();
    assertTrue(inWrite.await(30, TimeUnit.SECONDS));
    mutex.lock();
    // Gets the mutex only once the install below waits for the flush's, releasing it.
    Thread writes =
        new Thread(
            () -> {
              mutex.lock();
              try {
                lastSequence.set(1);
                release.countDown();
              } finally {
                mutex.unlock();
              }
            });
    writes.start();
    versions.install(new VersionEdit(), lastSequence::get, 0, true);
    flush.join();
    writes.join();
    assertNull(flushFailure.get());
    assertEquals(1, ManifestReader.read(FileNames.manifest(dir)).lastSequence());
    assertEquals(Set.of(flushed.metadata().fileNumber()), versions.current().fileNumbers());
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void install_writesTheManifestThenMakesItCurrent_andDeletesOlderLogs() throws IOException {
    Files.createFile(FileNames.log(dir, 3));
    Files.createFile(FileNames.log(dir, 4));
    TableRef t = table("a");
    long number = t.metadata().fileNumber();
    assertEquals(10, number, "numbers continue from start()");

    versions.install(adding(t), 7, 4, true);

    Manifest m = ManifestReader.read(FileNames.manifest(dir));
    assertEquals(7, m.lastSequence());
    assertEquals(4, m.logNumber());
    assertEquals(List.of(t.metadata()), m.files());
    assertTrue(m.nextFileNumber() > number);
    assertEquals(Set.of(number), versions.current().fileNumbers());
    assertFalse(Files.exists(FileNames.log(dir, 3)), "a log below the manifest's log number");
    assertTrue(Files.exists(FileNames.log(dir, 4)), "the oldest log still needed");
  }

  @Test
  void install_deletedTable_fileGoesOnceNoVersionHoldsIt_unlessMoved() throws Exception {
    TableRef kept = table("a");
    TableRef moved = table("b");
    versions.install(adding(kept), 1, 0, true);
    versions.install(adding(moved), 1, 0, true);
    Path keptFile = FileNames.table(dir, kept.metadata().fileNumber());
    Path movedFile = FileNames.table(dir, moved.metadata().fileNumber());

    Version pinned = versions.current();
    assertTrue(pinned.tryAcquire(), "a reader pins the version");
    VersionEdit drop = new VersionEdit();
    drop.delete(kept.metadata().fileNumber());
    versions.install(drop, 1, 0, true);
    assertTrue(Files.exists(keptFile), "a pinned version still reads the table");
    outsideMutex(pinned::release); // a read releases its version without the database's mutex
    versions.obsoleteFiles().awaitDeletes(); // the release hands the purge to the deletes thread
    assertFalse(Files.exists(keptFile), "obsolete and unreferenced: deleted");

    // A trivial move: the same file leaves level 0 and reappears at level 1; it must survive.
    VersionEdit move = new VersionEdit();
    move.delete(moved.metadata().fileNumber());
    move.add(moved.relisted(moved.metadata().atLevel(1)));
    versions.install(move, 1, 0, false);
    assertTrue(Files.exists(movedFile));
    assertEquals(1, versions.current().level(1).size());
  }

  /**
   * A version from before a trivial move lists the file under its old entry. When the moved entry
   * is compacted away and its last version released, the file must stay until that older version
   * is released too: a scan holding it opens its tables lazily (DbModelProperties once failed with
   * NoSuchFileException from a scan's level iterator).
   */
  @Test
  void install_movedThenCompactedAway_fileStaysWhileAVersionFromBeforeTheMoveHoldsIt()
      throws Exception {
    TableRef t = table("a");
    versions.install(adding(t), 1, 0, true);
    Path file = FileNames.table(dir, t.metadata().fileNumber());
    Version beforeMove = versions.current();
    assertTrue(beforeMove.tryAcquire(), "a scan pins the version");

    VersionEdit move = new VersionEdit();
    move.delete(t.metadata().fileNumber());
    move.add(t.relisted(t.metadata().atLevel(1)));
    versions.install(move, 1, 0, false);
    VersionEdit compactedAway = new VersionEdit();
    compactedAway.delete(t.metadata().fileNumber());
    versions.install(compactedAway, 1, 0, true);
    outsideMutex(versions.obsoleteFiles()::purge); // as the installing job does, once it let go
    assertTrue(Files.exists(file), "the version from before the move still lists it");
    byte[] row = "a".getBytes(StandardCharsets.UTF_8);
    GetResult read = beforeMove.level(0).get(0).get(FilterProbe.of(row, new byte[0]), 1);
    assertArrayEquals(row, read.value(), "and reads it");

    outsideMutex(beforeMove::release);
    versions.obsoleteFiles().awaitDeletes();
    assertFalse(Files.exists(file), "obsolete and unreferenced by every version: deleted");
  }

  @Test
  void install_manifestCannotBeWritten_changesNothing() throws IOException {
    TableRef first = table("a");
    versions.install(adding(first), 1, 0, true);
    byte[] manifestBefore = Files.readAllBytes(FileNames.manifest(dir));
    versions.manifestLog().close(); // as after a failure: the next write rewrites the manifest
    Files.createDirectory(FileNames.manifestTemp(dir)); // and that rewrite cannot be written

    TableRef second = table("b");
    IOException e =
        assertThrows(IOException.class, () -> versions.install(adding(second), 2, 0, true));
    assertFalse(ManifestWriteException.mayHaveReachedDisk(e), "failed before the rename: " + e);

    assertEquals(Set.of(first.metadata().fileNumber()), versions.current().fileNumbers());
    assertArrayEquals(manifestBefore, Files.readAllBytes(FileNames.manifest(dir)));
  }

  @Test
  void deleteUnlistedFiles_removesOrphanTablesAndTemporaries_keepsTheRest() throws IOException {
    TableRef listed = table("a");
    versions.install(adding(listed), 1, 0, true);
    Path orphan = FileNames.table(dir, 99);
    Files.write(orphan, new byte[] {1});
    Path temp = FileNames.temp(dir, 98);
    Files.write(temp, new byte[] {1});
    Path log = FileNames.log(dir, 97);
    Files.write(log, new byte[] {1});

    versions.deleteUnlistedFiles();

    assertFalse(Files.exists(orphan));
    assertFalse(Files.exists(temp));
    assertTrue(Files.exists(log), "logs are the log number's business, not this");
    assertTrue(Files.exists(FileNames.table(dir, listed.metadata().fileNumber())));
    assertTrue(Files.exists(FileNames.manifest(dir)));
  }

  /** Runs {@code r} with the database's mutex, which the tests hold, released. */
  private void outsideMutex(Runnable r) {
    mutex.unlock();
    try {
      r.run();
    } finally {
      mutex.lock();
    }
  }
}
