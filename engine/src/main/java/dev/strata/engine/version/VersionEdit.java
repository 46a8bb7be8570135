package dev.strata.engine.version;

import java.util.ArrayList;
import java.util.List;

/**
 * A change to the table set, produced by a flush or a compaction: tables added per level (with the
 * one reference each that passes to the next version) and file numbers deleted.
 *
 * <p>Not thread-safe: built by one background task, then applied under the engine's mutex.
 */
public final class VersionEdit {
  private final List<List<TableRef>> added = new ArrayList<>();
  private final List<Long> deleted = new ArrayList<>();

  public VersionEdit() {
    for (int i = 0; i < Version.NUM_LEVELS; i++) {
      added.add(new ArrayList<>());
    }
  }

  /** Adds a table at its metadata's level. */
  public VersionEdit add(TableRef table) {
    added.get(table.metadata().level()).add(table);
    return this;
  }

  /** Removes a table from the set. */
  public VersionEdit delete(long fileNumber) {
    deleted.add(fileNumber);
    return this;
  }

  /** Tables added at {@code level}. */
  public List<TableRef> added(int level) {
    return added.get(level);
  }

  /** File numbers deleted. */
  public List<Long> deletedFileNumbers() {
    return deleted;
  }

  /** True when the edit changes nothing. */
  public boolean isEmpty() {
    return deleted.isEmpty() && added.stream().allMatch(List::isEmpty);
  }
}
