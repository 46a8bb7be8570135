package dev.strata.engine.compaction;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.ObsoleteFiles;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.cache.ClockBlockCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Table entries for versions that compaction decisions are tested on: manifest entries with rows
 * and sizes but no file behind them (nothing reads one). Numbered from 1 up, so each entry is newer
 * than the ones made before it.
 *
 * <p>Not thread-safe.
 */
final class TableEntries implements AutoCloseable {
  private final Path dir;
  private final TableCache cache;
  private final ObsoleteFiles obsolete;
  private long nextFile = 1;

  TableEntries(Path dir) {
    this.dir = dir;
    this.cache = new TableCache(dir, -1, new ClockBlockCache(1 << 20), new ReadCounters());
    this.obsolete = new ObsoleteFiles(dir, cache, null);
  }

  /** An entry at {@code level} spanning rows [from, to]; level-0 entries go in newest first. */
  TableRef table(int level, String from, String to, long bytes) throws IOException {
    return table(level, from, to, bytes, 1);
  }

  /** {@link #table(int, String, String, long)} of {@code entries} entries. */
  TableRef table(int level, String from, String to, long bytes, long entries) throws IOException {
    return table(level, from, to, bytes, entries, 0);
  }

  /** {@link #table(int, String, String, long, long)} whose filters take {@code filterBytes}. */
  TableRef table(int level, String from, String to, long bytes, long entries, long filterBytes)
      throws IOException {
    long number = nextFile++;
    FileMetadata m =
        new FileMetadata(number, level, bytes, entries, number, number, key(from, number),
            key(to, number), filterBytes);
    return TableRef.open(dir, m, cache, obsolete);
  }

  /** One empty, mutable list per level, for {@link Version#of}. */
  static List<List<TableRef>> emptyLevels() {
    List<List<TableRef>> levels = new ArrayList<>();
    for (int i = 0; i < Version.NUM_LEVELS; i++) {
      levels.add(new ArrayList<>());
    }
    return levels;
  }

  @Override
  public void close() {
    obsolete.close();
    cache.close();
  }

  private static InternalKey key(String row, long sequence) {
    return new InternalKey(
        row.getBytes(StandardCharsets.UTF_8), new byte[0], sequence, ValueKind.PUT);
  }
}
