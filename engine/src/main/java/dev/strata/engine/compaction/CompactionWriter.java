package dev.strata.engine.compaction;

import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.read.InternalIterator;
import dev.strata.engine.read.NewestVersions;
import dev.strata.sstable.InternalKey;
import dev.strata.sstable.TableMetadata;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.TableProperties;
import dev.strata.sstable.TableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Writes a merged stream of entries as the tables of one level, keeping only what a read can still
 * need: for each cell its newest entry unless its row's tombstone is newer, and each row's newest
 * row tombstone. Used by flush (one memtable to one level-0 table) and by compaction.
 *
 * <p>Tombstones themselves are dropped only for rows where {@code bottommost} says no older level
 * can hold the row any more; otherwise they must stay to hide older data below.
 *
 * <p>Outputs are cut after {@code targetFileBytes}, but only between rows, so no row is split
 * between two tables of a level (a Get then needs at most one table per level).
 *
 * <p>Every version is dropped as soon as a newer one exists, because Strata has no user-visible
 * snapshots: a running scan pins the files and memtables it reads, not sequence numbers.
 *
 * <p>Not thread-safe: one writer per compaction.
 */
public final class CompactionWriter {
  private final Path dir;
  private final int outputLevel;
  private final TableOptions tableOptions;
  private final long targetFileBytes;
  private final LongSupplier newFileNumber;
  private final Predicate<byte[]> bottommost;

  private final List<FileMetadata> outputs = new ArrayList<>();
  private TableWriter current;
  private long currentNumber;
  private byte[] lastRow;

  /**
   * @param bottommost true for a row no table below {@code outputLevel} can hold
   */
  public CompactionWriter(
      Path dir,
      int outputLevel,
      TableOptions tableOptions,
      long targetFileBytes,
      LongSupplier newFileNumber,
      Predicate<byte[]> bottommost) {
    this.dir = dir;
    this.outputLevel = outputLevel;
    this.tableOptions = tableOptions;
    this.targetFileBytes = targetFileBytes;
    this.newFileNumber = newFileNumber;
    this.bottommost = bottommost;
  }

  /**
   * Writes everything {@code merged} (positioned at its first entry) holds that is still needed and
   * returns the tables written, synced to disk. On failure the partial outputs are deleted.
   */
  public List<FileMetadata> write(InternalIterator merged) throws IOException {
    boolean ok = false;
    try {
      NewestVersions versions = new NewestVersions(merged, InternalKey.MAX_SEQUENCE);
      while (versions.next()) {
        InternalKey newest = versions.newest();
        boolean dropTombstones = bottommost.test(newest.row());
        long rowTombstone = versions.rowTombstoneSequence();
        if (newest.sequence() > rowTombstone || newest == versions.rowTombstone()) {
          if (!(dropTombstones && newest.kind().isTombstone())) {
            add(newest, versions.newestValue());
          }
        }
        // Under the empty column the row tombstone may sit behind a newer put of that column; it
        // still has to hide the row's older cells in lower levels.
        InternalKey tombstone = versions.rowTombstone();
        if (tombstone != null
            && tombstone != newest
            && newest.column().length == 0
            && !dropTombstones) {
          add(tombstone, versions.rowTombstoneValue());
        }
      }
      finishCurrent();
      ok = true;
      return outputs;
    } finally {
      if (!ok) {
        abandon();
      }
    }
  }

  private void add(InternalKey key, byte[] value) throws IOException {
    if (current != null
        && current.estimatedFileSize() >= targetFileBytes
        && !Arrays.equals(key.row(), lastRow)) {
      finishCurrent();
    }
    if (current == null) {
      currentNumber = newFileNumber.getAsLong();
      current = TableWriter.create(FileNames.table(dir, currentNumber), tableOptions);
    }
    current.add(key, value);
    lastRow = key.row();
  }

  private void finishCurrent() throws IOException {
    if (current == null) {
      return;
    }
    TableMetadata t = current.finish();
    current = null;
    TableProperties p = t.properties();
    outputs.add(
        new FileMetadata(
            currentNumber,
            outputLevel,
            t.fileSize(),
            p.entryCount(),
            p.minSequence(),
            p.maxSequence(),
            t.smallest(),
            t.largest()));
  }

  private void abandon() throws IOException {
    if (current != null) {
      current.abort();
      current = null;
    }
    for (FileMetadata f : outputs) {
      java.nio.file.Files.deleteIfExists(FileNames.table(dir, f.fileNumber()));
    }
  }
}
