package dev.strata.engine;

import dev.strata.engine.fs.Directories;
import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.fs.FileNames.FileType;
import dev.strata.engine.fs.FileNames.DbFile;
import dev.strata.engine.log.LogReplay;
import dev.strata.engine.log.LogRecord;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.manifest.Manifest;
import dev.strata.engine.manifest.ManifestReader;
import dev.strata.engine.manifest.ManifestWriter;
import dev.strata.engine.manifest.SyncedLog;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.ObsoleteFiles;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.engine.write.MarkerSet;
import dev.strata.engine.write.Mutation;
import dev.strata.sstable.format.LazyLogger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What {@link Db#open} finds on disk: the manifest's tables, each opened once through the table
 * cache (one at a time, so the cache's bound holds) to check it, and the logs it still needs,
 * replayed into one memtable as one history under the {@link WalRecoveryMode} ({@link LogReplay}):
 * by default the longest consistent prefix, with what was dropped reported. A missing table or a
 * directory with data but no manifest fails the open with {@link CorruptionException}. An empty
 * directory becomes a new database: its empty manifest is written first.
 *
 * <p>Not thread-safe: used once, by the opening thread, under the directory lock.
 */
final class Recovery {
  private static final System.Logger LOG = LazyLogger.of(Recovery.class);

  /** The manifest, or {@link Manifest#empty()} for a new database. */
  final Manifest manifest;
  /** The manifest's tables by level, opened; the references pass to the caller. */
  final List<List<TableRef>> levels;
  /** The replayed writes of every log numbered at least the manifest's log number. */
  final MemTable replayed;
  /** The largest sequence number in the manifest or any replayed record. */
  final long lastSequence;
  /** One more than the largest file number found in the manifest or the directory. */
  final long nextFileNumber;
  /** What the log replay kept and dropped. */
  final LogReplay.Result replay;
  /** The logs replayed (the manifest's log number and later), by number. */
  final SortedMap<Long, Path> logs;
  /** The commit markers: the manifest's, then each replayed record's updates in order. */
  final MarkerSet markers;

  private Recovery(
      Manifest manifest,
      List<List<TableRef>> levels,
      MemTable replayed,
      long lastSequence,
      long next,
      LogReplay.Result replay,
      SortedMap<Long, Path> logs,
      MarkerSet markers) {
    this.manifest = manifest;
    this.levels = levels;
    this.replayed = replayed;
    this.lastSequence = lastSequence;
    this.nextFileNumber = next;
    this.replay = replay;
    this.logs = logs;
    this.markers = markers;
  }

  /**
   * Reads what is on disk. Under {@code options.files().readOnly()} it writes nothing: a directory
   * without a manifest is then an error instead of a new database; a new database's manifest is
   * written through {@code files}.
   */
  static Recovery run(
      Path dir,
      FileLayer files,
      TableCache tables,
      ObsoleteFiles obsolete,
      DbOptions options,
      Supplier<MemTable> newMemTable)
      throws IOException {
    TreeMap<Long, Path> logs = new TreeMap<>();
    long largestNumber = 0;
    boolean anyData = false;
    for (DbFile f : FileNames.list(dir)) {
      if (f.is(FileType.LOG)) {
        logs.put(f.number(), f.path());
      }
      if (f.is(FileType.LOG) || f.is(FileType.TABLE)) {
        anyData = true;
        largestNumber = Math.max(largestNumber, f.number());
      }
    }
    Optional<Manifest> found = ManifestReader.readIfExists(dir);
    if (found.isEmpty() && anyData) {
      throw new CorruptionException(
          dir, CorruptionException.UNKNOWN_OFFSET, "no MANIFEST, but the directory holds tables or logs");
    }
    if (found.isEmpty() && options.files().readOnly()) {
      throw new IOException("no database in " + dir + " (a read-only open creates none)");
    }
    if (found.isEmpty()) {
      // A new database: its first durable act is the empty manifest, before any log exists, so a
      // crash at any later moment of this open leaves a directory that opens (and the check above
      // keeps its meaning: data without a manifest is damage, never a half-created database).
      ManifestWriter.write(dir, files, Manifest.empty());
      // The database directory's own entry.
      files.syncDirectory(Directories.parentOf(dir));
    }
    Manifest manifest = found.orElse(Manifest.empty());
    checkNeededLogs(dir, manifest, logs);
    List<List<TableRef>> levels = openTables(dir, manifest, tables, obsolete);
    Recovery r;
    boolean ok = false;
    MemTable mem = null;
    try {
      mem = newMemTable.get();
      MemTable replayInto = mem;
      SortedMap<Long, Path> replayed = new TreeMap<>(logs.tailMap(manifest.logNumber(), true));
      MarkerSet[] markers = {manifest.markers()};
      Map<Long, Long> forced = new HashMap<>();
      manifest.syncedLogs().forEach(l -> forced.put(l.logNumber(), l.bytes()));
      LogReplay.Result replay =
          LogReplay.replay(
              replayed,
              forced,
              manifest.lastSequence(),
              options.memtable().walRecovery(),
              record -> {
                apply(record, replayInto);
                markers[0] = markers[0].apply(record.markers());
              });
      if (replay.droppedBytes() > 0) {
        LOG.log(
            replay.tornTailOnly() ? System.Logger.Level.WARNING : System.Logger.Level.ERROR,
            dir + ": " + replay.report());
      }
      long next = Math.max(manifest.nextFileNumber(), largestNumber + 1);
      r =
          new Recovery(
              manifest, levels, mem, replay.lastSequence(), next, replay, replayed, markers[0]);
      ok = true;
    } finally {
      if (!ok) {
        levels.forEach(level -> level.forEach(TableRef::release));
        if (mem != null) {
          mem.release();
        }
      }
    }
    return r;
  }

  /**
   * Fails the open when a log the manifest needs is gone. The log numbered {@code logNumber} holds
   * the oldest writes no table holds: it exists from before any manifest record names it (its
   * directory entry is forced before the install that records it) until a later record passes it,
   * so its absence means that record was lost (a damaged or cut manifest tail, dropped on read) after
   * the engine acted on it, or the log was deleted: either way acknowledged writes are missing.
   * Every log recorded as forced must be there too. A manifest that never named a log (a new
   * database whose first open stopped early) needs none.
   */
  private static void checkNeededLogs(Path dir, Manifest manifest, SortedMap<Long, Path> logs)
      throws CorruptionException {
    long needed = manifest.logNumber();
    if (needed > 0 && !logs.containsKey(needed)) {
      throw new CorruptionException(
          FileNames.log(dir, needed),
          CorruptionException.UNKNOWN_OFFSET,
          "the MANIFEST needs this log (writes after sequence %d that no table holds), but it is"
              + " missing: a manifest record was lost after it was acted on, or the log was deleted",
          manifest.lastSequence());
    }
    for (SyncedLog l : manifest.syncedLogs()) {
      if (!logs.containsKey(l.logNumber())) {
        throw new CorruptionException(
            FileNames.log(dir, l.logNumber()),
            CorruptionException.UNKNOWN_OFFSET,
            "log forced to %d bytes at a clean close is missing",
            l.bytes());
      }
    }
  }

  private static List<List<TableRef>> openTables(
      Path dir, Manifest manifest, TableCache tables, ObsoleteFiles obsolete) throws IOException {
    for (FileMetadata f : manifest.files()) {
      Path file = FileNames.table(dir, f.fileNumber());
      if (!Files.exists(file)) {
        throw new CorruptionException(
            file, CorruptionException.UNKNOWN_OFFSET, "table listed in the MANIFEST is missing");
      }
      // A stat per table, as RocksDB's size check at open: a cut or grown table fails here rather
      // than at the first read that needs its footer.
      long size = Files.size(file);
      if (size != f.fileSize()) {
        throw new CorruptionException(
            file, Math.min(size, f.fileSize()),
            "table is %d bytes, the MANIFEST records %d", size, f.fileSize());
      }
    }
    List<List<TableRef>> levels = new ArrayList<>();
    for (int i = 0; i < Version.NUM_LEVELS; i++) {
      levels.add(new ArrayList<>());
    }
    for (TableRef t : TableRef.openAll(dir, manifest.files(), tables, obsolete)) {
      levels.get(t.metadata().level()).add(t);
    }
    return levels;
  }


  private static void apply(LogRecord r, MemTable mem) {
    long seq = r.firstSequence();
    for (Mutation m : r.mutations()) {
      mem.add(m.key(seq++), m.value());
    }
  }
}
