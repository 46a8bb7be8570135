package dev.strata.engine.manifest;

import dev.strata.engine.write.MarkerUpdate;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One change to the manifest's state, as one record of the manifest log ({@link ManifestFormat}):
 * the counters afterwards, the tables that leave and the tables that join.
 *
 * <p>Immutable.
 *
 * @param nextFileNumber the next number to give a table or log, afterwards
 * @param lastSequence the largest sequence number in any table (the logs may hold larger ones)
 * @param logNumber the oldest log still needed afterwards
 * @param deleted the file numbers of the tables that leave; unmodifiable
 * @param added the tables that join, each at its level; unmodifiable
 * @param synced logs newly known to be forced up to a length (a clean close records them); each
 *     replaces what the state knew of that log; unmodifiable
 * @param markers the commit markers the edit sets or removes, in order (a flush records the
 *     markers as of its memtable's last write); unmodifiable
 */
public record ManifestEdit(
    long nextFileNumber,
    long lastSequence,
    long logNumber,
    List<Long> deleted,
    List<FileMetadata> added,
    List<SyncedLog> synced,
    List<MarkerUpdate> markers) {

  public ManifestEdit {
    deleted = List.copyOf(Objects.requireNonNull(deleted, "deleted"));
    added = List.copyOf(Objects.requireNonNull(added, "added"));
    synced = List.copyOf(Objects.requireNonNull(synced, "synced"));
    markers = List.copyOf(Objects.requireNonNull(markers, "markers"));
  }

  /** An edit that changes no commit marker. */
  public ManifestEdit(
      long nextFileNumber,
      long lastSequence,
      long logNumber,
      List<Long> deleted,
      List<FileMetadata> added,
      List<SyncedLog> synced) {
    this(nextFileNumber, lastSequence, logNumber, deleted, added, synced, List.of());
  }

  /** An edit of the table set that records no forced log. */
  public ManifestEdit(
      long nextFileNumber,
      long lastSequence,
      long logNumber,
      List<Long> deleted,
      List<FileMetadata> added) {
    this(nextFileNumber, lastSequence, logNumber, deleted, added, List.of(), List.of());
  }

  /**
   * Why the edit cannot apply to {@code state}, or null when it can: it deletes only tables the
   * state lists, once each, and adds only numbers the state does not list (a table that changes
   * level is deleted and added in one edit).
   */
  public String problemAgainst(Manifest state) {
    Set<Long> listed = new HashSet<>();
    state.files().forEach(f -> listed.add(f.fileNumber()));
    Set<Long> gone = new HashSet<>();
    for (long n : deleted) {
      if (!listed.contains(n) || !gone.add(n)) {
        return "deletes table " + n + ", which is not listed or deleted twice";
      }
    }
    for (FileMetadata f : added) {
      if (listed.contains(f.fileNumber()) && !gone.contains(f.fileNumber())) {
        return "adds table " + f.fileNumber() + ", which is listed already";
      }
    }
    return null;
  }
}
