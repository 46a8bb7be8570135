package dev.strata.engine.compaction;

import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.read.InternalIterator;
import dev.strata.sstable.TableMetadata;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.TableProperties;
import dev.strata.sstable.TableWriter;
import dev.strata.sstable.WriteBuffers;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.key.EncodedKeys;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Writes a merged stream of entries as the tables of one level, keeping only what a read can still
 * need: for each cell its newest entry unless its row's tombstone is newer, and each row's newest
 * row tombstone, for the latest state and for every live snapshot. Used by flush (one memtable to
 * one level-0 table) and by compaction.
 *
 * <p>Tombstones themselves are dropped only for rows where {@code bottommost} says no older level
 * can hold the row any more; otherwise they must stay to hide older data below.
 *
 * <p>Outputs are cut where {@link OutputCuts} says (near the target size), or when a table's index
 * nears the largest block a reader accepts ({@code TableWriter.isNearlyFull}), but only between
 * rows, so no row is split between two tables of a level (a Get then needs at most one table per
 * level). Nothing written is then a table the reader rejects: a flush of a huge batch becomes
 * several tables.
 *
 * <p>Versions: of each cell it keeps, for every live snapshot, the newest entry that snapshot can
 * see, and the newest entry overall ({@link SnapshotStripes}); every other version is dropped. A
 * cell entry hidden by a newer row tombstone of the same stripe goes too. A tombstone is dropped at
 * the bottom only in the oldest stripe, where no snapshot can see what it hides. (Running scans pin
 * the files and memtables they read, not sequence numbers, so they need nothing kept.)
 *
 * <p>Not thread-safe: one writer per compaction.
 */
public final class CompactionWriter {
  /** Rows between two looks at whether the job is abandoned: a volatile read, rarely. */
  private static final int ABANDON_POLL_ROWS = 256;

  private final Path dir;
  private final FileLayer files;
  /** The largest index a table may get: what a reader accepts, or less in tests. */
  private final int maxTableBlockBytes;
  private final int outputLevel;
  private final TableOptions tableOptions;
  /** Where the outputs' filter chunks and index partitions go as they are written; null for nowhere. */
  private BlockCache metadataCache;
  private final OutputCuts cuts;
  private final LongSupplier newFileNumber;
  private final Predicate<byte[]> bottommost;
  private final SnapshotStripes stripes;
  /** True once the database is closing: the job stops and deletes what it wrote. */
  private final BooleanSupplier abandoned;

  private final List<FileMetadata> outputs = new ArrayList<>();
  /** What the output tables are built in, one table after another: grown once, not per table. */
  private final WriteBuffers writeBuffers = new WriteBuffers();
  private TableWriter current;
  private long currentNumber;
  /** The current row (see {@link #rowOf}). */
  private byte[] rowBuffer = new byte[0];
  /** False until an entry of the current row is written: the first one may start a new table. */
  private boolean rowWritten;
  /** The cell key of the cell being merged, in a buffer reused cell after cell. */
  private byte[] cell = new byte[64];

  /**
   * @param bottommost true for a row no table below {@code outputLevel} can hold
   * @param stripes the live snapshots when the flush or compaction started
   * @param abandoned polled between rows: true stops the job with {@link JobAbandonedException}
   */
  public CompactionWriter(
      Path dir,
      FileLayer files,
      int outputLevel,
      TableOptions tableOptions,
      OutputCuts cuts,
      LongSupplier newFileNumber,
      Predicate<byte[]> bottommost,
      SnapshotStripes stripes,
      int maxTableBlockBytes,
      BooleanSupplier abandoned) {
    this.dir = dir;
    this.abandoned = abandoned;
    this.maxTableBlockBytes = maxTableBlockBytes;
    this.files = files;
    this.outputLevel = outputLevel;
    this.tableOptions = tableOptions;
    this.cuts = cuts;
    this.newFileNumber = newFileNumber;
    this.bottommost = bottommost;
    this.stripes = stripes;
  }

  /**
   * Puts the outputs' filter chunks and index partitions into {@code cache} as they are written
   * ({@code TableWriter.cacheMetadataIn}); returns this writer. Call before {@link #write}.
   */
  public CompactionWriter cachingMetadataIn(BlockCache cache) {
    this.metadataCache = cache;
    return this;
  }

  /**
   * Writes everything {@code merged} (positioned at its first entry) holds that is still needed and
   * returns the tables written, synced to disk with their directory entries. On failure the partial
   * outputs are deleted.
   */
  public List<FileMetadata> write(InternalIterator merged) throws IOException {
    return write(merged, null);
  }

  /** As {@link #write(InternalIterator)}, up to the first row at or past {@code endRow}. */
  public List<FileMetadata> write(InternalIterator merged, byte[] endRow) throws IOException {
    boolean ok = false;
    try {
      byte[] row = null;
      long rows = 0;
      boolean dropTombstones = false;
      // The newest row tombstone of each stripe seen so far in this row. Row tombstones live under
      // the empty column, the row's first cell, so they are all known before any other column.
      Map<Integer, Long> rowTombstones = new HashMap<>();
      // Entries are read as views of the sources' blocks (encoded key, value slice) and written
      // from them: nothing is made per entry.
      while (merged.isValid()
          && (endRow == null || EncodedKeys.compareRow(merged.encodedKey(), endRow) < 0)) {
        byte[] k = merged.encodedKey();
        int kLength = merged.encodedKeyLength();
        if (row == null || !EncodedKeys.inRow(k, row)) {
          if (++rows % ABANDON_POLL_ROWS == 0 && abandoned.getAsBoolean()) {
            throw new JobAbandonedException("the database is closing: " + dir);
          }
          row = rowOf(k);
          rowWritten = false;
          dropTombstones = bottommost.test(row);
          rowTombstones.clear();
        }
        int cellLength = EncodedKeys.cellLength(kLength);
        if (cell.length < cellLength) {
          cell = new byte[Math.max(cellLength, cell.length * 2)];
        }
        System.arraycopy(k, 0, cell, 0, cellLength);
        int previousStripe = -1;
        int previousRowTombstoneStripe = -1;
        do {
          long sequence = EncodedKeys.sequence(k, kLength);
          ValueKind kind = EncodedKeys.kind(k, kLength);
          int stripe = stripes.of(sequence);
          boolean keep;
          if (kind == ValueKind.DELETE_ROW) {
            // Under the empty column a row tombstone may sit behind a newer put of that column; it
            // still has to hide the row's older cells, here and in lower levels.
            keep = stripe != previousRowTombstoneStripe
                && !(dropTombstones && stripes.isOldest(stripe));
            if (stripe != previousRowTombstoneStripe) {
              rowTombstones.put(stripe, sequence);
              previousRowTombstoneStripe = stripe;
            }
          } else {
            Long rowTombstone = rowTombstones.get(stripe);
            keep = stripe != previousStripe
                && (rowTombstone == null || rowTombstone < sequence)
                && !(dropTombstones && stripes.isOldest(stripe) && kind.isTombstone());
          }
          if (keep) {
            add(row, k, kLength, merged);
            rowWritten = true;
          }
          previousStripe = stripe;
          merged.next();
          if (!merged.isValid()) {
            break;
          }
          k = merged.encodedKey();
          kLength = merged.encodedKeyLength();
        } while (EncodedKeys.cellLength(kLength) == cellLength
            && Arrays.equals(k, 0, cellLength, cell, 0, cellLength));
      }
      finishCurrent();
      if (!outputs.isEmpty()) {
        // The tables' names must survive a power loss before a manifest record lists them: a
        // file's own fsync does not make its directory entry durable.
        files.syncDirectory(dir);
      }
      ok = true;
      return outputs;
    } finally {
      if (!ok) {
        abandon();
      }
    }
  }

  /**
   * The row of encoded key {@code k}, in an array reused while rows keep their length (a fill's
   * rows mostly do): {@code bottommost} and the cuts only compare a row, never keep it.
   */
  private byte[] rowOf(byte[] k) {
    int length = EncodedKeys.rowLength(k);
    if (rowBuffer.length != length) {
      rowBuffer = new byte[length];
    }
    EncodedKeys.copyRow(k, rowBuffer);
    return rowBuffer;
  }

  /** Writes the entry {@code merged} stands on, whose encoded key {@code key} is in {@code row}. */
  private void add(byte[] row, byte[] key, int keyLength, InternalIterator merged) throws IOException {
    // A new table starts between rows, never inside one (a level's tables must not share a row):
    // where the cuts say, or when the table's index nears the largest block a reader accepts.
    if (!rowWritten) {
      boolean cut = cuts.cutBefore(
          row, current == null ? 0 : current.estimatedFileSize(), current != null);
      if (current != null && (cut || current.isNearlyFull())) {
        finishCurrent();
        cuts.cut();
      }
    }
    if (current == null) {
      currentNumber = newFileNumber.getAsLong();
      Path file = FileNames.table(dir, currentNumber);
      current = TableWriter.create(file, files.create(file), tableOptions, maxTableBlockBytes, writeBuffers);
      if (metadataCache != null) {
        current.cacheMetadataIn(metadataCache, currentNumber);
      }
    }
    current.add(key, keyLength, merged.valueArray(), merged.valueOffset(), merged.valueLength());
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
            t.largest(),
            p.filterType() == FilterType.NONE ? 0 : p.filterBytes(),
            p.filterType() == FilterType.NONE ? null : tableOptions.filterKind(),
            p.filterType() == FilterType.NONE ? 0 : p.bitsPerKey()));
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
