package dev.strata.engine.compaction;

import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.manifest.ManifestWriteException;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.observe.CompactionEvent;
import dev.strata.engine.observe.FlightRecording;
import dev.strata.engine.observe.FlushEvent;
import dev.strata.engine.read.InternalIterator;
import dev.strata.engine.read.LevelIterator;
import dev.strata.engine.read.MemTableSource;
import dev.strata.engine.read.MergingIterator;
import dev.strata.engine.version.ObsoleteFiles;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.format.LazyLogger;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Writes the tables a flush or a compaction produces and opens them for the read path; the caller
 * installs them. The database calls it without holding its mutex: the inputs are immutable (a
 * frozen memtable, tables of a pinned version) and file numbers come from a thread-safe counter.
 *
 * <p>Thread-safe; the database runs one flush and one compaction at a time, a compaction perhaps
 * as several key-range jobs in parallel (subcompactions).
 */
public final class OutputTables {
  private static final System.Logger LOG = LazyLogger.of(OutputTables.class);
  private static final byte[] EMPTY = new byte[0];

  private final Path dir;
  private final FileLayer files;
  /** The largest index an output may get ({@code SstableFormat.MAX_BLOCK_BYTES}, less in tests). */
  private final int maxTableBlockBytes;
  /** Each output's table layout: its filter's bits per key follow its level. */
  private final FilterChoice filters;
  private final long targetFileSizeBytes;
  private final LongSupplier newFileNumber;
  /** Where inputs are read and outputs opened: the database's one set of open readers. */
  private final TableCache tables;
  /** Where the outputs go when no version lists them any more. */
  private final ObsoleteFiles obsolete;
  /**
   * Compaction reads data blocks past the block cache and counts them here, so it neither evicts
   * the read path's blocks nor shows up in its counters.
   */
  private final ReadCounters inputCounters = new ReadCounters();
  /**
   * The live snapshots, asked when a flush or compaction starts, after its inputs were fixed: a
   * snapshot taken later has a sequence at or above every input entry, so it sees the newest
   * version of each cell, which is always kept.
   */
  private final Supplier<SnapshotStripes> liveSnapshots;
  /** Key-range jobs a level-0 compaction may be cut into ({@code DbOptions.maxSubcompactions}). */
  private final int maxSubcompactions;
  /** True once the database is closing: running jobs stop ({@link JobAbandonedException}). */
  private final BooleanSupplier closing;

  public OutputTables(
      Path dir,
      FileLayer files,
      FilterChoice filters,
      long targetFileSizeBytes,
      LongSupplier newFileNumber,
      TableCache tables,
      ObsoleteFiles obsolete,
      Supplier<SnapshotStripes> liveSnapshots,
      int maxTableBlockBytes,
      int maxSubcompactions,
      BooleanSupplier closing) {
    this.dir = dir;
    this.closing = closing;
    this.maxSubcompactions = maxSubcompactions;
    this.maxTableBlockBytes = maxTableBlockBytes;
    this.files = files;
    this.filters = filters;
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.newFileNumber = newFileNumber;
    this.tables = tables;
    this.obsolete = obsolete;
    this.liveSnapshots = liveSnapshots;
  }

  /** The layouts the outputs are written with (what a filter refit plans by). */
  public FilterChoice filters() {
    return filters;
  }

  /**
   * Writes a memtable as level-0 tables (none when it is empty), keeping what the live snapshots
   * need. Tombstones stay: older tables may hold their keys. Usually one table; more only when one
   * would hold an index larger than a reader accepts, cut between rows (so each cell's versions
   * stay in one table) and returned newest first by largest sequence, as level 0 lists its tables.
   */
  public List<TableRef> flush(MemTable m) throws IOException {
    SnapshotStripes stripes = liveSnapshots.get(); // after the input was fixed: see Snapshots
    FlushEvent event = FlightRecording.initialized() ? new FlushEvent() : null;
    if (event != null) {
      event.begin();
    }
    MemTableSource source = new MemTableSource(m);
    source.seekToFirst();
    List<TableRef> tables = new ArrayList<>(openAll(
        writer(0, filters.forFlush(m.entryCount()), OutputCuts.atSize(Long.MAX_VALUE), row -> false, stripes)
            .write(source)));
    filters.flushWritten(tables);
    tables.sort(
        Comparator.comparingLong((TableRef t) -> t.metadata().largestSequence()).reversed());
    if (event != null) {
      event.end();
    }
    if (event != null && event.shouldCommit()) {
      event.directory = dir.toString();
      event.entries = m.entryCount();
      event.tablesWritten = tables.size();
      event.bytesWritten = bytes(tables);
      event.commit();
    }
    return tables;
  }

  /**
   * Merges the inputs of {@code c} into tables of its output level, split by the target file size.
   * {@code base} is the version the inputs were picked from; the caller keeps it acquired, and it
   * says where tombstones may go (no deeper level holds their row). Keeps what the live snapshots
   * need.
   */
  public List<TableRef> compact(Compaction c, Version base) throws IOException {
    SnapshotStripes stripes = liveSnapshots.get(); // after the inputs were fixed: see Snapshots
    CompactionEvent event = FlightRecording.initialized() ? new CompactionEvent() : null;
    if (event != null) {
      event.begin();
    }
    List<List<TableRef>> levelZero = new ArrayList<>();
    for (TableRef t : c.inputs()) {
      if (t.metadata().level() == 0) {
        levelZero.add(List.of(t));
      }
    }
    List<TableRef> intermediate = new ArrayList<>();
    List<TableRef> written;
    try {
      int perJob = tables.openTablesPerJob();
      int others = sortedRuns(c);
      if (levelZero.size() + others > perJob) {
        levelZero = mergeInPasses(levelZero, Math.max(2, perJob - others), stripes, intermediate);
      }
      int open = levelZero.size() + others;
      int jobs = Math.min(maxSubcompactions, Math.max(1, perJob / Math.max(1, open)));
      List<byte[]> bounds =
          c.level() == 0 && intermediate.isEmpty()
              ? Subcompactions.boundaries(c.outputLevelInputs(), jobs)
              : List.of();
      List<List<TableRef>> runs = levelZero;
      written =
          bounds.isEmpty()
              ? openAll(compactRange(c, runs, base, stripes, null, null))
              : openAll(inParallel(c, runs, base, stripes, bounds));
    } finally {
      discard(intermediate);
    }
    if (event != null) {
      event.end();
    }
    if (event != null && event.shouldCommit()) {
      event.directory = dir.toString();
      event.outputLevel = c.outputLevel();
      event.inputTables = c.allInputs().size();
      event.inputBytes = c.inputBytes();
      event.tablesWritten = written.size();
      event.bytesWritten = bytes(written);
      event.commit();
    }
    return written;
  }

  /**
   * The sorted runs of {@code c} besides its level-0 tables, each read one table at a time: one
   * per deeper input level, and the output level's inputs.
   */
  private static int sortedRuns(Compaction c) {
    boolean[] levels = new boolean[Version.NUM_LEVELS];
    for (TableRef t : c.inputs()) {
      levels[t.metadata().level()] = true;
    }
    int runs = c.outputLevelInputs().isEmpty() ? 0 : 1;
    for (int level = 1; level < Version.NUM_LEVELS; level++) {
      runs += levels[level] ? 1 : 0;
    }
    return runs;
  }

  /**
   * Merges level-0 runs, {@code fanIn} at a time, into runs of intermediate tables until at most
   * {@code fanIn} are left, so that no merge holds more than {@code fanIn} tables open (RocksDB and
   * LevelDB bound open files the same way: a merge's inputs are open at once, and level 0 may hold
   * more tables than {@code maxOpenFiles}). Neighbours in age are merged, keeping every version the
   * live snapshots need and every tombstone, so the final merge sees what it would have seen of the
   * inputs themselves. The intermediate tables go to {@code intermediate}; the caller deletes them.
   */
  private List<List<TableRef>> mergeInPasses(
      List<List<TableRef>> runs, int fanIn, SnapshotStripes stripes, List<TableRef> intermediate)
      throws IOException {
    while (runs.size() > fanIn) {
      List<List<TableRef>> next = new ArrayList<>();
      for (int i = 0; i < runs.size(); i += fanIn) {
        List<List<TableRef>> group = runs.subList(i, Math.min(runs.size(), i + fanIn));
        if (group.size() == 1) {
          next.add(group.get(0));
          continue;
        }
        List<InternalIterator> sources = new ArrayList<>();
        List<TableRef> merged;
        try {
          for (List<TableRef> run : group) {
            sources.add(runIterator(run));
          }
          MergingIterator m = new MergingIterator(sources);
          m.seekToFirst();
          merged =
              openAll(
                  writer(0, filters.uniform(), OutputCuts.atSize(Long.MAX_VALUE), row -> false, stripes)
                      .write(m));
        } finally {
          sources.forEach(InternalIterator::close);
        }
        intermediate.addAll(merged);
        next.add(merged);
      }
      runs = next;
    }
    return runs;
  }

  /** A run of disjoint tables in row order, read one table at a time. */
  private InternalIterator runIterator(List<TableRef> run) throws IOException {
    LevelIterator.Opener opener = t -> t.bulkIterator(inputCounters);
    return run.size() == 1 ? opener.open(run.get(0)) : new LevelIterator(run, opener);
  }

  /**
   * The subcompactions of {@code c}: one job per range between {@code bounds}, the first on this
   * thread and each other on a thread of its own; their outputs in row order, disjoint since the
   * ranges are. When one fails, the others' outputs are deleted and the first failure thrown.
   */
  private List<FileMetadata> inParallel(
      Compaction c,
      List<List<TableRef>> levelZero,
      Version base,
      SnapshotStripes stripes,
      List<byte[]> bounds)
      throws IOException {
    int jobs = bounds.size() + 1;
    List<CompletableFuture<List<FileMetadata>>> others = new ArrayList<>();
    for (int i = 1; i < jobs; i++) {
      byte[] from = bounds.get(i - 1);
      byte[] to = i < bounds.size() ? bounds.get(i) : null;
      CompletableFuture<List<FileMetadata>> job = new CompletableFuture<>();
      Thread t =
          new Thread(
              () -> {
                try {
                  job.complete(compactRange(c, levelZero, base, stripes, from, to));
                } catch (Throwable e) {
                  job.completeExceptionally(e);
                }
              },
              "strata-subcompaction-" + i);
      t.setDaemon(true);
      t.start();
      others.add(job);
    }
    List<List<FileMetadata>> results = new ArrayList<>();
    Throwable failure = null;
    try {
      results.add(compactRange(c, levelZero, base, stripes, null, bounds.get(0)));
    } catch (Throwable e) {
      failure = e;
    }
    for (CompletableFuture<List<FileMetadata>> job : others) {
      try {
        results.add(job.join()); // every job ends before this returns, failed or not
      } catch (CompletionException e) {
        if (failure == null) {
          failure = e.getCause();
        } else {
          failure.addSuppressed(e.getCause());
        }
      }
    }
    if (failure != null) {
      results.forEach(this::deleteFiles);
      if (failure instanceof IOException io) {
        throw io;
      }
      if (failure instanceof RuntimeException r) {
        throw r;
      }
      if (failure instanceof Error err) {
        throw err;
      }
      throw new IOException(failure);
    }
    List<FileMetadata> all = new ArrayList<>();
    results.forEach(all::addAll);
    return all;
  }

  /**
   * Merges the rows of {@code c}'s inputs in [fromRow, toRow) (null: unbounded) into tables of its
   * output level, its level-0 inputs read as {@code levelZero} (each run disjoint and sorted: a
   * level-0 table, or the intermediate tables of several).
   */
  private List<FileMetadata> compactRange(
      Compaction c,
      List<List<TableRef>> levelZero,
      Version base,
      SnapshotStripes stripes,
      byte[] fromRow,
      byte[] toRow)
      throws IOException {
    List<InternalIterator> sources = new ArrayList<>();
    try {
      // Level-0 runs overlap: an iterator each. The inputs of a deeper level (a manual
      // compaction's are every level's, in level order) and the output level's are disjoint and
      // sorted: one LevelIterator each, so one table per level is open at a time.
      LevelIterator.Opener opener = t -> t.bulkIterator(inputCounters);
      List<List<TableRef>> byLevel = new ArrayList<>();
      for (int level = 0; level < Version.NUM_LEVELS; level++) {
        byLevel.add(new ArrayList<>());
      }
      c.inputs().forEach(t -> byLevel.get(t.metadata().level()).add(t));
      for (List<TableRef> run : levelZero) {
        sources.add(runIterator(run));
      }
      for (int level = 1; level < Version.NUM_LEVELS; level++) {
        if (!byLevel.get(level).isEmpty()) {
          sources.add(new LevelIterator(byLevel.get(level), opener));
        }
      }
      if (!c.outputLevelInputs().isEmpty()) {
        sources.add(new LevelIterator(c.outputLevelInputs(), opener));
      }
      MergingIterator merged = new MergingIterator(sources);
      if (fromRow == null) {
        merged.seekToFirst();
      } else {
        merged.seek(new InternalKey(fromRow, EMPTY, InternalKey.MAX_SEQUENCE, ValueKind.PUT));
      }
      int outputLevel = c.outputLevel();
      return writer(outputLevel, filters.forCompaction(c, base),
              OutputCuts.atBoundaries(targetFileSizeBytes, c.grandparents(base)),
              row -> !base.deeperLevelsCover(outputLevel, row), stripes)
          .write(merged, toRow);
    } finally {
      sources.forEach(InternalIterator::close);
    }
  }

  /**
   * A writer of tables at {@code level} laid out as {@code layout}, putting their metadata into the
   * block cache as it writes it when the options ask for that.
   */
  private CompactionWriter writer(int level, TableOptions layout, OutputCuts cuts,
      Predicate<byte[]> bottommost, SnapshotStripes stripes) {
    CompactionWriter w = new CompactionWriter(dir, files, level, layout, cuts, newFileNumber,
        bottommost, stripes, maxTableBlockBytes, closing);
    return filters.cacheMetadataOnWrite() ? w.cachingMetadataIn(tables.blockCache()) : w;
  }

  /** The table of {@code t}'s file, listed at {@code level}: a trivial move rewrites nothing. */
  private static TableRef moved(TableRef t, int level) {
    return t.relisted(t.metadata().atLevel(level));
  }

  /**
   * The inputs of a trivial move ({@link Compaction#isTrivialMove}) listed at its output level:
   * the same files, nothing written.
   */
  public List<TableRef> moved(Compaction c) {
    List<TableRef> out = new ArrayList<>();
    c.inputs().forEach(t -> out.add(moved(t, c.outputLevel())));
    return out;
  }

  /**
   * Deletes the files of outputs whose install failed (the version that would have listed them
   * was released), so a flush or compaction retried on a full disk leaves no orphan behind, and
   * retires any reader opened for them (a flush opens level-0 outputs to pin their metadata).
   * Best effort: a file left behind is deleted at the next open as unlisted.
   */
  public void discard(List<TableRef> written) {
    List<FileMetadata> metadata = new ArrayList<>();
    for (TableRef t : written) {
      obsolete.retire(t.metadata().fileNumber(), null);
      metadata.add(t.metadata());
    }
    deleteFiles(metadata);
  }

  /**
   * {@link #discard}s the outputs of a failed install unless the manifest may list them all the
   * same (a manifest write whose outcome is unknown): then they stay, and the next open deletes
   * them if they turn out unlisted.
   */
  public void discardUnlessListed(List<TableRef> written, Throwable failure) {
    if (!ManifestWriteException.mayHaveReachedDisk(failure)) {
      discard(written);
    }
  }

  /** Deletes the files of outputs no version lists; best effort, as {@link #discard}. */
  private void deleteFiles(List<FileMetadata> written) {
    for (FileMetadata t : written) {
      try {
        Files.deleteIfExists(FileNames.table(dir, t.fileNumber()));
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "could not delete the unlisted output " + t, e);
      }
    }
  }

  private static long bytes(List<TableRef> tables) {
    long sum = 0;
    for (TableRef t : tables) {
      sum += t.metadata().fileSize();
    }
    return sum;
  }

  private List<TableRef> openAll(List<FileMetadata> files) throws IOException {
    return TableRef.openAll(dir, files, tables, obsolete);
  }

}
