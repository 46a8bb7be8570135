package dev.strata.engine.manifest;

import dev.strata.engine.write.Limits;
import dev.strata.engine.write.MarkerSet;
import dev.strata.sstable.key.InternalKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The durable state of a database besides its tables' contents: which tables make up each level,
 * and the counters a reopen continues from: a snapshot of the manifest log with its edits applied
 * (see {@link ManifestFormat}).
 *
 * <p>Immutable.
 *
 * @param nextFileNumber the next number to give a table or log; larger than every number in use
 * @param lastSequence the largest sequence number in any table (the logs may hold larger ones)
 * @param logNumber the oldest log still needed: every log numbered {@code >= logNumber} is replayed
 *     on open, older logs are obsolete
 * @param files the live tables, in the order the engine lists them (level 0 newest first, other
 *     levels by smallest key); unmodifiable
 * @param syncedLogs the needed logs (numbered {@code >= logNumber}) known to be forced up to a
 *     length, by log number; unmodifiable
 * @param markers the commit markers as of the last write the tables hold (the writes in the logs
 *     replayed on open change them further)
 */
public record Manifest(
    long nextFileNumber,
    long lastSequence,
    long logNumber,
    List<FileMetadata> files,
    List<SyncedLog> syncedLogs,
    MarkerSet markers) {

  public Manifest {
    files = List.copyOf(Objects.requireNonNull(files, "files"));
    syncedLogs = List.copyOf(Objects.requireNonNull(syncedLogs, "syncedLogs"));
    Objects.requireNonNull(markers, "markers");
  }

  /** A state without commit markers. */
  public Manifest(
      long nextFileNumber,
      long lastSequence,
      long logNumber,
      List<FileMetadata> files,
      List<SyncedLog> syncedLogs) {
    this(nextFileNumber, lastSequence, logNumber, files, syncedLogs, MarkerSet.EMPTY);
  }

  /** A state that knows of no forced log. */
  public Manifest(long nextFileNumber, long lastSequence, long logNumber, List<FileMetadata> files) {
    this(nextFileNumber, lastSequence, logNumber, files, List.of());
  }

  /** The manifest of a new, empty database: no tables, no sequence used, every log needed. */
  public static Manifest empty() {
    return new Manifest(1, 0, 0, List.of());
  }

  /**
   * The state after {@code edit} (which must apply: {@link ManifestEdit#problemAgainst}): its
   * counters, the tables without the deleted ones and with the added ones, listed as the engine
   * lists them (by level; level 0 newest first, by largest sequence number; deeper levels by
   * smallest key), the forced logs with the edit's, less those below its log number, and the
   * commit markers with the edit's updates applied.
   */
  public Manifest apply(ManifestEdit edit) {
    Set<Long> deleted = new HashSet<>(edit.deleted());
    List<FileMetadata> out = new ArrayList<>();
    for (FileMetadata f : files) {
      if (!deleted.contains(f.fileNumber())) {
        out.add(f);
      }
    }
    out.addAll(edit.added());
    out.sort(LISTING_ORDER);
    TreeMap<Long, SyncedLog> synced = new TreeMap<>();
    for (SyncedLog l : syncedLogs) {
      synced.put(l.logNumber(), l);
    }
    for (SyncedLog l : edit.synced()) {
      synced.put(l.logNumber(), l);
    }
    List<SyncedLog> needed = new ArrayList<>(synced.tailMap(edit.logNumber(), true).values());
    return new Manifest(
        edit.nextFileNumber(),
        edit.lastSequence(),
        edit.logNumber(),
        out,
        needed,
        markers.apply(edit.markers()));
  }

  /** The order the engine lists tables in; see {@link #apply}. */
  private static final Comparator<FileMetadata> LISTING_ORDER =
      (a, b) -> {
        if (a.level() != b.level()) {
          return Integer.compare(a.level(), b.level());
        }
        if (a.level() == 0) {
          return Long.compare(b.largestSequence(), a.largestSequence());
        }
        return InternalKey.compare(a.smallest(), b.smallest());
      };

  /** The tables at {@code level}, in list order. */
  public List<FileMetadata> filesAt(int level) {
    List<FileMetadata> out = new ArrayList<>();
    for (FileMetadata f : files) {
      if (f.level() == level) {
        out.add(f);
      }
    }
    return out;
  }

  /**
   * The first broken invariant, or null when there is none: counters in range, file numbers unique
   * and below {@code nextFileNumber}, levels in range, each table's key and sequence ranges ordered
   * and within {@code lastSequence}, keys within the row and column limits, and the tables of each
   * level from 1 down disjoint.
   */
  public String problem() {
    if (nextFileNumber < 1 || logNumber < 0 || logNumber >= nextFileNumber) {
      return "logNumber " + logNumber + " not below nextFileNumber " + nextFileNumber;
    }
    if (lastSequence < 0 || lastSequence > InternalKey.MAX_SEQUENCE) {
      return "lastSequence " + lastSequence + " out of range";
    }
    if (markers.size() > Limits.MAX_COMMIT_MARKERS) {
      return markers.size() + " commit markers, over MAX_COMMIT_MARKERS";
    }
    long previousLog = -1;
    for (SyncedLog l : syncedLogs) {
      if (l.logNumber() < logNumber || l.logNumber() >= nextFileNumber || l.bytes() < 0
          || l.logNumber() <= previousLog) {
        return "forced log " + l + " out of order or outside [logNumber " + logNumber
            + ", nextFileNumber " + nextFileNumber + ")";
      }
      previousLog = l.logNumber();
    }
    Set<Long> numbers = new HashSet<>();
    for (FileMetadata f : files) {
      String p = problem(f);
      if (p != null) {
        return "table " + f.fileNumber() + ": " + p;
      }
      if (!numbers.add(f.fileNumber())) {
        return "table " + f.fileNumber() + " listed twice";
      }
    }
    for (int level = 1; level < ManifestFormat.NUM_LEVELS; level++) {
      List<FileMetadata> sorted = filesAt(level);
      sorted.sort(Comparator.comparing(FileMetadata::smallest, InternalKey.ORDER));
      for (int i = 1; i < sorted.size(); i++) {
        FileMetadata a = sorted.get(i - 1);
        FileMetadata b = sorted.get(i);
        if (InternalKey.compare(a.largest(), b.smallest()) >= 0) {
          return "tables "
              + a.fileNumber()
              + " and "
              + b.fileNumber()
              + " overlap in level "
              + level;
        }
      }
    }
    return null;
  }

  private String problem(FileMetadata f) {
    if (f.fileNumber() < 0 || f.fileNumber() >= nextFileNumber) {
      return "file number not below nextFileNumber " + nextFileNumber;
    }
    if (f.level() < 0 || f.level() >= ManifestFormat.NUM_LEVELS) {
      return "level " + f.level() + " out of range";
    }
    if (f.filterBytes() < FileMetadata.UNKNOWN_FILTER_BYTES) {
      return "filterBytes " + f.filterBytes() + " out of range";
    }
    if (f.fileSize() < 0 || f.entryCount() < 0) {
      return "negative size " + f.fileSize() + " or entry count " + f.entryCount();
    }
    if (f.smallestSequence() < 0
        || f.smallestSequence() > f.largestSequence()
        || f.largestSequence() > lastSequence) {
      return "sequence range ["
          + f.smallestSequence()
          + ", "
          + f.largestSequence()
          + "] not within [0, lastSequence "
          + lastSequence
          + "]";
    }
    for (InternalKey k : List.of(f.smallest(), f.largest())) {
      if (k.row().length == 0
          || k.row().length > Limits.MAX_ROW_LENGTH
          || k.column().length > Limits.MAX_COLUMN_LENGTH
          || k.sequence() < 0
          || k.sequence() > InternalKey.MAX_SEQUENCE) {
        return "key out of limits: " + k;
      }
    }
    if (InternalKey.compare(f.smallest(), f.largest()) > 0) {
      return "smallest key " + f.smallest() + " after largest " + f.largest();
    }
    return null;
  }
}
